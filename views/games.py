"""What every game has: starting it, its sheet's address, importing and exporting its record, its history, undo and a rematch.

Nothing here knows a game by name: the rules registry (``rules.games``) and the sheet views
(``views.sheets``) answer for the game at hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from flask import Blueprint, Response, abort, current_app, jsonify, redirect, render_template, request, session, url_for
from flask_babel import gettext
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response as BaseResponse

from infra.extensions import csrf
from models import CardTable, Game, Player, StaleError, db, table_of
from models.event import add_first_events, append_event
from rules import evening_record, record
from rules.games import find_game
from rules.history import UNDO, Change, TableEvent, import_changes, superseded
from rules.json_value import JSON
from rules.problems import N_, Illegal, Problem
from views.addresses import game_for_reading, game_or_404, shown_on_tv
from views.changes import between_games, describe_history, rematch_of
from views.forms import is_whole
from views.limits import creating, importing
from views.render import go_to
from views.scoreboard import csv_export as csv_export_text
from views.sheets import SHEETS, SheetView, sheet_of
from views.taps import record_tap, say

bp = Blueprint("games", __name__)

MAX_IMPORT_BYTES = 256 * 1024
"""A game record is a few kilobytes; anything far larger is not one."""
RECENT_NAMES = 12
"""How many player names this device remembers from its recent games."""


@dataclass
class NewGameForm:
    """The new-game form as the player filled it in so far; every button press comes back to it."""

    kind: str
    names: list[str]
    dealer: int = 0
    settings: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    action: str = ""
    """Where the form is sent: the new-game page, or another game at a table (``views.evening``)."""

    @property
    def views(self) -> SheetView:
        """Return the views of the game being set up: its seats and options."""
        return sheet_of(self.kind)

    @classmethod
    def empty(cls, kind: str, *, action: str = "") -> NewGameForm:
        """Return a blank form with the defaults, sent to ``action`` (the new-game page by default)."""
        views = sheet_of(kind)
        return cls(
            kind=kind,
            names=[""] * views.SEATS,
            settings={option.name: option.default for option in views.OPTIONS},
            action=action or url_for("games.new", kind=kind),
        )

    @classmethod
    def submitted(cls, kind: str, *, action: str = "") -> NewGameForm:
        """Return the form as it came in, cleaned of anything that is not one of its choices."""
        form = cls.empty(kind, action=action)
        seats = form.views.SEATS
        names = [record.trimmed_name(name) for name in request.form.getlist("player")][:seats]
        form.names = names + [""] * (seats - len(names))
        dealer = request.form.get("dealer", "0")
        form.dealer = int(dealer) if is_whole(dealer) and int(dealer) < seats else 0
        for option in form.views.OPTIONS:
            value = request.form.get(option.name, option.default)
            if value in {choice.value for choice in option.choices}:
                form.settings[option.name] = value
        return form

    def apply(self, action: str) -> None:
        """Carry out a button that rearranges the form: move a player, add a remembered name, clear a seat."""
        verb, _, argument = action.partition(":")
        if verb == "add":
            name = record.trimmed_name(argument[: record.MAX_NAME_LENGTH])
            if name and record.same_name_as(name, self.players) is None and "" in self.names:
                self.names[self.names.index("")] = name
            return
        if not is_whole(argument) or int(argument) >= len(self.names):
            return
        seat = int(argument)
        other = {"up": seat - 1, "down": seat + 1}.get(verb)
        if other is not None and 0 <= other < len(self.names):
            self.names[seat], self.names[other] = self.names[other], self.names[seat]
            if self.dealer in (seat, other):
                self.dealer = other if self.dealer == seat else seat
        elif verb == "clear":
            self.names[seat] = ""

    @property
    def players(self) -> list[str]:
        """Return the names filled in, in seating order."""
        return [name for name in self.names if name]

    def setup(self) -> dict[str, JSON]:
        """Return the game the form describes, as a record without rounds or days."""
        return {"game": self.kind, "players": list[JSON](self.players), **self.views.setup_from_form(self.settings)}

    def first_dealer(self) -> int:
        """Return the dealer's position among the filled-in seats."""
        filled = [seat for seat, name in enumerate(self.names) if name]
        return filled.index(self.dealer) if self.dealer in filled else 0


