"""Points as integer half-points, so that halving never needs a float.

AURUXXX halves a round's points for the Happy-Man holder, which can leave half a point
(17 -> 8.5). Storing twice the points as an int keeps every sum exact, and a type of its
own lets the type checker catch whole points added to half-points.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import NewType

HalfPoints = NewType("HalfPoints", int)
"""Twice a score: 17 points are 34, 8.5 points are 17."""


def whole(points: int) -> HalfPoints:
    """Return the half-points of a whole number of points.

    >>> whole(17)
    34
    """
    return HalfPoints(2 * points)


def halve(points: int) -> HalfPoints:
    """Return half of a whole number of points, exactly: 17 points halve to 8.5.

    >>> halve(17), halve(-10)
    (17, -10)
    """
    return HalfPoints(points)


def total(parts: Iterable[HalfPoints]) -> HalfPoints:
    """Return the sum of half-points, e.g. a player's rounds (a plain ``+`` gives a bare int).

    >>> total([whole(3), halve(5), whole(-1)])
    9
    """
    return HalfPoints(sum(parts))


def to_json_number(half_points: HalfPoints) -> int | float:
    """Return the number the game record writes: whole points without a fraction, halves as .5.

    >>> to_json_number(whole(17)), to_json_number(halve(17)), to_json_number(halve(-5))
    (17, 8.5, -2.5)
    """
    if half_points % 2 == 0:
        return half_points // 2
    return half_points / 2


def to_decimal(half_points: HalfPoints) -> Decimal:
    """Return the points as an exact decimal, for a number formatter: 17 half-points are 8.5.

    >>> to_decimal(halve(17)), to_decimal(whole(-5))
    (Decimal('8.5'), Decimal('-5'))
    """
    return Decimal(half_points) / 2


def from_json_number(number: int | float) -> HalfPoints:
    """Return the half-points of a number as a record's result writes it (43.5 is 87).

    >>> from_json_number(43.5), from_json_number(-12)
    (87, -24)
    """
    return HalfPoints(round(number * 2))
