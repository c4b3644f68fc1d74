"""The 12 Days score sheet: revealed cards day by day, the pot, the final hands and the totals.

Its view model (``sheet``), its forms' values (``forms``) and its routes (``routes``); the
package exports ``TWELVE_DAYS_SHEET``, its entry in ``views.table.sheets``, with the variant the
new-game form asks for. Who wins a day and where the pot goes come from ``rules.twelve_days``.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask_babel import lazy_gettext as _l

from models import Game
from rules.json_value import JSON
from rules.twelve_days import TWELVE_DAYS
from rules.twelve_days.history import TwelveDaysTable
from rules.twelve_days.score import EIGHT_NIGHTS, EIGHT_PLAYERS, STANDARD, VARIANTS
from views.table import Choice, Option, SheetView
from views.twelve_days import routes, sheet, words

__all__ = ["TWELVE_DAYS_SHEET"]

OPTIONS = (
    Option(
        "variant",
        _l("Which way do you play?"),
        "",
        (
            Choice(STANDARD.name, _l("12 Days (3–5 players)")),
            Choice(EIGHT_NIGHTS.name, _l("8 Nights (3–4 players, cards 1–8)")),
            Choice(EIGHT_PLAYERS.name, _l("8 Players (6–8 players, two decks)")),
        ),
        STANDARD.name,
    ),
)
"""The variant, the one choice the new-game form asks for."""


def setup_from_form(settings: Mapping[str, str]) -> dict[str, JSON]:
    """Return the variant the form's settings choose."""
    return {"variant": settings["variant"]}


def no_dealer(first: int) -> dict[str, JSON]:
    """Return nothing to keep of the seating: nobody deals in this game."""
    return {}


def rematch(game: Game) -> dict[str, JSON]:
    """Return nothing a rematch keeps besides the players and options: nobody deals in this game."""
    return {}


TWELVE_DAYS_SHEET: SheetView[TwelveDaysTable] = SheetView(
    rules=TWELVE_DAYS,
    blueprint=routes.bp,
    folder="twelve_days",
    seats=max(variant.max_players for variant in VARIANTS.values()),
    options=OPTIONS,
    setup_from_form=setup_from_form,
    seating=no_dealer,
    rematch=rematch,
    describe=words.describe_event,
    lay_out=sheet.lay_out,
)
"""The 12 Days sheet, as the shared pages know it."""
