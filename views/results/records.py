"""A game's record in and out: its scored record as JSON, its pad as CSV, and a game or an evening started from a record.

The record is the public format of ``rules.record`` (an evening's, ``rules.evening_record``);
the rules read it, and an imported game is started like any other (``views.table.starting``).
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response as BaseResponse

from infra.extensions import csrf
from models import CardTable, Game, db, folded
from rules import evening_record, record
from rules.history import import_changes
from rules.problems import N_, Illegal, Problem
from views.pages.limits import importing
from views.table.addresses import open_to_read
from views.table.scoreboard import csv_export as csv_export_text
from views.table.sheets import scoreboard
from views.table.starting import add_game, create_game
from views.table.taps import say

bp = Blueprint("records", __name__)

MAX_IMPORT_BYTES = 256 * 1024
"""A game record is a few kilobytes; anything far larger is not one."""


@bp.get("/g/<token>/record.json")
def export(token: str) -> BaseResponse:
    """Return the game's scored record: the same JSON the `score` command prints.

    Served as ``application/json`` with ``nosniff``, a name like ``<script>`` in it stays text.
    """
    game, _ = open_to_read(token)
    body = record.dumps(record.scored(folded(game).table.game))
    return Response(body, mimetype="application/json")


@bp.get("/g/<token>/points.csv")
def csv_export(token: str) -> BaseResponse:
    """Return the pad for a spreadsheet: a row per round or day, a column per player."""
    game, _ = open_to_read(token)
    board = scoreboard(game)
    response = Response(csv_export_text(board).encode("utf-8-sig"), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="tischblock-{game.kind}-{game.created_at:%Y-%m-%d}.csv"'
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response


@bp.route("/import", methods=["GET", "POST"])
@importing
def import_record() -> BaseResponse | tuple[str, int]:
    """Start a game from a record: JSON answers 201 with its address, the upload form redirects there.

    The JSON body needs no CSRF token: a browser cannot send ``application/json`` to another
    site without that site's consent, so only the upload form is checked.
    """
    if request.method == "GET":
        return render_template("records/import.html", problems=[]), 200
    if request.mimetype == "application/json":
        return _import_json()
    if current_app.config["WTF_CSRF_ENABLED"]:
        csrf.protect()  # the upload form; ``protect`` itself would ignore the setting
    upload = request.files.get("record")
    if upload is None or not upload.filename:
        return render_template("records/import.html", problems=[gettext("Choose a game record file to import.")]), 422
    data = upload.read(MAX_IMPORT_BYTES + 1)
    try:
        game = _import(data)
    except Illegal as illegal:
        refusals = [f"{problem.place}: {say(problem)}" if problem.place else say(problem) for problem in illegal.problems]
        return render_template("records/import.html", problems=refusals), 422
    return redirect(url_for("games.sheet", token=game.token), code=303)


def _import_json() -> BaseResponse:
    """Import a record sent as a JSON body; the refusals are the lines ``flask score`` prints."""
    try:
        game = _import(request.get_data(cache=False)[: MAX_IMPORT_BYTES + 1])
    except Illegal as illegal:
        response = jsonify(problems=[str(p) for p in illegal.problems])
        response.status_code = 422
        return response
    location = url_for("games.sheet", token=game.token, _external=True)
    response = jsonify(location=location, record=url_for("records.export", token=game.token, _external=True))
    response.status_code = 201
    response.headers["Location"] = location
    return response


def _import(data: bytes) -> Game:
    """Create a game from record text, round or day in progress included, or raise Illegal with every problem.

    The game, its players and its first changes are stored in one transaction: all or nothing.
    """
    if len(data) > MAX_IMPORT_BYTES:
        raise Illegal([Problem("record", N_("is larger than {size} KiB"), {"size": MAX_IMPORT_BYTES // 1024})])
    raw = record.decode(data)
    if evening_record.is_evening(raw):
        return _import_evening(evening_record.parse(raw))
    imported = record.parse(raw)
    game = create_game(record.setup(imported), changes=import_changes(imported))
    current_app.logger.info("imported a %s game", game.kind)
    return game


def _import_evening(evening: evening_record.Evening) -> Game:
    """Start an evening's games at a new table, each following the one before, in one transaction; return the last.

    The last game is the table's current one: the table address and its TV open it.
    """
    table = CardTable(name=evening.table)
    game: Game | None = None
    try:
        for imported in evening.games:
            game = add_game(record.setup(imported), previous=game, changes=import_changes(imported), table=table)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    assert game is not None, "an evening record holds at least one game"
    current_app.logger.info("imported an evening of %d games", len(evening.games))
    return game


csrf.exempt(import_record)
