"""Starting a game, importing and exporting its record, its history of changes, undo and a rematch."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext, lazy_gettext as _l
from werkzeug.wrappers import Response as BaseResponse

from sqlalchemy.exc import IntegrityError

from models import CardTable, Game, Player, StaleError, db, table_of
from models.event import add_first_events, append_event
from rules import auruxxx, record, twelve_days
from rules.history import Change, TableEvent, import_changes, superseded
from rules.problems import N_, Illegal, Problem
from views import auruxxx_sheet, twelve_days_sheet
from extensions import csrf
from views.changes import describe_history, rematch_of
from views.limits import creating, importing
from views.render import go_to
from views.scoreboard import csv_export as csv_export_text
from views.table import (
    game_for_reading, game_or_404, is_whole, recent_names, record_tap, remember_names, say, shown_on_tv,
)

bp = Blueprint("games", __name__)

MAX_IMPORT_BYTES = 256 * 1024
"""A game record is a few kilobytes; anything far larger is not one."""


@dataclass(frozen=True)
class Choice:
    """One option of a house rule or variant, as the form offers it."""

    value: str
    label: Any


@dataclass(frozen=True)
class Option:
    """A setting the table chooses when it starts a game, with a line that says what it does."""

    name: str
    title: Any
    explanation: Any
    choices: tuple[Choice, ...]
    default: str


AURUXXX_OPTIONS = (
    Option(
        "golden12_in_hand",
        _l("Golden 12 left in hand"),
        _l("Points for a Golden 12 that a player other than the finisher still holds."),
        (Choice("12", "12"), Choice("0", "0"), Choice("25", "25")),
        "12",
    ),
    Option(
        "two_in_hand",
        _l('"2" card left in hand'),
        _l('Points for a "2" (draw two) card still in hand at the end of a round.'),
        (Choice("2", "2"), Choice("25", "25")),
        "2",
    ),
    Option(
        "halving",
        _l("Happy-Man halves"),
        _l("Only matters when the Happy-Man holder also ended the round with Golden 12."),
        (Choice("net", _l("after the Golden-12 bonus")), Choice("penalty", _l("before the Golden-12 bonus"))),
        "net",
    ),
    Option(
        "rounding",
        _l("Half points"),
        _l("What becomes of an odd score when it is halved, e.g. 17."),
        (Choice("exact", _l("keep the half (8.5)")), Choice("floor", _l("round down (8)")), Choice("ceil", _l("round up (9)"))),
        "exact",
    ),
)

TWELVE_DAYS_VARIANTS = (
    Choice(twelve_days.STANDARD.name, _l("12 Days (3–5 players)")),
    Choice(twelve_days.EIGHT_NIGHTS.name, _l("8 Nights (3–4 players, cards 1–8)")),
    Choice(twelve_days.EIGHT_PLAYERS.name, _l("8 Players (6–8 players, two decks)")),
)

GAME_TITLES = {record.AURUXXX: "AURUXXX – Die Goldene Zwölf", record.TWELVE_DAYS: "12 Days"}
SEATS = {record.AURUXXX: auruxxx.MAX_PLAYERS, record.TWELVE_DAYS: twelve_days.EIGHT_PLAYERS.max_players}


@dataclass
class NewGameForm:
    """The new-game form as the player filled it in so far; every button press comes back to it."""

    kind: str
    names: list[str]
    dealer: int = 0
    settings: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @classmethod
    def empty(cls, kind: str) -> NewGameForm:
        """Return a blank form with the defaults."""
        form = cls(kind=kind, names=[""] * SEATS[kind])
        form.settings = {option.name: option.default for option in AURUXXX_OPTIONS}
        form.settings["variant"] = twelve_days.STANDARD.name
        return form

    @classmethod
    def submitted(cls, kind: str) -> NewGameForm:
        """Return the form as it came in, cleaned of anything that is not one of its choices."""
        form = cls.empty(kind)
        names = [record.trimmed_name(name) for name in request.form.getlist("player")][: SEATS[kind]]
        form.names = names + [""] * (SEATS[kind] - len(names))
        dealer = request.form.get("dealer", "0")
        form.dealer = int(dealer) if is_whole(dealer) and int(dealer) < SEATS[kind] else 0
        for option in AURUXXX_OPTIONS:
            value = request.form.get(option.name, option.default)
            if value in {choice.value for choice in option.choices}:
                form.settings[option.name] = value
        variant = request.form.get("variant", twelve_days.STANDARD.name)
        if variant in twelve_days.VARIANTS:
            form.settings["variant"] = variant
        return form

    def apply(self, action: str) -> None:
        """Carry out a button that rearranges the form: move a player, add a remembered name, clear a seat."""
        verb, _, argument = action.partition(":")
        if verb == "add":
            name = record.trimmed_name(argument[: record.MAX_NAME_LENGTH])
            seated = {record.same_name_key(seated) for seated in self.names if seated}
            if name and record.same_name_key(name) not in seated and "" in self.names:
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

    def setup(self) -> dict[str, Any]:
        """Return the game the form describes, as a record without rounds or days."""
        players = [name for name in self.names if name]
        if self.kind == record.AURUXXX:
            rules: dict[str, Any] = {
                "golden12_in_hand": int(self.settings["golden12_in_hand"]),
                "two_in_hand": int(self.settings["two_in_hand"]),
                "halving": self.settings["halving"],
                "rounding": self.settings["rounding"],
            }
            return {"game": self.kind, "players": players, "house_rules": rules}
        return {"game": self.kind, "variant": self.settings["variant"], "players": players}

    def first_dealer(self) -> int:
        """Return the dealer's position among the filled-in seats."""
        filled = [seat for seat, name in enumerate(self.names) if name]
        return filled.index(self.dealer) if self.dealer in filled else 0