def create_game(
    setup: Mapping[str, JSON], *, first_dealer: int = 0, previous: Game | None = None, changes: Sequence[Change] = ()
) -> Game:
    """Store a new game for a checked setup, with its first changes, in one transaction.

    A rematch sits at the previous game's table, any other game at a new one. Raises ``Illegal``
    (and stores nothing) when the rules refuse the changes, ``IntegrityError`` if ``previous``
    already has a rematch (the database allows one).
    """
    try:
        game = _add_game(setup, first_dealer=first_dealer, previous=previous, changes=changes)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return game


def _add_game(
    setup: Mapping[str, JSON], *, first_dealer: int = 0, previous: Game | None = None, changes: Sequence[Change] = (), table: CardTable | None = None
) -> Game:
    """Add a new game, its players and first changes to the session, at ``previous``'s table, at ``table``, or at a new one."""
    game = Game.from_setup(setup, first_dealer=first_dealer, previous_id=previous.id if previous else None)
    game.card_table = previous.card_table if previous else table or CardTable()
    game.players = [Player(seat=seat, name=name) for seat, name in enumerate(record.player_names(setup))]
    db.session.add(game)
    add_first_events(game, changes)
    return game


def remember_names(names: Iterable[str]) -> None:
    """Keep the names of a new game's players, most recent first, to offer them next time."""
    recent = recent_names()
    fresh = list(names)
    session["recent_names"] = (fresh + [name for name in recent if name not in fresh])[:RECENT_NAMES]


def recent_names() -> list[str]:
    """Return the player names this device used in its recent games."""
    return [name for name in session.get("recent_names", []) if isinstance(name, str)]


def new_game_page(form: NewGameForm, status: int = 200) -> tuple[str, int]:
    """Render the new-game form: the shared form, with the game's own fields from its template folder."""
    return render_template(
        f"{form.views.FOLDER}/new.html",
        form=form,
        title=find_game(form.kind).TITLE,
        options=form.views.OPTIONS,
        recent=[name for name in recent_names() if name not in form.names],
    ), status


@bp.route("/new/<kind>", methods=["GET", "POST"])
@creating
def new(kind: str) -> BaseResponse | tuple[str, int]:
    """Show the new-game form, rearrange it on a button press, or start the game."""
    if kind not in SHEETS:
        abort(404)
    if request.method == "GET":
        return new_game_page(NewGameForm.empty(kind))
    return answer_new_game_form(NewGameForm.submitted(kind), lambda setup, dealer: create_game(setup, first_dealer=dealer))


def answer_new_game_form(
    form: NewGameForm, start: Callable[[dict[str, JSON], int], Game]
) -> BaseResponse | tuple[str, int]:
    """Answer a posted new-game form: rearrange it on a button press, show the rules' refusal, or start the game.

    ``start`` stores the game from its setup and first dealer: at a new table, or after a game at its table.
    """
    action = request.form.get("action", "start")
    if action != "start":
        form.apply(action)
        return new_game_page(form)
    setup = form.setup()
    try:
        record.parse(setup)
    except Illegal as illegal:
        form.problems = [say(problem) for problem in illegal.problems]
        return new_game_page(form, 422)
    game = start(setup, form.first_dealer())
    remember_names(form.players)
    return go_to(url_for("games.sheet", token=game.token))


@bp.get("/g/<token>")
def sheet(token: str) -> BaseResponse:
    """Show the game's score sheet (without controls at the read-only address).

    A table's TV moves on by itself once the game is over (to the evening's standings) and
    once a rematch runs: it opens whatever the table shows now.
    """
    game = game_for_reading(token)
    tv = shown_on_tv(game)
    if tv is not None and (rematch_of(game) is not None or between_games(game)):
        return go_to(url_for("join.tv", token=tv.token))
    return sheet_of(game.kind).render(game)


@bp.get("/g/<token>/record.json")
def export(token: str) -> BaseResponse:
    """Return the game's scored record: the same JSON the `score` command prints.

    Served as ``application/json`` with ``nosniff``, a name like ``<script>`` in it stays text.
    """
    game = game_for_reading(token)
    body = record.dumps(record.scored(table_of(game).game))
    return Response(body, mimetype="application/json")


