"""Reading forms: a phone may send anything; only digits ``int`` can read pass, and only the table's players and rounds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from flask import abort
from flask_babel import gettext

MAX_NUMBER_DIGITS = 9
"""No number a form sends has more digits than this; longer ones are not numbers of this app."""


def is_whole(value: str) -> bool:
    """Return whether a form value is a whole number that ``int`` reads: 1 to 9 ASCII digits.

    ``str.isdigit`` is not enough: it passes "²" and 10 000 digits, and ``int`` fails on both.

    >>> is_whole("12"), is_whole("²"), is_whole("1" * 10), is_whole("-1"), is_whole("")
    (True, False, False, False, False)
    """
    return value.isascii() and value.isdigit() and len(value) <= MAX_NUMBER_DIGITS


def is_integer(value: str) -> bool:
    """Return whether a form value is a whole number with an optional minus sign (one, not "--5").

    >>> is_integer("-5"), is_integer("--5"), is_integer("7")
    (True, False, True)
    """
    return is_whole(value[1:] if value.startswith("-") else value)


def whole_or_text(value: str) -> int | str:
    """Return a form value as a whole number when it is one, else as typed, for the rules to refuse.

    >>> whole_or_text(" 7 "), whole_or_text("-2"), whole_or_text("seven")
    (7, -2, 'seven')
    """
    value = value.strip()
    return int(value) if is_integer(value) else value


def posted_player(form: Mapping[str, str], players: Sequence[str], field: str = "player") -> str:
    """Return the player a form names, refusing (400) a name that is not at this table."""
    name = form.get(field, "")
    if name not in players:
        abort(400, description=gettext("Unknown player."))
    return name


def posted_index(form: Mapping[str, str], field: str, count: int, unknown: str) -> int:
    """Return the round or day (from 0) a form was filled in for, refusing (400, ``unknown``) one the game does not have.

    The rules refuse any but the one being played, with their own words.
    """
    value = form.get(field, "")
    if not is_whole(value) or int(value) >= count:
        abort(400, description=unknown)
    return int(value)
