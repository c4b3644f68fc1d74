"""The score sheets of the games: one frozen value per game, and what every sheet does the same way.

Each game's views are a package under ``views/`` (its view model, its taps, its keypad and
correction values) that exports one ``SheetView``; ``views/__init__.py`` registers the games
Tischblock ships. The shared pages (new game, the sheet's address, undo, rematch, history,
import, the front page) find a game's views here by its kind and never ask which game it is.
Rendering a sheet, its scoreboard and its changes in words are written once, here.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar

from flask import Blueprint, current_app, url_for
from flask_babel import gettext
from sqlalchemy import select
from sqlalchemy.orm import selectinload
from werkzeug.wrappers import Response

from models import Folded, Game, Recent, claims_at, db, folded, folded_together, holder_at, stored_events
from rules.games import GameRules, TableEvent
from rules.history import IMPORT, NEW_ADDRESSES, REMATCH, UNDO, last_change
from rules.json_value import JSON
from rules.points import HalfPoints
from views.pages.qr import for_phones, qr_svg
from views.pages.refusals import Link, Resend, say_refusal
from views.pages.render import game_context, page_or_fragment, rendered
from views.pages.viewers import Viewer
from views.table.addresses import leads_on, running_at
from views.table.chart import build_chart
from views.table.result_links import result_links_for
from views.table.scoreboard import Scoreboard, share_text, shown
from views.table.seats import this_phone

T = TypeVar("T")


@dataclass(frozen=True)
class Choice:
    """One option of a setting on the new-game form, as the form offers it."""

    value: str
    label: Any
    """Text or a lazily translated text."""


@dataclass(frozen=True)
class Option:
    """A setting the table chooses when it starts a game: a house rule or a variant."""

    name: str
    title: Any
    explanation: Any
    choices: tuple[Choice, ...]
    default: str
    longest: int = 0
    """A setting the table types rather than chooses (the name of a game): the most characters it takes; 0 for a choice."""

    @property
    def typed(self) -> bool:
        """Return whether the setting is typed (any text up to ``longest`` characters) rather than one of its choices."""
        return self.longest > 0

    def allows(self, value: str) -> bool:
        """Return whether a value can be this setting: one of its choices, or a typed text short enough."""
        if self.typed:
            return len(value) <= self.longest
        return value in {choice.value for choice in self.choices}


class Layout(Protocol):
    """A game's view model: whatever its sheet template shows, with its points for the chart, the CSV and the share text."""

    @property
    def board(self) -> Scoreboard:
        """Return the game's points in the shape every game shares."""
        ...


@dataclass(frozen=True, kw_only=True)
class SheetView(Generic[T]):
    """One game's sheet as the shared pages see it: its rules, its routes, its new-game form and its view model.

    ``T`` is what the game's events fold into; the view model gets it as the game's own type.
    """

    rules: GameRules[Any, T]
    blueprint: Blueprint
    """The game's own routes: its taps and forms."""
    folder: str
    """The game's template folder: ``sheet.html`` (block ``sheet``), ``new.html`` (extending ``games/new.html``) and ``card.html``."""
    seats: int
    """How many player fields the new-game form offers."""
    options: tuple[Option, ...] = ()
    """The settings the new-game form asks for."""
    setup_from_form: Callable[[Mapping[str, str]], dict[str, JSON]]
    """The options part of a setup (house rules, variant) from the form's chosen settings."""
    seating: Callable[[int], dict[str, JSON]]
    """What the game keeps of the seating besides the record's options, from the seat marked first: a first dealer."""
    rematch: Callable[[Game], dict[str, JSON]]
    """What a rematch of a finished game keeps besides the record's options: the deal moved on."""
    describe: Callable[[Game, str, Mapping[str, JSON]], str]
    """One of the game's own changes in words, for the history and the undo button."""
    lay_out: Callable[[Game, T], Layout]
    """The game's view model: what its sheet shows of what the history adds up to."""

    @property
    def kind(self) -> str:
        """Return the kind of game these views show."""
        return self.rules.kind


SHEETS: dict[str, SheetView[Any]] = {}
"""The views of every registered game, by kind."""


