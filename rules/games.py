"""The registry of games: what the shared code knows about each game, found by its kind.

Each game is one package under ``rules/`` whose module-level names satisfy ``GameRules``:
its kind and title, how its part of the record is read and written, how it is scored and
checked, what it is played in (rounds, days), and how its events fold into a table. ``rules/__init__.py`` registers the games
Tischblock ships; ``find_game`` finds one by the name a record and the database use, like
python-chess's ``find_variant``. The record, the history, the models and the views ask the
registry, never which game it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from rules.json_value import JSON
from rules.problems import Problem

if TYPE_CHECKING:
    from rules.history import Change, TableEvent

G = TypeVar("G")
G_co = TypeVar("G_co", covariant=True)


class Table(Protocol[G_co]):
    """What a game's events add up to: at least the game so far (each game adds what is in play)."""

    @property
    def game(self) -> G_co:
        """Return the game with every finished round or day, as a record describes it."""
        ...


class GameRules(Protocol[G]):
    """Everything the shared code needs from one game, given by its package's module-level names.

    ``G`` is the game's typed record (its ``Game`` class).
    """

    @property
    def KIND(self) -> str:
        """Return the game's name in a record's ``"game"`` and in the database: "auruxxx"."""
        ...

    @property
    def TITLE(self) -> str:
        """Return the game's own name, the same in every language."""
        ...

    @property
    def SETUP_KEYS(self) -> tuple[str, ...]:
        """Return the record's keys that set a game up besides ``game`` and ``players``: its options."""
        ...

    @property
    def Game(self) -> type[G]:
        """Return the class of the typed game that ``parse`` returns."""
        ...

    def parse(self, raw: Mapping[str, JSON]) -> G:
        """Return the game a decoded record of this kind describes, or raise Illegal with every problem of its shape."""
        ...

    def serialise(self, game: G) -> dict[str, JSON]:
        """Return the normalised record of a game (defaults filled in), without a result."""
        ...

    def result(self, game: G) -> dict[str, JSON]:
        """Return the record's ``result`` object: rounds, totals, winners and whatever else the game reports."""
        ...

    def problems(self, game: G) -> list[Problem]:
        """Return everything the rules forbid in a typed game."""
        ...

    def first_player(self, first_dealer: int, players: int) -> int | None:
        """Return the seat that plays first in the game's first round, or None when everyone plays at once."""
        ...

    def stages(self, game: G) -> Sequence[object]:
        """Return the finished rounds or days of a game, in order: what a correction corrects."""
        ...

    def split_open(self, game: G) -> tuple[G, list[Change]]:
        """Return the game without the round or day being played, and the taps that play it again (an import's changes)."""
        ...

    def fold(self, start: G, events: Sequence[TableEvent]) -> Table[G]:
        """Return what the events add up to, played on from ``start``, or raise Illegal naming the event.

        ``events`` hold neither undos nor what they undid, nor an import (then ``start`` is
        the imported game).
        """
        ...

    def step(self, table: Any, event: TableEvent) -> Table[G] | None:
        """Return ``table`` (what this game's ``fold`` returned) with one more of its own events, exactly as ``fold`` would, or raise Illegal.

        None says that only the whole fold can tell (a correction of a finished round or day,
        which later ones build on): a tap then costs the same however long the game is.
        """
        ...


GAMES: dict[str, GameRules[Any]] = {}
"""Every registered game by its kind, in the order they were registered."""


def register(game: GameRules[Any]) -> None:
    """Add a game to the registry; a kind belongs to one game only."""
    known = GAMES.get(game.KIND)
    if known is not None and known is not game:
        raise ValueError(f"two games call themselves {game.KIND!r}")
    GAMES[game.KIND] = game


def find_game(kind: str) -> GameRules[Any]:
    """Return the game of that kind, or raise ValueError for a kind no game has."""
    try:
        return GAMES[kind]
    except KeyError:
        raise ValueError(f"no game is called {kind!r}") from None


def kinds() -> tuple[str, ...]:
    """Return the kinds of every registered game, in the order they were registered.

    >>> kinds()
    ('auruxxx', '12days')
    """
    return tuple(GAMES)


def rules_of(game: object) -> GameRules[Any]:
    """Return the registered game a typed game belongs to."""
    for rules in GAMES.values():
        if isinstance(game, rules.Game):
            return rules
    raise ValueError(f"{type(game).__name__} is not the game of any registered kind")
