"""The evening at one table: which games belong to it, and the standings across them.

A table plays one game after another (rematches, or another game started at the table).
Its games form one evening until the table is idle for a while: a game started long after
the last change of every game before it begins a new evening. The standings rank the
players of an evening by wins, then by second places, then by third places, and so on,
like a medal table; finished games count, a game still running counts for nobody.

Pure: games come in as ``Played`` values (players, totals, winners), times as aware
datetimes; nothing here knows which game was played or where it is stored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from rules.points import HalfPoints
from rules.record import same_name_key


@dataclass(frozen=True, kw_only=True)
class Played:
    """One game of an evening as the standings read it: who sat at it, their totals and who won."""

    players: tuple[str, ...]
    totals: Mapping[str, HalfPoints]
    winners: tuple[str, ...]
    """Empty while the game is not finished."""
    fewest_win: bool
    """Whether the lowest total wins, else the highest."""

    @property
    def finished(self) -> bool:
        """Return whether the game is over and so counts in the standings."""
        return bool(self.winners)


def placings(game: Played) -> dict[str, int]:
    """Return every player's place in a game: equal totals share a place, and the next place is skipped.

    >>> placings(Played(players=("A", "B", "C", "D"), totals={"A": 10, "B": 4, "C": 10, "D": 30}, winners=("B",), fewest_win=True))
    {'A': 2, 'B': 1, 'C': 2, 'D': 4}
    >>> placings(Played(players=("A", "B"), totals={"A": 10, "B": 4}, winners=("A",), fewest_win=False))
    {'A': 1, 'B': 2}
    """
    sign = 1 if game.fewest_win else -1
    return {
        player: 1 + sum(1 for other in game.players if sign * game.totals[other] < sign * game.totals[player]) for player in game.players
    }


@dataclass(frozen=True, kw_only=True)
class Standing:
    """One player's evening: games finished, wins, how often they came first, second, … and their rank."""

    player: str
    """The name as the player first sat down with it this evening."""
    played: int
    """Finished games the player sat in."""
    wins: int
    places: tuple[int, ...]
    """How often the player came 1st, 2nd, 3rd, …: ``places[0]`` is ``wins``."""
    rank: int
    """1 for the best record; equal records share a rank (1, 1, 3)."""


def standings(games: Sequence[Played]) -> tuple[Standing, ...]:
    """Rank the players of an evening by wins, then second places, then third, …; equal records share a rank.

    A name counts as the same player in every game (``same_name_key``: "anna" is Anna).
    Players who sat only at games still running are listed too, with nothing yet. Among
    equal records, players keep the order in which they first sat down.

    >>> a = Played(players=("Anna", "Ben", "Cleo"), totals={"Anna": 20, "Ben": 40, "Cleo": 60}, winners=("Anna",), fewest_win=True)
    >>> b = Played(players=("Anna", "Ben", "Cleo"), totals={"Anna": 9, "Ben": 30, "Cleo": 30}, winners=("Ben", "Cleo"), fewest_win=False)
    >>> [(s.player, s.wins, s.places, s.rank) for s in standings([a, b])]
    [('Ben', 1, (1, 1, 0), 1), ('Anna', 1, (1, 0, 1), 2), ('Cleo', 1, (1, 0, 1), 2)]
    """
    names = {same_name_key(player): player for player in players_of(games)}
    size = max((len(game.players) for game in games), default=0)
    counts: dict[str, list[int]] = {key: [0] * size for key in names}
    for game in games:
        if not game.finished:
            continue
        for player, place in placings(game).items():
            counts[same_name_key(player)][place - 1] += 1
    order = list(names)
    record = {key: tuple(counts[key]) for key in order}
    ranked = sorted(order, key=lambda key: tuple(-count for count in record[key]))
    return tuple(
        Standing(
            player=names[key],
            played=sum(record[key]),
            wins=record[key][0],
            places=record[key],
            rank=1 + sum(1 for other in order if _better(record[other], record[key])),
        )
        for key in ranked
    )


def players_of(games: Sequence[Played]) -> tuple[str, ...]:
    """Return everyone who sat at the evening's games, once each, in the order they first sat down.

    >>> players_of([Played(players=("Anna", "Ben"), totals={}, winners=(), fewest_win=True),
    ...             Played(players=("ben", "Cleo"), totals={}, winners=(), fewest_win=True)])
    ('Anna', 'Ben', 'Cleo')
    """
    names: dict[str, str] = {}
    for game in games:
        for player in game.players:
            names.setdefault(same_name_key(player), player)
    return tuple(names.values())


def _better(one: tuple[int, ...], other: tuple[int, ...]) -> bool:
    """Return whether a record of places beats another: more wins, or as many and more second places, …"""
    return tuple(-count for count in one) < tuple(-count for count in other)


@dataclass(frozen=True)
class Span:
    """When a game at the table began and when anything last happened in it."""

    started: datetime
    last_change: datetime


def evenings(spans: Sequence[Span], *, idle: timedelta) -> list[range]:
    """Cut a table's games, in the order they were started, into evenings.

    A game begins a new evening when it was started more than ``idle`` after the last change
    of every game before it (a game played on after a later one started still keeps the
    table busy). Returns the positions of each evening's games.

    >>> at = lambda hour: datetime(2026, 12, 5, hour) if hour < 24 else datetime(2026, 12, 6, hour - 24)
    >>> evenings([Span(at(19), at(20)), Span(at(20), at(21)), Span(at(23), at(23)), Span(at(43), at(44))], idle=timedelta(hours=6))
    [range(0, 3), range(3, 4)]
    """
    cuts: list[range] = []
    begin = 0
    busy_until: datetime | None = None
    for index, span in enumerate(spans):
        if busy_until is not None and span.started - busy_until > idle:
            cuts.append(range(begin, index))
            begin = index
        busy_until = max(busy_until or span.last_change, span.last_change, span.started)
    if spans:
        cuts.append(range(begin, len(spans)))
    return cuts


def evening_of(spans: Sequence[Span], index: int, *, idle: timedelta) -> range:
    """Return the positions of the games in the same evening as game ``index``.

    >>> at = lambda hour: datetime(2026, 12, 5, hour)
    >>> evening_of([Span(at(8), at(9)), Span(at(19), at(20)), Span(at(21), at(22))], 2, idle=timedelta(hours=6))
    range(1, 3)
    """
    for evening in evenings(spans, idle=idle):
        if index in evening:
            return evening
    raise IndexError(f"no game {index} at this table")
