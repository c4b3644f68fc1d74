"""What is wrong with a record or a tap, said so that a person can find and fix it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One thing that is not legal, with the place it was found.

    >>> str(Problem("rounds[1].passes.Anna", "at most 3 passes per round (got 4)"))
    'rounds[1].passes.Anna: at most 3 passes per round (got 4)'
    """

    place: str
    message: str

    def __str__(self) -> str:
        return f"{self.place}: {self.message}" if self.place else self.message


class Illegal(ValueError):
    """Raised with every problem found, so a caller can show them all at once."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))


def at(place: str, key: str | int) -> str:
    """Return the place of a key or index inside another place.

    >>> at(at(at("rounds", 1), "passes"), "Anna")
    'rounds[1].passes.Anna'
    >>> at("", "players")
    'players'
    """
    if isinstance(key, int):
        return f"{place}[{key}]"
    return f"{place}.{key}" if place else key