def register(sheet: SheetView[Any]) -> None:
    """Add a game's views; a kind has one sheet."""
    known = SHEETS.get(sheet.kind)
    if known is not None and known is not sheet:
        raise ValueError(f"two sheets show {sheet.kind!r}")
    SHEETS[sheet.kind] = sheet


def sheet_of(kind: str) -> SheetView[Any]:
    """Return the views of a kind of game (a stored game's kind always has them)."""
    return SHEETS[kind]


# --- Every sheet ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fix:
    """A way to make a refused tap count after all: the form that can, filled in with it (a correction of its round)."""

    url: str
    text: str


@dataclass(frozen=True)
class Overtaken:
    """Another phone moved what a tap moves after the state the tap was made on: the words of the choice, and the tap to send again."""

    text: str
    action: str
    """Where the tap was sent: "Replace it with mine" sends it there again, made on the state shown now."""
    fields: tuple[tuple[str, str], ...]
    """The tap's own fields, without its key, form token and ``seen``."""
    seen: int
    """The change the choice is made on: the newest when the tap was refused."""


def _sheet(
    game: Game,
    viewer: Viewer,
    state: Folded | None,
    problems: Sequence[str],
    refused_at: str,
    fix: Fix | None = None,
    overtaken: Overtaken | None = None,
) -> tuple[str, dict[str, Any]]:
    """Return a game's sheet template and everything it shows, as ``viewer`` sees it at ``state`` (the stored one if not given).

    ``refused_at`` names the control a refused tap came from, so the sheet can keep it open;
    ``fix`` is the way to make it count after all, shown with the refusal;
    ``overtaken`` is the choice after another phone moved what this phone's tap moves (``Overtaken``).
    """
    views = sheet_of(game.kind)
    now = state or folded(game)
    layout = views.lay_out(game, views.rules.typed(now.table))
    seat = this_phone(game, viewer)
    context = {
        **game_context(game, viewer),
        **sheet_context(game, viewer, layout.board, problems),
        **way_on(game, viewer),
        "earlier": earlier_games(game),
        "result_links": None if viewer.tv else result_links_for(game, layout.board),
        "seat": seat,
        "my_seat": seat.index if seat is not None else None,
        "sheet": layout,
        "version": now.version,
        "undo": undo_offer(game, now.history),
        "players": list(game.player_names),
        "refused_at": refused_at,
        "fix": fix,
        "overtaken": overtaken,
    }
    return f"{views.folder}/sheet.html", context


def sheet_context(game: Game, viewer: Viewer, board: Scoreboard, problems: Sequence[str]) -> dict[str, Any]:
    """Return what every sheet shows besides its own layout, as ``viewer`` sees it.

    That is: the refusals of the last tap, the record's and the CSV's addresses (reached by the same token the page was opened with), the score chart,
    once the game is over the result to share, and on a TV the code to join the table.
    """
    join_address = for_phones(url_for("join.table", token=viewer.tv, _external=True))[0] if viewer.tv else None
    return {
        "problems": list(problems),
        "record_url": url_for("records.export", token=viewer.address),
        "csv_url": url_for("records.csv_export", token=viewer.address),
        "chart": build_chart(board, title=board.caption),
        "caption": board.caption,
        "share": share_text(board) if board.winners else "",
        "share_url": url_for("games.sheet", token=game.read_token),
        "refresh_url": url_for("games.sheet", token=viewer.address, tv=viewer.tv),
        "join_address": join_address,
        "join_qr": qr_svg(join_address) if join_address else None,
    }


def way_on(game: Game, viewer: Viewer) -> dict[str, Any]:
    """Return the way from a game over and followed to the game running at its table, as this address may see it.

    ``rematch_url`` is the running game's edit address from an edit address that still leads on
    (``views.table.addresses.leads_on``), its read-only address from anywhere else; ``replaced`` says that
    this is an edit address retired by new addresses, so the sheet says to ask the table for the new code;
    ``next_title`` names the running game where it is another game than this one ("12 Days" after AURUXXX).
    """
    if game.rematch is None:
        return {"rematch_url": None, "replaced": False, "next_title": None}
    running = running_at(game)
    edit_rights = leads_on(game, viewer.address)
    return {
        "rematch_url": url_for("games.sheet", token=running.token if edit_rights else running.read_token),
        "replaced": not edit_rights and hmac.compare_digest(game.token.encode(), viewer.address.encode()),
        "next_title": running.title if running.title != game.title else None,
    }


