"""Points as integer half-points, so that halving never needs a float.

AURUXXX halves a round's points for the Happy-Man holder, which can leave half a point
(17 -> 8.5). Storing twice the points as an int keeps every sum exact.
"""

from __future__ import annotations

HalfPoints = int
"""Twice a score: 17 points are 34, 8.5 points are 17."""


def whole(points: int) -> HalfPoints:
    """Return the half-points of a whole number of points.

    >>> whole(17)
    34
    """
    return 2 * points


def to_json_number(half_points: HalfPoints) -> int | float:
    """Return the number the game record writes: whole points without a fraction, halves as .5.

    >>> to_json_number(34), to_json_number(17), to_json_number(-5)
    (17, 8.5, -2.5)
    """
    if half_points % 2 == 0:
        return half_points // 2
    return half_points / 2


def display(half_points: HalfPoints, *, decimal_separator: str = ",") -> str:
    """Return points as people write them: "6,5" in German, "6.5" in English, "−5" with a real minus.

    >>> display(13), display(13, decimal_separator="."), display(-10), display(0)
    ('6,5', '6.5', '−5', '0')
    """
    sign = "−" if half_points < 0 else ""
    magnitude = abs(half_points)
    text = str(magnitude // 2)
    if magnitude % 2:
        text += f"{decimal_separator}5"
    return sign + text
