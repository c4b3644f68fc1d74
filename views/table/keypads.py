"""Entering a player's hand on a keypad, the same way for every game: each game gives its values, this is the flow.

A keypad opens with the hand as stored, or with what this phone tapped and did not save yet
(a draft, ``views.table.drafts``), and remembers the change it was opened at (``seen``, which every
post of its form must carry: ``views.table.taps.posted_seen``). Every key
pressed comes back here and is kept as a draft; "discard" forgets it. Saving stores the hand
with a version check: if another phone saved this hand after the keypad opened, the answer is
409 and the player chooses between keeping theirs and replacing it, never a silent overwrite.
A hand the rules refuse answers 422 with the keypad as it was, so no tapped card is lost.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, Self, TypeVar

from flask import abort, redirect, request, url_for
from werkzeug.wrappers import Response

from models import Before, Folded, Game, StaleError, folded
from rules.games import GameRules, Table
from rules.json_value import JSON
from views.pages.forms import is_whole
from views.pages.render import game_page, go_to
from views.pages.viewers import Viewer
from views.table.drafts import draft_key, draft_of, drop_draft, keep_draft
from views.table.taps import posted_seen, record_tap, unmoved_since

T = TypeVar("T")
"""A game's folded table."""


class Entry(Protocol):
    """What a game's keypad shows while a hand is entered: its own value, changed key by key."""

    def pressed(self, action: str) -> Self:
        """Return the entry after a key (add, remove, more, less); a key it does not know changes nothing."""
        ...

    def draft(self) -> dict[str, JSON]:
        """Return what of the entry a phone keeps while it is not saved."""
        ...


E = TypeVar("E", bound=Entry)


@dataclass(frozen=True, kw_only=True)
class Keypad(Generic[T, E]):
    """How one game enters a hand: its template, its entry and how the entry is read, stored and shown."""

    rules: GameRules[Any, T]
    template: str
    """The keypad's page; its block ``keypad`` is what htmx swaps."""
    opens: Callable[[T, str], bool]
    """Whether the player's hand may be entered now (the rules decide)."""
    position: Callable[[T], int | None]
    """The round or day whose hands are being entered, None where a game has one final hand each."""
    stored: Callable[[T, str], E]
    """The keypad for the player's hand as stored (empty if none is)."""
    kept: Callable[[Mapping[str, Any], T], E]
    """The keypad as a draft kept it (anything in it that is no key is left out)."""
    posted: Callable[[Mapping[str, str], T], tuple[E, list[str]]]
    """The keypad as its form sent it, and what in the form is no key."""
    saves: tuple[str, ...] = ("save",)
    """The buttons that save the hand."""
    written: Callable[[E, str, str, Mapping[str, str]], tuple[dict[str, JSON], list[str]]]
    """The ``hand`` event to store for (entry, button, player, form), or why it cannot be stored as it is."""
    part: Callable[[T, str, Mapping[str, str]], object]
    """The player's hand in the game (for the version check): (table, player, form)."""
    theirs: Callable[[T, E, str, str, Mapping[str, str]], str]
    """The words of the conflict box after a 409: (table now, entry, player, button, form)."""
    held: Callable[[T, str, Mapping[str, str]], str | None]
    """The player's hand the game holds for the keypad's round, in words ("10 points"), or None: (table now, player, form)."""
    shown: Callable[[E, T, str], Mapping[str, object]]
    """What the page shows of the entry besides the shared parts: (entry, table, button pressed)."""


@dataclass(frozen=True)
class Held:
    """The hand a closed keypad's player has in the game instead of what this phone tapped."""

    hand: str
    """In words: "10 points"."""
    overtaken: bool
    """Whether another phone saved it after the keypad opened (else it was stored before and left as it was)."""


@dataclass(frozen=True)
class Conflict:
    """Another phone saved this hand meanwhile: the words of the choice, and the button that saves this phone's again."""

    text: str
    resave: str


def record_hand(
    game: Game, viewer: Viewer, payload: Mapping[str, Any], *, hand: Callable[[Table[Any]], object], seen: int
) -> tuple[list[str], int]:
    """Store a hand entered on a keypad opened at change ``seen``, with the version check every tap that moves something has.

    ``hand`` picks the player's hand out of the game. Returns no problems and 200 once it is
    stored; the rules' refusals and 422; or nothing and 409 when another phone saved this hand
    after the keypad opened.
    """
    try:
        problems = record_tap(game, viewer, "hand", payload, precondition=unmoved_since(seen, hand)).problems
    except StaleError:
        return [], 409
    return list(problems), 422 if problems else 200