def create_game(
    setup: dict[str, Any], *, first_dealer: int = 0, previous: Game | None = None, changes: Sequence[Change] = ()
) -> Game:
    """Store a new game for a checked setup, with its first changes, in one transaction.

    A rematch sits at the previous game's table, any other game at a new one. Raises ``Illegal``
    (and stores nothing) when the rules refuse the changes, ``IntegrityError`` if ``previous``
    already has a rematch (the database allows one).
    """
    game = Game(
        kind=setup["game"],
        variant=setup.get("variant", twelve_days.STANDARD.name),
        house_rules=setup.get("house_rules", {}),
        first_dealer=first_dealer,
        previous_id=previous.id if previous else None,
        card_table=previous.card_table if previous else CardTable(),
    )
    game.players = [Player(seat=seat, name=name) for seat, name in enumerate(setup["players"])]
    db.session.add(game)
    try:
        add_first_events(game, changes)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return game


def _new_game_page(form: NewGameForm, status: int = 200) -> tuple[str, int]:
    """Render the new-game form."""
    return render_template(
        "games/new.html",
        form=form,
        title=GAME_TITLES[form.kind],
        options=AURUXXX_OPTIONS if form.kind == record.AURUXXX else (),
        variants=TWELVE_DAYS_VARIANTS if form.kind == record.TWELVE_DAYS else (),
        recent=[name for name in recent_names() if name not in form.names],
    ), status


@bp.route("/new/<kind>", methods=["GET", "POST"])
@creating
def new(kind: str) -> BaseResponse | tuple[str, int]:
    """Show the new-game form, rearrange it on a button press, or start the game."""
    if kind not in GAME_TITLES:
        abort(404)
    if request.method == "GET":
        return _new_game_page(NewGameForm.empty(kind))
    form = NewGameForm.submitted(kind)
    action = request.form.get("action", "start")
    if action != "start":
        form.apply(action)
        return _new_game_page(form)
    setup = form.setup()
    try:
        record.parse(setup)
    except Illegal as illegal:
        form.problems = [say(problem) for problem in illegal.problems]
        return _new_game_page(form, 422)
    game = create_game(setup, first_dealer=form.first_dealer())
    remember_names(setup["players"])
    return go_to(url_for("games.sheet", token=game.token))