def render(
    game: Game,
    viewer: Viewer,
    state: Folded | None = None,
    *,
    problems: Sequence[str] = (),
    status: int = 200,
    refused_at: str = "",
    fix: Fix | None = None,
    overtaken: Overtaken | None = None,
) -> Response:
    """Answer with the game's sheet as a page, or its ``#sheet`` fragment for htmx, with any refusals (and a way to fix them) or a choice on it.

    A refusal is also said as data (``views.pages.refusals``), for a phone that sent the tap from its outbox.
    """
    template, context = _sheet(game, viewer, state, problems, refused_at, fix, overtaken)
    response = page_or_fragment(template, "sheet", viewer.fragment, status=status, **context)
    if overtaken is not None:
        return say_refusal(response, [overtaken.text], resend=_replace_mine(viewer, overtaken))
    if problems:
        return say_refusal(response, problems, fix=None if fix is None else Link(fix.url, fix.text))
    return response


def _replace_mine(viewer: Viewer, overtaken: Overtaken) -> Resend:
    """Return the choice the sheet's "Replace it with mine" form offers (``overtaken_box`` in macros.html), as data."""
    body = [("csrf_token", viewer.csrf_token()), ("key", viewer.new_key()), *overtaken.fields, ("seen", str(overtaken.seen))]
    return Resend(overtaken.action, body, gettext("Replace it with mine"), gettext("Keep theirs"))


def live_part(game: Game, viewer: Viewer, state: Folded) -> str:
    """Return the ``#sheet`` fragment as ``viewer`` sees it at ``state``: what a live stream pushes."""
    template, context = _sheet(game, viewer, state, (), "")
    return rendered(template, "sheet", True, **context)


def scoreboard(game: Game, state: Folded | None = None) -> Scoreboard:
    """Return the game's points at ``state`` (the stored one if not given) in the shape the chart, the CSV and the share text read."""
    views = sheet_of(game.kind)
    return views.lay_out(game, views.rules.typed((state or folded(game)).table)).board


def between_games(game: Game) -> bool:
    """Return whether a table is between two games: this game is over and nothing follows it yet."""
    return bool(scoreboard(game).winners) and game.rematch is None


# --- The table's evening so far --------------------------------------------------------------------


EARLIER_GAMES = 50
"""How far back the evening at one table is listed."""
EARLIER_KEPT = 4096
"""Games being played whose earlier games a process keeps (by the game's id and when it began, which no game of another database shares)."""


@dataclass(frozen=True)
class EarlierGame:
    """A game played before this one at the table, with its result: who won, and everyone's total."""

    read_token: str
    title: str
    started: datetime
    winners: tuple[str, ...]
    """Empty for a game left unfinished."""
    totals: tuple[tuple[str, HalfPoints], ...]
    """Every player and total, best first once the game is over."""

    def shown_totals(self) -> tuple[tuple[str, str], ...]:
        """Return every player's total as the reader writes numbers."""
        return tuple((player, shown(total)) for player, total in self.totals)


def earlier_games(game: Game) -> tuple[EarlierGame, ...]:
    """Return the games played before this one at its table, most recent first, each with its result.

    A game before the running one is over and followed, so it never changes again: the list is
    read once per game being played (in two statements, however long the evening) and kept, and
    a tap reads none of it again. A new game at the table has a list of its own.
    """
    if game.previous_id is None:
        return ()
    cache = _earlier_kept()
    key = (game.id, game.created_at)
    found = cache.get(key)
    if found is None:
        found = _read_earlier(game)
        cache.put(key, found)
    return found