def enter_hand(game: Game, viewer: Viewer, seat: int, how: Keypad[T, E]) -> Response:
    """Show a player's keypad, press one of its keys, discard it or save the hand: the flow every game's keypad shares."""
    if not 0 <= seat < len(game.players):
        abort(404)
    player = game.player_names[seat]
    now = folded(game)
    table = how.rules.typed(now.table)
    if not how.opens(table, player):
        if request.method == "GET":
            return redirect(url_for("games.sheet", token=game.token), code=303)
        if request.form.get("action", "") == "discard":
            return go_to(url_for("games.sheet", token=game.token), viewer.fragment)
        return _closed(game, viewer, how, now, table, player, seat)
    draft = draft_key(game, seat, how.position(table))
    problems: list[str] = []
    status = 200
    restored = False
    action = request.form.get("action", "")
    if request.method == "GET":
        kept = draft_of(draft)
        seen = now.version
        if kept is None:
            entry = how.stored(table, player)
        else:
            entry = how.kept(kept, table)
            seen = kept["seen"] if isinstance(kept.get("seen"), int) else seen
            restored = True
    else:
        entry, problems = how.posted(request.form, table)
        seen = posted_seen(now.version)
        if problems:
            pass
        elif action == "discard":
            drop_draft(draft)
            return go_to(url_for("games.sheet", token=game.token), viewer.fragment)
        elif action in how.saves:
            payload, problems = how.written(entry, action, player, request.form)
            if not problems:
                problems, status = record_hand(
                    game,
                    viewer,
                    payload,
                    hand=lambda folded_table: how.part(how.rules.typed(folded_table), player, request.form),
                    seen=seen,
                )
            if status == 200 and not problems:
                drop_draft(draft)
                return go_to(url_for("games.sheet", token=game.token), viewer.fragment)
        else:
            entry = entry.pressed(action)
        conflict = None
        if status == 409:
            now = folded(game)
            seen = now.version
            conflict = Conflict(how.theirs(how.rules.typed(now.table), entry, player, action, request.form), action)
        keep_draft(draft, {**entry.draft(), "seen": seen})
        return _keypad(game, viewer, how, entry, table, player, seat, seen, problems, status, conflict, restored, action)
    return _keypad(game, viewer, how, entry, table, player, seat, seen, problems, status, None, restored, action)


def _closed(game: Game, viewer: Viewer, how: Keypad[T, E], now: Folded, table: T, player: str, seat: int) -> Response:
    """Answer a key or a save that came after another phone moved the game on: say so, show what was not stored and what is, lead to the sheet.

    409, in the keypad's own place: swapping the sheet in here would leave a page without its
    heading or live stream at the keypad's address, and a redirect would drop the tapped cards unsaid.
    """
    posted, _ = how.posted(request.form, table)
    entry = posted.pressed(request.form.get("action", ""))  # the key that found it closed was tapped too
    return game_page(
        how.template,
        "keypad",
        game,
        viewer,
        status=409,
        player=player,
        seat=seat,
        seen=None,
        restored=False,
        conflict=None,
        problems=[],
        closed=True,
        held=_held_instead(game, how, now, table, player),
        **how.shown(entry, table, ""),
    )


def _held_instead(game: Game, how: Keypad[T, E], now: Folded, table: T, player: str) -> Held | None:
    """Return what the game holds for a closed keypad's hand instead of this phone's, or None where it holds none."""
    hand = how.held(table, player, request.form)
    if hand is None:
        return None
    seen = request.form.get("seen", "")

    def part(folded_table: Table[Any]) -> object:
        return how.part(how.rules.typed(folded_table), player, request.form)

    return Held(hand, not is_whole(seen) or part(Before(game, now).table_at(int(seen))) != part(now.table))


def _keypad(
    game: Game,
    viewer: Viewer,
    how: Keypad[T, E],
    entry: E,
    table: T,
    player: str,
    seat: int,
    seen: int,
    problems: list[str],
    status: int,
    conflict: Conflict | None,
    restored: bool,
    action: str,
) -> Response:
    """Render the keypad as it stands, with the conflict box after a 409 and the refusals after a 422."""
    return game_page(
        how.template,
        "keypad",
        game,
        viewer,
        status=status if status == 409 else (422 if problems else 200),
        player=player,
        seat=seat,
        seen=seen,
        restored=restored,
        conflict=conflict,
        problems=problems,
        closed=False,
        **how.shown(entry, table, action),
    )
