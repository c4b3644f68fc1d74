"""Starting a game: the new-game form as the players fill it in, and storing a new game with its first changes at its table.

The new-game page (``views.table.games``), another game at a table (``views.results.evening``) and an
imported record (``views.results.records``) all start their games here. Nothing here knows a game by
name: the game's sheet views (``views.table.sheets``) give its seats, options and what it keeps.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import render_template, request, session, url_for
from flask_babel import gettext
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response as BaseResponse

from models import CardTable, Game, Player, db
from models.event import add_first_events, append_event
from rules import record
from rules.games import Change
from rules.json_value import JSON
from rules.problems import Illegal
from views.pages.forms import is_whole
from views.pages.render import go_to
from views.table.sheets import SheetView, sheet_of
from views.table.taps import say

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
    """Where the form is sent: the new-game page, or another game at a table (``views.results.evening``)."""

    @property
    def views(self) -> SheetView[Any]:
        """Return the views of the game being set up: its seats and options."""
        return sheet_of(self.kind)

    @classmethod
    def empty(cls, kind: str, *, action: str = "") -> NewGameForm:
        """Return a blank form with the defaults, sent to ``action`` (the new-game page by default)."""
        views = sheet_of(kind)
        return cls(
            kind=kind,
            names=[""] * views.seats,
            settings={option.name: option.default for option in views.options},
            action=action or url_for("games.new", kind=kind),
        )

    @classmethod
    def submitted(cls, kind: str, *, action: str = "") -> NewGameForm:
        """Return the form as it came in, cleaned of anything that is not one of its choices."""
        form = cls.empty(kind, action=action)
        seats = form.views.seats
        names = [record.trimmed_name(name) for name in request.form.getlist("player")][:seats]
        form.names = names + [""] * (seats - len(names))
        dealer = request.form.get("dealer", "0")
        form.dealer = int(dealer) if is_whole(dealer) and int(dealer) < seats else 0
        for option in form.views.options:
            value = request.form.get(option.name, option.default)
            value = record.trimmed_name(value)[: option.longest] if option.typed else value
            if option.allows(value):
                form.settings[option.name] = value
        return form

    def apply(self, action: str) -> None:
        """Carry out a button that rearranges the form: move a player, add a remembered name, clear a seat, fill in a setting."""
        verb, _, argument = action.partition(":")
        if verb == "set":
            name, _, value = argument.partition("=")
            for option in self.views.options:
                if option.name == name and option.allows(value):
                    self.settings[name] = value
            return
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
    setup: Mapping[str, JSON], *, kept: Mapping[str, JSON] | None = None, previous: Game | None = None, changes: Sequence[Change] = ()
) -> Game:
    """Store a new game for a checked setup, with its first changes, in one transaction.

    A rematch sits at the previous game's table, any other game at a new one. Raises ``Illegal``
    (and stores nothing) when the rules refuse the changes, ``IntegrityError`` if ``previous``
    already has a rematch (the database allows one).
    """
    try:
        game = add_game(setup, kept=kept, previous=previous, changes=changes)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return game


def add_game(
    setup: Mapping[str, JSON],
    *,
    kept: Mapping[str, JSON] | None = None,
    previous: Game | None = None,
    changes: Sequence[Change] = (),
    table: CardTable | None = None,
) -> Game:
    """Add a new game (with what its views keep of the form), its players and first changes to the session,
    at ``previous``'s table, at ``table``, or at a new one."""
    game = Game.from_setup(setup, kept=kept, previous_id=previous.id if previous else None)
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


def remember_typed(form: NewGameForm) -> None:
    """Keep the settings a new game's table typed (the name of a game), most recent first, to offer them next time."""
    kept = session.get("recent_typed")
    recent: dict[str, dict[str, list[str]]] = kept if isinstance(kept, dict) else {}
    typed = {**recent.get(form.kind, {})}
    for option in form.views.options:
        value = form.settings.get(option.name, "")
        if option.typed and value:
            earlier = [other for other in typed.get(option.name, []) if isinstance(other, str) and other != value]
            typed[option.name] = [value, *earlier][:RECENT_NAMES]
    session["recent_typed"] = {**recent, form.kind: typed}


def typed_before(form: NewGameForm, played_here: Sequence[Mapping[str, JSON]]) -> dict[str, list[str]]:
    """Return what each typed setting was at this table before (``played_here``: its games' setups, latest first) and on this device, to tap instead of type."""
    kept = session.get("recent_typed")
    device = kept.get(form.kind, {}) if isinstance(kept, dict) and isinstance(kept.get(form.kind), dict) else {}
    offered: dict[str, list[str]] = {}
    for option in form.views.options:
        if not option.typed:
            continue
        here = [setup.get(option.name) for setup in played_here if setup.get("game") == form.kind]
        values = [*here, *device.get(option.name, [])]
        unique = dict.fromkeys(value for value in values if isinstance(value, str) and value and value != form.settings.get(option.name))
        offered[option.name] = list(unique)[:RECENT_NAMES]
    return offered


def new_game_page(form: NewGameForm, status: int = 200, *, played_here: Sequence[Mapping[str, JSON]] = ()) -> tuple[str, int]:
    """Render the new-game form: the shared form, with the game's own fields from its template folder.

    ``played_here`` are the setups of the games at the table the new game joins, latest first: what the table
    typed for them is offered to tap.
    """
    return render_template(
        f"{form.views.folder}/new.html",
        form=form,
        title=gettext(form.views.rules.title),
        options=form.views.options,
        recent=[name for name in recent_names() if name not in form.names],
        typed_before=typed_before(form, played_here),
    ), status


def answer_new_game_form(
    form: NewGameForm,
    start: Callable[[dict[str, JSON], int], Game],
    *,
    fragment: bool,
    played_here: Sequence[Mapping[str, JSON]] = (),
) -> BaseResponse | tuple[str, int]:
    """Answer a posted new-game form: rearrange it on a button press, show the rules' refusal, or start the game.

    ``start`` stores the game from its setup and first dealer: at a new table, or after a game at its table
    (whose games' setups are ``played_here``). ``fragment``: htmx sent the form, so the browser is sent on by a header, not a redirect.
    """
    action = request.form.get("action", "start")
    if action != "start":
        form.apply(action)
        return new_game_page(form, played_here=played_here)
    setup = form.setup()
    try:
        record.parse(setup)
    except Illegal as illegal:
        form.problems = [say(problem) for problem in illegal.problems]
        return new_game_page(form, 422, played_here=played_here)
    game = start(setup, form.first_dealer())
    remember_names(form.players)
    remember_typed(form)
    return go_to(url_for("games.sheet", token=game.token), fragment)


def start_after(game: Game, setup: Mapping[str, JSON], *, kept: Mapping[str, JSON], changes: Sequence[Change] = ()) -> Game:
    """Start the game that follows ``game`` at its table (a rematch, or another game), or return the one already there.

    The database lets a game be followed once, so two phones tapping at once start one game
    and the other phone joins it. The earlier game's history notes it (once, by its fixed
    key), so every phone still on it hears of the next game live, and a TV moves on.
    """
    successor = game.rematch
    if successor is None:
        try:
            successor = create_game(setup, kept=kept, previous=game, changes=changes)
        except IntegrityError:
            db.session.rollback()
            successor = game.rematch
            if successor is None:
                raise
    append_event(game, "rematch", {}, idempotency_key="rematch")
    return successor
