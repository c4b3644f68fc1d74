"""Reading numbers from forms: a phone may send anything, and only digits ``int`` can read pass."""

from __future__ import annotations

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