def _earlier_kept() -> Recent[tuple[int, datetime], tuple[EarlierGame, ...]]:
    """Return this app's earlier games per game before the running one (made on first use, after the server forked its workers)."""
    extensions = current_app.extensions
    if EARLIER not in extensions:
        extensions.setdefault(EARLIER, Recent(EARLIER_KEPT))
    kept: Recent[tuple[int, datetime], tuple[EarlierGame, ...]] = extensions[EARLIER]
    return kept


EARLIER = "tischblock.earlier_games"


def _read_earlier(game: Game) -> tuple[EarlierGame, ...]:
    """Read the games before ``game`` at its table, with their players and histories, in two statements, and what each came to."""
    before = db.session.scalars(
        select(Game)
        .options(selectinload(Game.players))
        .where(Game.card_table_id == game.card_table_id, Game.id != game.id, Game.created_at <= game.created_at)
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(EARLIER_GAMES + 1)
    ).all()
    by_id = {previous.id: previous for previous in before}
    chain: list[Game] = []
    previous_id = game.previous_id
    while previous_id in by_id and len(chain) < EARLIER_GAMES:
        chain.append(by_id[previous_id])
        previous_id = by_id[previous_id].previous_id
    earlier = []
    for previous, state in zip(chain, folded_together(chain), strict=True):
        board = scoreboard(previous, state)
        order = board.ranking() if board.winners else list(board.players)
        totals = tuple((player, board.totals[player]) for player in order)
        earlier.append(EarlierGame(str(previous.read_token), previous.title, previous.created_at, board.winners, totals))
    return tuple(earlier)


# --- Changes in words ----------------------------------------------------------------------------


@dataclass(frozen=True)
class HistoryEntry:
    """One change on the history page."""

    seq: int
    when: datetime
    text: str
    undone: bool
    """Whether a later undo took it back."""
    undo: bool
    """Whether it is itself an undo."""
    phone: str | None = None
    """Who held the phone that tapped it, if that phone said so (``views.table.seats``)."""


@dataclass(frozen=True)
class UndoOffer:
    """The change the undo button takes back, in words."""

    seq: int
    text: str


def counted_from_one(payload: Mapping[str, JSON], key: str) -> int:
    """Return the round or day a stored change is about as the table counts it, from 1 (payloads count from 0).

    >>> counted_from_one({"round": 2}, "round"), counted_from_one({}, "day")
    (3, 1)
    """
    index = payload.get(key)
    return index + 1 if isinstance(index, int) else 1


def describe_event(game: Game, kind: str, payload: Mapping[str, JSON]) -> str:
    """Return one change of a game in words: an import, undo, new addresses or the next game here, the game's own changes by its views."""
    if kind == IMPORT:
        return str(gettext("Game imported from a record"))
    if kind == UNDO:
        return str(gettext("Change no. %(seq)s undone", seq=payload.get("event")))
    if kind == NEW_ADDRESSES:
        return str(gettext("New addresses made for this table"))
    if kind == REMATCH:
        following = game.rematch
        if following is not None and following.title != game.title:
            return str(gettext("Next game started: %(title)s", title=following.title))
        return str(gettext("Rematch started"))
    return sheet_of(game.kind).describe(game, kind, payload)


def describe_history(game: Game) -> list[HistoryEntry]:
    """Return the game's events in words, newest first, marking those an undo took back and naming whose phone tapped."""
    events = stored_events(game)
    undone = {event.payload.get("event") for event in events if event.kind == UNDO}
    claims = claims_at(game.card_table_id)
    entries = [
        HistoryEntry(
            seq=event.seq,
            when=event.created_at,
            text=describe_event(game, event.kind, event.payload),
            undone=event.seq in undone,
            undo=event.kind == UNDO,
            phone=holder_at(claims, event.device, event.created_at) if event.device else None,
        )
        for event in events
    ]
    return list(reversed(entries))


def undo_offer(game: Game, history: Sequence[TableEvent]) -> UndoOffer | None:
    """Return what the undo button would take back, or None when there is nothing."""
    change = last_change(history)
    if change is None:
        return None
    return UndoOffer(seq=change.seq, text=describe_event(game, change.kind, change.payload))
