"""The AURUXXX score sheet: the paper pad's columns, and the taps that fill them.

Its view model (``sheet``), its forms' values (``forms``) and its routes (``routes``); the
package exports ``AURUXXX_SHEET``, its entry in ``views.table.sheets``, with the house rules the
new-game form asks for. The arithmetic, who deals and every refusal come from ``rules.auruxxx``.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask_babel import lazy_gettext as _l

from models import Game
from rules.auruxxx import AURUXXX
from rules.auruxxx.history import AuruxxxTable
from rules.auruxxx.score import GOLDEN12_IN_HAND_CHOICES, MAX_PLAYERS, ROUNDS, TWO_IN_HAND_CHOICES, Halving, HouseRules, Rounding, dealer
from rules.json_value import JSON
from views.auruxxx import routes, sheet
from views.table import Choice, Option, SheetView

__all__ = ["AURUXXX_SHEET"]

HOUSE_RULES = HouseRules()
"""The house rules a new game starts with, unless the table chooses others."""
HALVING_WORDS = {
    Halving.NET: _l("after the Golden-12 bonus"),
    Halving.PENALTY: _l("before the Golden-12 bonus"),
}
ROUNDING_WORDS = {
    Rounding.EXACT: _l("keep the half (8.5)"),
    Rounding.FLOOR: _l("round down (8)"),
    Rounding.CEIL: _l("round up (9)"),
}
OPTIONS = (
    Option(
        "golden12_in_hand",
        _l("Golden 12 left in hand"),
        _l("Points for a Golden 12 that a player other than the finisher still holds."),
        tuple(Choice(str(points), str(points)) for points in GOLDEN12_IN_HAND_CHOICES),
        str(HOUSE_RULES.golden12_in_hand),
    ),
    Option(
        "two_in_hand",
        _l('"2" card left in hand'),
        _l('Points for a "2" (draw two) card still in hand at the end of a round.'),
        tuple(Choice(str(points), str(points)) for points in TWO_IN_HAND_CHOICES),
        str(HOUSE_RULES.two_in_hand),
    ),
    Option(
        "halving",
        _l("Happy-Man halves"),
        _l("Only matters when the Happy-Man holder also ended the round with Golden 12."),
        tuple(Choice(halving.value, HALVING_WORDS[halving]) for halving in Halving),
        HOUSE_RULES.halving.value,
    ),
    Option(
        "rounding",
        _l("Half points"),
        _l("What becomes of an odd score when it is halved, e.g. 17."),
        tuple(Choice(rounding.value, ROUNDING_WORDS[rounding]) for rounding in Rounding),
        HOUSE_RULES.rounding.value,
    ),
)
"""The house rules the new-game form asks for, the choices and defaults of ``rules.auruxxx.score``."""


def setup_from_form(settings: Mapping[str, str]) -> dict[str, JSON]:
    """Return the house rules the form's settings choose, numbers as numbers."""
    return {
        "house_rules": {
            "golden12_in_hand": int(settings["golden12_in_hand"]),
            "two_in_hand": int(settings["two_in_hand"]),
            "halving": settings["halving"],
            "rounding": settings["rounding"],
        }
    }


def seating(first: int) -> dict[str, JSON]:
    """Return the seat that deals the first round, kept with the game's options."""
    return {"first_dealer": first}


def rematch(game: Game) -> dict[str, JSON]:
    """Return who deals first in a rematch: the deal goes on round the table after the last round."""
    return seating(dealer(game.first_dealer, ROUNDS, len(game.players)))


AURUXXX_SHEET: SheetView[AuruxxxTable] = SheetView(
    rules=AURUXXX,
    blueprint=routes.bp,
    folder="auruxxx",
    seats=MAX_PLAYERS,
    options=OPTIONS,
    setup_from_form=setup_from_form,
    seating=seating,
    rematch=rematch,
    describe=sheet.describe_event,
    lay_out=sheet.lay_out,
)
"""The AURUXXX sheet, as the shared pages know it."""