@bp.get("/g/<token>")
def sheet(token: str) -> BaseResponse:
    """Show the game's score sheet (without controls at the read-only address).

    A table's TV moves on by itself once a rematch runs: it opens the table's current game.
    """
    game = game_for_reading(token)
    tv = shown_on_tv(game)
    if tv is not None and rematch_of(game) is not None:
        return go_to(url_for("join.tv", token=tv.token))
    if game.kind == record.AURUXXX:
        return auruxxx_sheet.render(game)
    return twelve_days_sheet.render(game)


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
    board = auruxxx_sheet.scoreboard(game) if game.kind == record.AURUXXX else twelve_days_sheet.scoreboard(game)
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
    target = request.form.get("event", "")
    if not is_whole(target):
        return _sheet_after_tap(game, [gettext("This undo does not say which change it takes back. Tap undo on the sheet again.")])

    def still_last(events: Sequence[TableEvent]) -> None:
        if superseded(events, int(target)):
            raise StaleError(f"change {target} is no longer the last one")

    try:
        problems = record_tap(game, "undo", {"event": int(target)}, precondition=still_last)
    except StaleError:
        stale = gettext(
            "Someone else changed the game meanwhile, so that was no longer the last change. "
            "Nothing was undone; this is the sheet now."
        )
        return _sheet(game, [stale], 409)
    return _sheet_after_tap(game, problems)


def _sheet_after_tap(game: Game, problems: list[str]) -> BaseResponse:
    """Answer a tap: the sheet again, with the refusal on it when there was one."""
    if game.kind == record.AURUXXX:
        return auruxxx_sheet.after_tap(game, problems)
    return twelve_days_sheet.after_tap(game, problems)


def _sheet(game: Game, problems: list[str], status: int) -> BaseResponse:
    """Show the sheet (page or fragment) with a refusal and its status."""
    if game.kind == record.AURUXXX:
        return auruxxx_sheet.render(game, problems=problems, status=status)
    return twelve_days_sheet.render(game, problems=problems, status=status)


@bp.post("/g/<token>/rematch")
@creating
def rematch(token: str) -> BaseResponse:
    """Start a new game with the same players and options, or join the one another phone started.

    The deal moves on round the table. Two phones tapping at once both try to create it; the
    database lets one game through (a game has one rematch) and the other phone joins it.
    The old game's history notes the rematch, so every phone still on it hears of it live;
    its fixed key makes that note once however many phones tap.
    """
    game = game_or_404(token)
    successor = rematch_of(game)
    if successor is None:
        rounds = auruxxx.ROUNDS if game.kind == record.AURUXXX else 0
        try:
            successor = create_game(game.setup, first_dealer=(game.first_dealer + rounds) % len(game.players), previous=game)
        except IntegrityError:
            db.session.rollback()
            successor = rematch_of(game)
            if successor is None:
                raise
    append_event(game, "rematch", {}, idempotency_key="rematch")
    return go_to(url_for("games.sheet", token=successor.token))


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
        return render_template("games/import.html", problems=[str(_l("Choose a game record file to import."))]), 422
    data = upload.read(MAX_IMPORT_BYTES + 1)
    try:
        game = _import(data)
    except Illegal as illegal:
        return render_template("games/import.html", problems=[str(p) for p in illegal.problems]), 422
    return redirect(url_for("games.sheet", token=game.token), code=303)


def _import_json() -> BaseResponse:
    """Import a record sent as a JSON body."""
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
    imported = record.loads(data)
    written = record.serialise(imported)
    setup: dict[str, Any] = {key: written[key] for key in ("game", "players", "house_rules", "variant") if key in written}
    game = create_game(setup, changes=import_changes(imported))
    current_app.logger.info("imported a %s game", game.kind)
    return game



csrf.exempt(import_record)
