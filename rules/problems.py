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

import icu

Param = str | int
"""A value a message template is filled with: a number, a player's name, a card, some JSON."""

ECHO_LIMIT = 40
"""The most characters of an untrusted key, name or number a message repeats."""
MAX_LINES = 50
"""The most problems an answer lists; the last line then says how many more there were."""
_UNSHOWN = frozenset({"Cc", "Cs", "Zl", "Zp", "Cf"})
"""Character categories a message writes as escapes: controls, lone surrogates, line breaks and invisible format characters."""
_JOINERS = frozenset({"\u200c", "\u200d"})
"""Format characters that are part of how a name is written (emoji sequences, Persian), shown as they are."""
_INVISIBLE = icu.UnicodeSet("[[:Default_Ignorable_Code_Point:][:White_Space:]]")
"""Characters that show nothing by themselves: spaces, joiners, zero-width and other ignorable characters."""
_INVISIBLE.freeze()


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


def is_invisible(character: str) -> bool:
    """Return whether a character shows nothing by itself (Unicode's White_Space and Default_Ignorable_Code_Point).

    >>> is_invisible(" "), is_invisible("\\u200b"), is_invisible("\\u3164"), is_invisible("A")
    (True, True, True, False)
    """
    return bool(_INVISIBLE.contains(character))


def readable(text: str) -> str:
    """Return untrusted text as a message may repeat it: cut to a sane length, controls and invisible marks escaped.

    Joiners stay, so a name written with them reads as it is written.

    >>> readable("x" * 50), readable("a\\nb\\ud800"), readable("Anna\\u200b\\u202e"), readable("\\U0001f468\\u200d\\U0001f373")
    ('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...', 'a\\\\nb\\\\ud800', 'Anna\\\\u200b\\\\u202e', '👨\u200d🍳')
    """
    cut = text if len(text) <= ECHO_LIMIT else text[: ECHO_LIMIT - 3] + "..."
    if cut.isprintable():
        return cut
    return "".join(ascii(ch)[1:-1] if unicodedata.category(ch) in _UNSHOWN and ch not in _JOINERS else ch for ch in cut)


def quoted(text: str) -> str:
    """Return an untrusted name in quotes, readable, for a message.

    >>> quoted("Dora")
    "'Dora'"
    """
    return f"'{readable(text)}'"


def quoted_key(key: str) -> str:
    """Return an untrusted object's key in JSON's quotes, readable, so even an empty key can be seen in a message.

    >>> quoted_key("colour"), quoted_key("")
    ('"colour"', '""')
    """
    return f'"{readable(key)}"'


def problem(place: str, template: str, /, **params: Param) -> Problem:
    """Return a problem; the values for the template's placeholders are given by name.

    A number too long to read is cut like any untrusted text.

    >>> str(problem("players.0", N_("{name} is already a player"), name=quoted("Anna")))
    "players.0: 'Anna' is already a player"
    >>> problem("passes", N_("got {got}"), got=10**60).message
    'got 1000000000000000000000000000000000000...'
    """
    shown = {
        name: readable(str(value)) if isinstance(value, int) and abs(value) >= 10**ECHO_LIMIT else value for name, value in params.items()
    }
    return Problem(place, template, shown)


class Problems:
    """The problems found so far: each one counted, the first ``MAX_LINES`` kept, so a hostile record cannot flood an answer."""

    def __init__(self, found: Iterable[Problem] = ()) -> None:
        self.count = 0
        self._kept: list[Problem] = []
        self.extend(found)

    def add(self, found: Problem) -> None:
        """Count a problem, and keep it while fewer than ``MAX_LINES`` are kept."""
        self.count += 1
        if len(self._kept) < MAX_LINES:
            self._kept.append(found)

    def note(self, place: str, template: str, /, **params: Param) -> None:
        """Count a problem given as ``problem`` takes it, made only while it will be kept: counting the rest costs little."""
        if len(self._kept) < MAX_LINES:
            self.add(problem(place, template, **params))
        else:
            self.count += 1

    def extend(self, found: Iterable[Problem]) -> None:
        """Count and keep problems, as ``add`` does one."""
        for one in found:
            self.add(one)

    def __bool__(self) -> bool:
        return self.count > 0

    def listed(self) -> tuple[Problem, ...]:
        """Return the problems an answer lists: all of them, or 49 and a last one saying how many more there were.

        >>> [str(p) for p in Problems([problem("rounds", N_("too long"))] * 60).listed()][-2:]
        ['rounds: too long', 'record: 11 more problems are not listed']
        """
        if self.count <= MAX_LINES:
            return tuple(self._kept)
        shown = self._kept[: MAX_LINES - 1]
        more = problem("record", N_("{count} more problems are not listed"), count=self.count - len(shown))
        return (*shown, more)


class Illegal(ValueError):
    """Raised with every problem found, so a caller can show them all at once (at most ``MAX_LINES`` of them)."""

    def __init__(self, problems: Iterable[Problem] | Problems) -> None:
        found = problems if isinstance(problems, Problems) else Problems(problems)
        self.problems: tuple[Problem, ...] = found.listed()
        super().__init__("\n".join(str(problem) for problem in self.problems))


def at(place: str, key: str | int) -> str:
    """Return the place of a key or index inside another place.

    >>> at(at(at("rounds", 1), "passes"), "Anna")
    'rounds[1].passes.Anna'
    >>> at("", "players")
    'players'
    >>> at("hands", "x" * 60)
    'hands.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'
    >>> at("rounds[0].passes", ""), at("", "\\u200b"), at("", 0)
    ('rounds[0].passes[""]', 'record["\\\\u200b"]', 'record[0]')

    A key from an untrusted record is cut and escaped like any text a message repeats; a key
    with nothing visible in it is written in quotes, so the place still shows.
    """
    if isinstance(key, int):
        return f"{place or 'record'}[{key}]"
    if _INVISIBLE.containsAll(key):
        return f"{place or 'record'}[{quoted_key(key)}]"
    key = readable(key)
    return f"{place}.{key}" if place else key
