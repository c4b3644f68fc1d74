"""A game's changes in words (and whose phone made them), what "undo" would take back, and the earlier games of the same table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from flask_babel import gettext
from sqlalchemy import select

from models import Game, claims_at, db, holder_at
from rules.games import find_game
from rules.json_value import JSON
from rules.history import IMPORT, REMATCH, UNDO, TableEvent, last_change
from views.scoreboard import shown
from views.sheets import sheet_of

EARLIER_GAMES = 50
"""How far back the evening at one table is listed."""


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
    """Who held the phone that tapped it, if that phone said so (``views.seats``)."""


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
    """Return one change of a game in words: an import, undo or the next game here, the game's own changes by its views."""
    if kind == IMPORT:
        return str(gettext("Game imported from a record"))
    if kind == UNDO:
        return str(gettext("Change no. %(seq)s undone", seq=payload.get("event")))
    if kind == REMATCH:
        following = rematch_of(game)
        if following is not None and following.kind != game.kind:
            return str(gettext("Next game started: %(title)s", title=find_game(following.kind).TITLE))
        return str(gettext("Rematch started"))
    return sheet_of(game.kind).describe_event(kind, payload)


def describe_history(game: Game) -> list[HistoryEntry]:
    """Return the game's events in words, newest first, marking those an undo took back and naming whose phone tapped."""
    undone = {event.payload.get("event") for event in game.events if event.kind == UNDO}
    claims = claims_at(game.card_table)
    entries = [
        HistoryEntry(
            seq=event.seq,
            when=event.created_at,
            text=describe_event(game, event.kind, event.payload),
            undone=event.seq in undone,
            undo=event.kind == UNDO,
            phone=holder_at(claims, event.device, event.created_at) if event.device else None,
        )
        for event in game.events
    ]
    return list(reversed(entries))


def undo_offer(game: Game, history: Sequence[TableEvent]) -> UndoOffer | None:
    """Return what the undo button would take back, or None when there is nothing."""
    change = last_change(history)
    if change is None:
        return None
    return UndoOffer(seq=change.seq, text=describe_event(game, change.kind, change.payload))


def rematch_of(game: Game) -> Game | None:
    """Return the rematch started after this game, if there is one (there is never more than one)."""
    return db.session.scalar(select(Game).where(Game.previous_id == game.id))


def between_games(game: Game) -> bool:
    """Return whether a table is between two games: this game is over and nothing follows it yet."""
    return bool(sheet_of(game.kind).scoreboard(game).winners) and rematch_of(game) is None


@dataclass(frozen=True)
class EarlierGame:
    """A game played before this one at the table, with its result: who won, and everyone's total."""

    game: Game
    title: str
    winners: tuple[str, ...]
    """Empty for a game left unfinished."""
    totals: tuple[tuple[str, str], ...]
    """Every player and total, best first once the game is over."""


def earlier_games(game: Game) -> list[EarlierGame]:
    """Return the games played before this one at its table, most recent first, each with its result."""
    earlier: list[EarlierGame] = []
    previous_id = game.previous_id
    while previous_id is not None and len(earlier) < EARLIER_GAMES:
        previous = db.session.get(Game, previous_id)
        if previous is None:
            break
        board = sheet_of(previous.kind).scoreboard(previous)
        order = board.ranking() if board.winners else list(board.players)
        earlier.append(
            EarlierGame(
                game=previous,
                title=find_game(previous.kind).TITLE,
                winners=board.winners,
                totals=tuple((player, shown(board.totals[player])) for player in order),
            )
        )
        previous_id = previous.previous_id
    return earlier
