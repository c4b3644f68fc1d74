"""What works on any game's points: the chart, the CSV export and the share text.

Each game hands over its points in one neutral shape, a ``Scoreboard`` (its sheet module has
a small adapter); nothing here asks which game it is.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from babel import numbers
from babel.numbers import get_decimal_symbol
from flask_babel import format_decimal, get_locale, gettext, ngettext

from rules import points
from rules.points import HalfPoints
from views.pages.language import current_language


@dataclass(frozen=True)
class Row:
    """One line of the pad: a finished round or day (or an extra line, such as a hand bonus)."""

    label: str
    """How the pad names it: "1", "2", … or "Bonus"."""
    points: Mapping[str, HalfPoints]


@dataclass(frozen=True, kw_only=True)
class Scoreboard:
    """A game's points in the shape every game shares: players, rows, totals and winners."""

    kind: str
    """The game's kind (``Game.kind``), for file names."""
    stage: str
    """What a row is, in the reader's language: "Round" or "Day"."""
    caption: str
    """What the chart shows, in the reader's language: "Totals after each round"."""
    players: tuple[str, ...]
    rows: tuple[Row, ...]
    totals: Mapping[str, HalfPoints]
    winners: tuple[str, ...]
    """Set once the game is over."""
    fewest_win: bool
    """Whether the fewest points win (else the most)."""

    def running_totals(self) -> list[dict[str, HalfPoints]]:
        """Return every player's total before the first row and after each one."""
        running = {player: HalfPoints(0) for player in self.players}
        steps = [dict(running)]
        for row in self.rows:
            running = {player: HalfPoints(running[player] + row.points.get(player, HalfPoints(0))) for player in self.players}
            steps.append(dict(running))
        return steps

    def ranking(self) -> list[str]:
        """Return the players from the best total to the worst (seat order among equals)."""
        sign = 1 if self.fewest_win else -1
        return sorted(self.players, key=lambda player: sign * self.totals[player])


def decimal_separator() -> str:
    """Return the reader's decimal separator: a comma in German, a point in English."""
    return get_decimal_symbol(current_language())


POINTS_FORMAT = "0.#;−0.#"
"""Points without grouping, a half as one decimal, and a real minus sign."""


def shown(value: HalfPoints) -> str:
    """Return points as the reader writes them (6,5 or 6.5, a real minus sign)."""
    locale = get_locale()
    if locale is None:
        return str(format_decimal(points.to_decimal(value), format=POINTS_FORMAT))
    return _points_in(str(locale), value)


@lru_cache(maxsize=4096)
def _points_in(locale: str, value: HalfPoints) -> str:
    """Return points as written in ``locale``, formatted once per value: Babel reads the number pattern anew on every call,
    and a sheet shows some hundred numbers, mostly the same few."""
    return str(numbers.format_decimal(points.to_decimal(value), format=POINTS_FORMAT, locale=locale))


def share_text(board: Scoreboard) -> str:
    """Return the result in one line to send to friends: the winner first, then everyone else.

    "Anna gewinnt mit 28 Punkten – Ben 73, Cleo 80".
    """
    others = [f"{player} {shown(board.totals[player])}" for player in board.ranking() if player not in board.winners]
    return f"{headline(board)} – {', '.join(others)}" if others else headline(board)


def headline(board: Scoreboard) -> str:
    """Return who won a finished game and with how many points: "Anna gewinnt mit 28 Punkten"."""
    winners = list(board.winners)
    best = board.totals[winners[0]]
    count = best // 2 if best % 2 == 0 else 2
    if len(winners) == 1:
        said = ngettext(
            "%(name)s wins with %(points)s point",
            "%(name)s wins with %(points)s points",
            count,
            name=winners[0],
            points=shown(best),
        )
    else:
        names = str(gettext("%(names)s and %(last)s", names=", ".join(winners[:-1]), last=winners[-1]))
        said = ngettext(
            "%(names)s win with %(points)s point",
            "%(names)s win with %(points)s points",
            count,
            names=names,
            points=shown(best),
        )
    return str(said)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""A spreadsheet runs a cell starting with one of these as a formula: a name never may."""


def csv_text(value: str) -> str:
    """Return a text cell that a spreadsheet shows as text, never runs (a name like "=HYPERLINK(…)")."""
    return f"'{value}" if value.startswith(FORMULA_STARTS) else value


def csv_number(value: HalfPoints, separator: str) -> str:
    """Return points as a spreadsheet reads a number: a plain minus, the reader's decimal separator."""
    number = points.to_json_number(value)
    return str(number).replace(".", separator)


def csv_export(board: Scoreboard) -> str:
    """Return the pad as CSV: one row per round or day, a column per player, then the totals.

    German spreadsheets read ``;`` between cells and a decimal comma, English ones ``,`` and a point.
    """
    separator = decimal_separator()
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";" if separator == "," else ",", lineterminator="\r\n")
    writer.writerow([board.stage, *(csv_text(player) for player in board.players)])
    rows: Sequence[tuple[str, Mapping[str, HalfPoints]]] = [(row.label, row.points) for row in board.rows]
    for label, scored in [*rows, (str(gettext("Total")), board.totals)]:
        writer.writerow([csv_text(label), *(csv_number(scored.get(player, HalfPoints(0)), separator) for player in board.players)])
    return buffer.getvalue()
