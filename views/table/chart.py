"""The score chart: every player's running total after each round or day, drawn on the server as SVG.

Players are told apart by a shape and a dash pattern as well as a colour, so the chart reads
without colour vision and in print; the colours themselves come from the stylesheet, which
brightens them in dark mode.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rules.points import HalfPoints
from views.table.scoreboard import Scoreboard, shown

WIDTH = 320
HEIGHT = 190
LEFT = 34
"""Room for the point labels of the vertical axis."""
RIGHT = 10
TOP = 10
BOTTOM = 22
"""Room for the round or day labels under the chart."""
SHAPES = ("circle", "square", "triangle", "diamond", "triangle-down", "cross", "plus", "star")
"""One marker shape per seat, for up to eight players."""
DASHES = ("", "6 3", "2 3", "8 3 2 3", "", "6 3", "2 3", "8 3 2 3")
MARKER = 4.2
"""Half the width of a marker, in chart units."""


@dataclass(frozen=True)
class Series:
    """One player's line: the points it passes through and the marker drawn at each."""

    player: str
    seat: int
    shape: str
    dash: str
    line: str
    """The polyline's points, "x,y x,y …"."""
    markers: tuple[str, ...]
    """One SVG path per point (the marker drawn there)."""
    legend_marker: str
    """The same marker, drawn for the legend's own little SVG."""
    total: str


@dataclass(frozen=True)
class Tick:
    """A label on an axis and where it goes."""

    at: float
    text: str
    low: bool = False
    """A word among numbers ("Bonus") goes a line lower, so it does not run into its neighbour."""


@dataclass(frozen=True)
class Chart:
    """Everything the chart template draws."""

    width: int
    height: int
    left: int
    right: float
    top: int
    bottom: float
    series: tuple[Series, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    zero: float
    """Where 0 points is, for the base line."""
    description: str


def nice_step(span: float, wanted: int = 4) -> int:
    """Return a round step (1, 2 or 5 times a power of ten) that cuts ``span`` into about ``wanted`` parts.

    >>> nice_step(100), nice_step(37), nice_step(7), nice_step(0)
    (20, 10, 2, 1)
    """
    if span <= 0:
        return 1
    raw = span / wanted
    power = 10 ** math.floor(math.log10(raw))
    closest: float = min((factor * power for factor in (1, 2, 5, 10)), key=lambda step: abs(math.log(step / raw)))
    return max(1, round(closest))


def marker_path(shape: str, x: float, y: float, size: float = MARKER) -> str:
    """Return the SVG path of a marker centred on (x, y).

    >>> marker_path("square", 10, 20, 2)
    'M8.0 18.0h4.0v4.0h-4.0z'
    """
    s = size
    if shape == "circle":
        return f"M{x - s:.1f} {y:.1f}a{s:.1f} {s:.1f} 0 1 0 {2 * s:.1f} 0a{s:.1f} {s:.1f} 0 1 0 {-2 * s:.1f} 0z"
    if shape == "square":
        return f"M{x - s:.1f} {y - s:.1f}h{2 * s:.1f}v{2 * s:.1f}h{-2 * s:.1f}z"
    if shape == "triangle":
        return f"M{x:.1f} {y - s * 1.2:.1f}L{x + s * 1.1:.1f} {y + s * 0.9:.1f}H{x - s * 1.1:.1f}z"
    if shape == "triangle-down":
        return f"M{x:.1f} {y + s * 1.2:.1f}L{x + s * 1.1:.1f} {y - s * 0.9:.1f}H{x - s * 1.1:.1f}z"
    if shape == "diamond":
        return f"M{x:.1f} {y - s * 1.3:.1f}L{x + s * 1.1:.1f} {y:.1f}L{x:.1f} {y + s * 1.3:.1f}L{x - s * 1.1:.1f} {y:.1f}z"
    if shape == "plus":
        t = s * 0.4
        return (
            f"M{x - t:.1f} {y - s:.1f}h{2 * t:.1f}v{s - t:.1f}h{s - t:.1f}v{2 * t:.1f}h{t - s:.1f}v{s - t:.1f}"
            f"h{-2 * t:.1f}v{t - s:.1f}h{t - s:.1f}v{-2 * t:.1f}h{s - t:.1f}z"
        )
    if shape == "cross":
        t = s * 0.35
        return (
            f"M{x - s:.1f} {y - s + t:.1f}l{t:.1f} {-t:.1f}l{s - t:.1f} {s - t:.1f}l{s - t:.1f} {t - s:.1f}l{t:.1f} {t:.1f}"
            f"l{t - s:.1f} {s - t:.1f}l{s - t:.1f} {s - t:.1f}l{-t:.1f} {t:.1f}l{t - s:.1f} {t - s:.1f}"
            f"l{t - s:.1f} {s - t:.1f}l{-t:.1f} {-t:.1f}l{s - t:.1f} {t - s:.1f}z"
        )
    corners = []
    for corner in range(10):
        radius = s * 1.3 if corner % 2 == 0 else s * 0.55
        angle = math.pi / 5 * corner - math.pi / 2
        corners.append(f"{x + radius * math.cos(angle):.1f} {y + radius * math.sin(angle):.1f}")
    return "M" + "L".join(corners) + "z"


def build_chart(board: Scoreboard, *, title: str) -> Chart | None:
    """Lay out the running totals of a scoreboard, or None before the first round or day is over."""
    if not board.rows:
        return None
    steps = board.running_totals()
    values = [step[player] for step in steps for player in board.players]
    low, high = min(0, *values), max(0, *values)
    step = nice_step((high - low) / 2) * 2  # a whole number of points, counted in half-points
    low = math.floor(low / step) * step
    high = max(math.ceil(high / step) * step, low + step)
    worded = any(len(row.label) > 2 for row in board.rows)
    right = WIDTH - RIGHT - (12 if worded else 0)
    bottom = HEIGHT - BOTTOM - (10 if worded else 0)

    def x_of(index: int) -> float:
        return LEFT + (right - LEFT) * index / (len(steps) - 1)

    def y_of(value: float) -> float:
        return bottom - (bottom - TOP) * (value - low) / (high - low)

    series = []
    for seat, player in enumerate(board.players):
        shape = SHAPES[seat % len(SHAPES)]
        spots = [(x_of(index), y_of(step_totals[player])) for index, step_totals in enumerate(steps)]
        series.append(
            Series(
                player=player,
                seat=seat,
                shape=shape,
                dash=DASHES[seat % len(DASHES)],
                line=" ".join(f"{x:.1f},{y:.1f}" for x, y in spots),
                markers=tuple(marker_path(shape, x, y) for x, y in spots[1:]),
                legend_marker=marker_path(shape, 8, 8, 5),
                total=shown(board.totals[player]),
            )
        )
    x_ticks = tuple(Tick(x_of(index), row.label, len(row.label) > 2) for index, row in enumerate(board.rows, start=1))
    y_ticks = tuple(Tick(y_of(value), shown(HalfPoints(value))) for value in range(low, high + 1, step))
    description = "; ".join(f"{player}: " + ", ".join(shown(step_totals[player]) for step_totals in steps[1:]) for player in board.players)
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        right=right,
        top=TOP,
        bottom=bottom,
        series=tuple(series),
        x_ticks=x_ticks,
        y_ticks=y_ticks,
        zero=y_of(0),
        description=f"{title}. {description}",
    )
