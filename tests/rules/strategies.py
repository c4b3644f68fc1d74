"""Hypothesis strategies that build only legal game records, as decoded JSON, for property tests.

What every game shares is here: player names, numbered events, and the registry of each game's
strategies. Each game's tests register theirs (``tests/rules/<game>_strategies.py``, imported
once by ``tests/rules/__init__.py``); ``records`` and ``histories`` draw from every game there is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from rules import record
from rules.games import TableEvent

Record = dict[str, Any]
"""A decoded game record (the record format's JSON)."""

_LETTERS = "ABDEFJKLMNOPSTUZÄÖÜabdeijklmnoprstuäöüßéçñ"
_SPECIAL_NAMES = (
    "santa",
    "mrs_claus",
    "Mrs. Claus",
    "null",
    "Anna Lena",
    "Jürgen",
    "Ölaf Ärger",
    "Zoë",
    "X" * 40,
    "\U0001f468\u200d\U0001f373",
    "Jean\u00a0Luc",
    "\u0645\u0647\u0631\u200c\u0646\u0627\u0632",
)
"""Names that look like record keywords, long names, and names with joiners and a no-break space."""

names: st.SearchStrategy[str] = st.one_of(
    st.sampled_from(_SPECIAL_NAMES),
    st.builds(str.__add__, st.sampled_from(_LETTERS), st.text(_LETTERS + " -'.\u00a0", max_size=16)).map(str.rstrip),
)
"""A legal player name: 1–40 characters, no space at either end, with umlauts, spaces and joiners."""


def _unique(drawn: list[str]) -> list[str]:
    """Return the names with each repeat (what the rules count as the same name) made unique by a seat mark."""
    seen: list[str] = []
    for seat, name in enumerate(drawn):
        seen.append(name if record.same_name_as(name, seen) is None else f"{name[:36]} #{seat}")
    return seen


def players(low: int, high: int) -> st.SearchStrategy[list[str]]:
    """Return a strategy for low to high unique player names in seating order."""
    return st.lists(names, min_size=low, max_size=high).map(_unique)


# --- Events and the registry ------------------------------------------------------------


def numbered(events: Sequence[tuple[str, Record]]) -> list[TableEvent]:
    """Return events numbered 1, 2, … in the order given."""
    return [TableEvent(seq, kind, payload) for seq, (kind, payload) in enumerate(events, start=1)]


History = tuple[Record, Record, list[TableEvent]]
"""A legal record, its setup, and table events that replay it."""


@dataclass(frozen=True)
class GameStrategies:
    """One game's strategies: legal records of it, and histories of events that replay one."""

    records: Callable[[], st.SearchStrategy[Record]]
    histories: Callable[[], st.SearchStrategy[History]]


GAMES: dict[str, GameStrategies] = {}
"""Every game's strategies, by its kind."""


def register(kind: str, strategies: GameStrategies) -> None:
    """Add a game's strategies: its tests register them once."""
    GAMES[kind] = strategies


def records() -> st.SearchStrategy[Record]:
    """Return a strategy for any legal record of any game."""
    return st.one_of(*(game.records() for game in GAMES.values()))


def histories() -> st.SearchStrategy[History]:
    """Return a strategy for a legal history of any game."""
    return st.one_of(*(game.histories() for game in GAMES.values()))
