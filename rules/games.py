"""The registry of games: what the shared code knows about each game, found by its kind.

Each game is one package under ``rules/`` that exports one frozen value, a ``GameRules``: its
kind and title, how its part of the record is read and written, how it is scored and checked,
what it is played in (rounds, days), and how its events fold into a table. ``rules/__init__.py``
registers the games Tischblock ships; ``find_game`` finds one by the name a record and the
database use, like python-chess's ``find_variant``. The record, the history, the models and the
views ask the registry, never which game it is. The events a game folds (``TableEvent``) and the
changes it asks for (``Change``) are defined here, with the contract they are part of.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from rules.json_value import JSON
from rules.problems import Problem

G = TypeVar("G")
"""A game's typed record (its ``Game`` class)."""
T = TypeVar("T")
"""What a game's events fold into (its table)."""
G_co = TypeVar("G_co", covariant=True)

Change = tuple[str, dict[str, JSON]]
"""An event still to be stored: its kind and its content."""


@dataclass(frozen=True)
class TableEvent:
    """One stored change: its number in the game's history, what kind it is, and its content."""

    seq: int
    kind: str
    payload: Mapping[str, JSON]


class Table(Protocol[G_co]):
    """What a game's events add up to: at least the game so far (each game adds what is in play)."""

    @property
    def game(self) -> G_co:
        """Return the game with every finished round or day, as a record describes it."""
        ...


@dataclass(frozen=True, kw_only=True)
class Figure:
    """One thing a game counts of its finished games that its totals do not show (the statistics page lists it per player)."""

    key: str
    """The name its counts go by in a ``Tally``."""
    label: str
    """What the page calls it, in English, marked for translation (``N_``): the views translate it."""
    points: bool = False
    """Whether it counts half-points (points saved) rather than times (rounds ended)."""
    per: str | None = None
    """The key of another figure it is shown per (crosses per round played), else shown as a sum."""
    of_table: bool = False
    """Whether it is the table's rather than a player's (day points nobody got)."""


@dataclass(frozen=True)
class Tally:
    """What one finished game counts of its figures: per player, and for the table as a whole."""

    players: Mapping[str, Mapping[str, int]]
    table: Mapping[str, int]


NO_TALLY = Tally({}, {})


@dataclass(frozen=True, kw_only=True)
class GameRules(Generic[G, T]):
    """Everything the shared code needs from one game: ``G`` is its typed record, ``T`` what its events fold into."""

    kind: str
    """The game's name in a record's ``"game"`` and in the database."""
    title: str
    """The game's own name, the same in every language."""
    setup_keys: tuple[str, ...]
    """The record's keys that set a game up besides ``game`` and ``players``: its options."""
    game_type: type[G]
    """The class of the typed game that ``parse`` returns."""
    table_type: type[T]
    """The class of what ``fold`` returns."""
    parse: Callable[[Mapping[str, JSON]], G]
    """The game a decoded record of this kind describes, or Illegal with every problem of its shape."""
    serialise: Callable[[G], dict[str, JSON]]
    """The normalised record of a game (defaults filled in), without a result."""
    result: Callable[[G], dict[str, JSON]]
    """The record's ``result`` object: rounds, totals, winners and whatever else the game reports."""
    problems: Callable[[G], list[Problem]]
    """Everything the rules forbid in a typed game."""
    first_player: Callable[[int, int], int | None]
    """The seat that plays first in the first round, given (first dealer, players); None when everyone plays at once."""
    stages: Callable[[G], Sequence[object]]
    """The finished rounds or days of a game, in order: what a correction corrects."""
    split_open: Callable[[G], tuple[G, list[Change]]]
    """The game without the round or day being played, and the taps that play it again (an import's changes)."""
    fold: Callable[[G, Sequence[TableEvent]], T]
    """What the events add up to, played on from a start, or Illegal naming the event.

    The events hold neither undos nor what they undid, nor an import (then the start is the
    imported game)."""
    step: Callable[[T, TableEvent], T | None]
    """A table (what ``fold`` returned) with one more of the game's own events, exactly as ``fold`` would, or Illegal.

    None says that only the whole fold can tell (a correction of a finished round or day,
    which later ones build on): a tap then costs the same however long the game is."""

    variant: Callable[[G], str | None] = lambda game: None
    """The name of the variant a game is played in (none for the game's usual way), shown beside the title."""
    named: Callable[[G], str | None] = lambda game: None
    """The name the table gave this particular game ("Wizard" on a plain sheet), which a result shows instead of the title."""
    figures: tuple[Figure, ...] = ()
    """What the game counts besides totals and winners, for the statistics; a game without any gives only those."""
    tally: Callable[[G], Tally] = lambda game: NO_TALLY
    """The counts of ``figures`` in one game."""

    def name(self, game: G) -> str:
        """Return the game's name as a result names it: the name the table gave it, else the title with the
        variant's own name ("12 Days – 8 Nights")."""
        given = self.named(game)
        if given:
            return given
        variant = self.variant(game)
        return f"{self.title} – {variant}" if variant else self.title

    def typed(self, table: object) -> T:
        """Return a folded table as this game's own, refusing another game's: the shared code holds any game's."""
        if not isinstance(table, self.table_type):
            raise TypeError(f"{type(table).__name__} is no table of {self.kind!r}")
        return table


GAMES: dict[str, GameRules[Any, Any]] = {}
"""Every registered game by its kind, in the order they were registered."""


def register(game: GameRules[Any, Any]) -> None:
    """Add a game to the registry; a kind belongs to one game only."""
    known = GAMES.get(game.kind)
    if known is not None and known is not game:
        raise ValueError(f"two games call themselves {game.kind!r}")
    GAMES[game.kind] = game


def find_game(kind: str) -> GameRules[Any, Any]:
    """Return the game of that kind, or raise ValueError for a kind no game has."""
    try:
        return GAMES[kind]
    except KeyError:
        raise ValueError(f"no game is called {kind!r}") from None


def kinds() -> tuple[str, ...]:
    """Return the kinds of every registered game, in the order they were registered.

    >>> kinds()
    ('auruxxx', '12days', 'plain')
    """
    return tuple(GAMES)


def rules_of(game: object) -> GameRules[Any, Any]:
    """Return the registered game a typed game belongs to."""
    for rules in GAMES.values():
        if isinstance(game, rules.game_type):
            return rules
    raise ValueError(f"{type(game).__name__} is not the game of any registered kind")
