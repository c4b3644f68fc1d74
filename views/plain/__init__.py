"""The plain sheet: players in columns, one number per player and round, the totals and who wins.

Its view model (``sheet``), its keypad and correction (``routes``); the package exports
``PLAIN_SHEET``, its entry in ``views.table.sheets``, with what the new-game form asks: the name
of the game (the one field typed), who wins, and when the game ends.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask_babel import lazy_gettext as _l

from models import Game
from rules.json_value import JSON
from rules.plain import PLAIN
from rules.plain.history import PlainTable
from rules.plain.score import HIGHEST, LOWEST, MAX_NAME_LENGTH, MAX_PLAYERS, MAX_ROUNDS
from views.plain import routes, sheet
from views.table import Choice, Option, SheetView

__all__ = ["PLAIN_SHEET"]

OPEN, BY_ROUNDS, BY_TARGET = "open", "rounds", "target"
TARGETS = (10, 15, 20, 21, 25, 30, 40, 50, 60, 66, 75, 100, 101, 121, 150, 200, 250, 300, 301, 500, 501, 1000, 1500, 2000, 5000, 10000)
"""The targets the form offers to tap: those card and dice games commonly play to (a record may hold any from 1 to 100,000)."""

OPTIONS = (
    Option("name", _l("Name of the game"), _l("e.g. Wizard, Skat, Kniffel"), (), "", longest=MAX_NAME_LENGTH),
    Option(
        "wins",
        _l("Who wins?"),
        "",
        (Choice(HIGHEST, _l("Most points win")), Choice(LOWEST, _l("Fewest points win"))),
        HIGHEST,
    ),
    Option(
        "end",
        _l("When is the game over?"),
        "",
        (
            Choice(OPEN, _l("When we say so")),
            Choice(BY_ROUNDS, _l("After a number of rounds")),
            Choice(BY_TARGET, _l("When someone reaches a score")),
        ),
        OPEN,
    ),
    Option("rounds", _l("Rounds"), "", tuple(Choice(str(n), str(n)) for n in range(1, MAX_ROUNDS + 1)), "10"),
    Option("target", _l("Score to reach"), "", tuple(Choice(str(n), str(n)) for n in TARGETS), "100"),
)
"""The new-game form's settings: the name typed, the rest tapped."""


def setup_from_form(settings: Mapping[str, str]) -> dict[str, JSON]:
    """Return the name, who wins and the end rule the form's settings choose."""
    chosen: dict[str, JSON] = {"name": settings["name"], "wins": settings["wins"]}
    if settings["end"] == BY_ROUNDS:
        chosen["end"] = {"rounds": int(settings["rounds"])}
    elif settings["end"] == BY_TARGET:
        chosen["end"] = {"target": int(settings["target"])}
    return chosen


def no_dealer(first: int) -> dict[str, JSON]:
    """Return nothing to keep of the seating: the app knows no dealer of a game it has no rules for."""
    return {}


def rematch(game: Game) -> dict[str, JSON]:
    """Return nothing a rematch keeps besides the players, the name and the end rule."""
    return {}


PLAIN_SHEET: SheetView[PlainTable] = SheetView(
    rules=PLAIN,
    blueprint=routes.bp,
    folder="plain",
    seats=MAX_PLAYERS,
    options=OPTIONS,
    setup_from_form=setup_from_form,
    seating=no_dealer,
    rematch=rematch,
    describe=sheet.describe_event,
    lay_out=sheet.lay_out,
)
"""The plain sheet, as the shared pages know it."""
