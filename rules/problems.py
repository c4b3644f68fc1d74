"""What is wrong with a record or a tap, said so that a person can find and fix it.

A problem's message is kept as an English template with named placeholders and the values
that fill them, so the web layer can translate the template (its catalogs know every one:
``N_`` marks them for ``pybabel extract -k N_``) and then fill in the same values. The rules
themselves never import Flask or Babel.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

Param = str | int
"""A value a message template is filled with: a number, a player's name, a card, some JSON."""

ECHO_LIMIT = 40
"""The most characters of an untrusted key, name or number a message repeats."""
_UNSHOWN = frozenset({"Cc", "Cs", "Zl", "Zp"})
"""Character categories a message writes as escapes: controls, lone surrogates and line breaks."""


def N_(template: str) -> str:
    """Return a message template unchanged; the name marks it for ``pybabel extract -k N_``.

    >>> N_("at most {limit} passes per round (got {got})")
    'at most {limit} passes per round (got {got})'
    """
    return template


@dataclass(frozen=True)
class Problem:
    """One thing that is not legal, with the place it was found.

    ``template`` is the English message with ``{named}`` placeholders, ``params`` the values
    for them; a translation may reorder the placeholders but keeps their names.

    >>> p = Problem("rounds[1].passes.Anna", "at most {limit} passes per round (got {got})", {"limit": 3, "got": 4})
    >>> p.message
    'at most 3 passes per round (got 4)'
    >>> str(p)
    'rounds[1].passes.Anna: at most 3 passes per round (got 4)'
    """

    place: str
    template: str
    params: Mapping[str, Param] = field(default_factory=dict, hash=False)
    """Left out of the hash (a dict cannot be hashed); equal problems still hash alike."""

    @property
    def message(self) -> str:
        """Return the message in English: the template filled with its values."""
        return self.template.format(**self.params)

    def __str__(self) -> str:
        return f"{self.place}: {self.message}" if self.place else self.message


def readable(text: str) -> str:
    """Return untrusted text as a message may repeat it: cut to a sane length, controls escaped.

    >>> readable("x" * 50), readable("a\\nb\\ud800")
    ('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...', 'a\\\\nb\\\\ud800')
    """
    cut = text if len(text) <= ECHO_LIMIT else text[: ECHO_LIMIT - 3] + "..."
    return "".join(ascii(ch)[1:-1] if unicodedata.category(ch) in _UNSHOWN else ch for ch in cut)


def quoted(text: str) -> str:
    """Return an untrusted name in quotes, readable, for a message.

    >>> quoted("Dora")
    "'Dora'"
    """
    return f"'{readable(text)}'"


def problem(place: str, template: str, /, **params: Param) -> Problem:
    """Return a problem; the values for the template's placeholders are given by name.

    A number too long to read is cut like any untrusted text.

    >>> str(problem("players.0", N_("{name} is already a player"), name=quoted("Anna")))
    "players.0: 'Anna' is already a player"
    >>> problem("passes", N_("got {got}"), got=10**60).message
    'got 1000000000000000000000000000000000000...'
    """
    shown = {
        name: readable(str(value)) if isinstance(value, int) and abs(value) >= 10**ECHO_LIMIT else value
        for name, value in params.items()
    }
    return Problem(place, template, shown)


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
    >>> at("hands", "x" * 60)
    'hands.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'

    A key from an untrusted record is cut and escaped like any text a message repeats.
    """
    if isinstance(key, int):
        return f"{place}[{key}]"
    key = readable(key)
    return f"{place}.{key}" if place else key