@bp.get("/g/<token>/points.csv")
def csv_export(token: str) -> BaseResponse:
    """Return the pad for a spreadsheet: a row per round or day, a column per player."""
    game = game_for_reading(token)
    board = sheet_of(game.kind).scoreboard(game)
    response = Response(csv_export_text(board).encode("utf-8-sig"), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="tischblock-{game.kind}-{game.created_at:%Y-%m-%d}.csv"'
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response


@bp.post("/g/<token>/undo")
def undo(token: str) -> BaseResponse:
    """Take back the change the button named, as a new event, while it is still the last one.

    The button names the change the phone saw last; if another phone added a change
    meanwhile, undoing the named one would skip it (409), and undoing "whatever is last
    now" would take back a change nobody at this phone saw.
    """
    game = game_or_404(token)
    views = sheet_of(game.kind)
    target = request.form.get("event", "")
    if not is_whole(target):
        return views.after_tap(game, [gettext("This undo does not say which change it takes back. Tap undo on the sheet again.")])

    def still_last(events: Sequence[TableEvent]) -> None:
        if superseded(events, int(target)):
            raise StaleError(f"change {target} is no longer the last one")

    try:
        problems = record_tap(game, UNDO, {"event": int(target)}, precondition=still_last)
    except StaleError:
        stale = gettext(
            "Someone else changed the game meanwhile, so that was no longer the last change. "
            "Nothing was undone; this is the sheet now."
        )
        return views.render(game, problems=[stale], status=409)
    return views.after_tap(game, problems)


@bp.post("/g/<token>/rematch")
@creating
def rematch(token: str) -> BaseResponse:
    """Start a new game with the same players and options, or join the one another phone started; the deal moves on."""
    game = game_or_404(token)
    successor = start_after(game, game.setup, first_dealer=sheet_of(game.kind).rematch(game))
    return go_to(url_for("games.sheet", token=successor.token))


def start_after(game: Game, setup: Mapping[str, JSON], *, first_dealer: int, changes: Sequence[Change] = ()) -> Game:
    """Start the game that follows ``game`` at its table (a rematch, or another game), or return the one already there.

    The database lets a game be followed once, so two phones tapping at once start one game
    and the other phone joins it. The earlier game's history notes it (once, by its fixed
    key), so every phone still on it hears of the next game live, and a TV moves on.
    """
    successor = rematch_of(game)
    if successor is None:
        try:
            successor = create_game(setup, first_dealer=first_dealer, previous=game, changes=changes)
        except IntegrityError:
            db.session.rollback()
            successor = rematch_of(game)
            if successor is None:
                raise
    append_event(game, "rematch", {}, idempotency_key="rematch")
    return successor


@bp.get("/g/<token>/history")
def history(token: str) -> str:
    """List every change made to the game, undone ones struck through."""
    game = game_for_reading(token)
    return render_template("games/history.html", game=game, entries=describe_history(game))


@bp.route("/import", methods=["GET", "POST"])
@importing
def import_record() -> BaseResponse | tuple[str, int]:
    """Start a game from a record: JSON answers 201 with its address, the upload form redirects there.

    The JSON body needs no CSRF token: a browser cannot send ``application/json`` to another
    site without that site's consent, so only the upload form is checked.
    """
    if request.method == "GET":
        return render_template("games/import.html", problems=[]), 200
    if request.mimetype == "application/json":
        return _import_json()
    if current_app.config.get("WTF_CSRF_ENABLED", True):
        csrf.protect()  # the upload form; ``protect`` itself would ignore the setting
    upload = request.files.get("record")
    if upload is None or not upload.filename:
        return render_template("games/import.html", problems=[gettext("Choose a game record file to import.")]), 422
    data = upload.read(MAX_IMPORT_BYTES + 1)
    try:
        game = _import(data)
    except Illegal as illegal:
        refusals = [f"{problem.place}: {say(problem)}" if problem.place else say(problem) for problem in illegal.problems]
        return render_template("games/import.html", problems=refusals), 422
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
    response = jsonify(location=location, record=url_for("games.export", token=game.token, _external=True))
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
            game = _add_game(record.setup(imported), previous=game, changes=import_changes(imported), table=table)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    assert game is not None, "an evening record holds at least one game"
    current_app.logger.info("imported an evening of %d games", len(evening.games))
    return game


csrf.exempt(import_record)
