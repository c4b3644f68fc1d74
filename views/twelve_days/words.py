"""12 Days in the reader's words: its cards as the sheet shows them and a form sends them, its days (or nights) and its changes.

The sheet (``sheet``), the forms (``forms``) and the routes (``routes``) all say a card, a day
and a change the same way because they take the words from here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from babel.lists import format_list
from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l

from models import Game
from rules.json_value import JSON
from rules.twelve_days import TWELVE_DAYS
from rules.twelve_days.score import (
    CLAUS_CARDS,
    EIGHT_NIGHTS,
    MRS_CLAUS,
    SANTA,
    Card,
    Variant,
)
from views.table import counted_from_one, current_language, is_whole


def card_label(card: Card | None) -> str:
    """Return a card as the sheet shows it."""
    if card is None:
        return "–"
    if card == SANTA:
        return "Santa"
    if card == MRS_CLAUS:
        return "Mrs. Claus"
    return str(card)


def card_token(card: Card) -> str:
    """Return a card as a form sends it."""
    return str(card)


def parse_card(value: str) -> Card | str:
    """Return the card a form names (a number or a Claus); anything else is passed on for the rules to refuse."""
    if is_whole(value):
        return int(value)
    if value in CLAUS_CARDS:
        return SANTA if value == SANTA else MRS_CLAUS
    return value


def listed(items: Sequence[str]) -> str:
    """Return items as the reader lists them: "4 and 5" in English, "4 und 5" in German."""
    return format_list(list(items), locale=current_language())


@dataclass(frozen=True)
class Calendar:
    """What a variant calls its days, in the reader's language: days in 12 Days and 8 Players, nights in 8 Nights."""

    nights: bool

    def days(self, numbers: tuple[int, ...], *, capital: bool = False) -> str:
        """Return day numbers in words: "day 4" or "days 4 and 5" ("Day 4" to begin a sentence; "night 4" in 8 Nights)."""
        listing = listed([str(number) for number in numbers])
        if len(numbers) == 1:
            text = str(gettext("night %(n)s", n=numbers[0]) if self.nights else gettext("day %(n)s", n=numbers[0]))
        else:
            text = str(gettext("nights %(days)s", days=listing) if self.nights else gettext("days %(days)s", days=listing))
        return text[:1].upper() + text[1:] if capital else text

    def of(self, number: int, total: int) -> str:
        """Return where the game stands: "Day 3 of 12", "Night 3 of 8"."""
        if self.nights:
            return str(gettext("Night %(n)s of %(total)s", n=number, total=total))
        return str(gettext("Day %(n)s of %(total)s", n=number, total=total))

    @property
    def one(self) -> str:
        """Return the pad's column heading and the chart's stage: "Day" or "Night"."""
        return str(gettext("Night") if self.nights else gettext("Day"))

    @property
    def points(self) -> str:
        """Return the pad's row of points won by day cards: "Days" or "Nights"."""
        return str(gettext("Nights") if self.nights else gettext("Days"))

    @property
    def points_title(self) -> str:
        """Return what the row of points won by day cards holds, in words."""
        return str(gettext("night points") if self.nights else gettext("day points"))

    @property
    def quick(self) -> str:
        """Return the heading of quick mode, where only the day's taker is noted."""
        return str(gettext("Quick: only note who takes the night") if self.nights else gettext("Quick: only note who takes the day"))

    def clear_first(self, revealed: int) -> str:
        """Return why quick mode first clears the cards already revealed today."""
        if self.nights:
            return str(
                ngettext(
                    "%(num)s card is already revealed tonight. To only note who takes the night, clear tonight's cards first: each one is undone, and the history keeps it.",
                    "%(num)s cards are already revealed tonight. To only note who takes the night, clear tonight's cards first: each one is undone, and the history keeps it.",
                    revealed,
                )
            )
        return str(
            ngettext(
                "%(num)s card is already revealed today. To only note who takes the day, clear today's cards first: each one is undone, and the history keeps it.",
                "%(num)s cards are already revealed today. To only note who takes the day, clear today's cards first: each one is undone, and the history keeps it.",
                revealed,
            )
        )

    def correct(self, number: int) -> str:
        """Return the label of a finished day's correction link."""
        return str(gettext("Correct night %(n)s", n=number) if self.nights else gettext("Correct day %(n)s", n=number))

    def stands(self, number: int) -> str:
        """Return the heading of a day as stored, beside a correction that came too late."""
        return str(gettext("How night %(n)s stands now", n=number) if self.nights else gettext("How day %(n)s stands now", n=number))

    @property
    def recomputed(self) -> str:
        """Return what a correction works out again."""
        if self.nights:
            return str(gettext("Change what was entered wrongly. The pot and every night after this one are worked out again."))
        return str(gettext("Change what was entered wrongly. The pot and every day after this one are worked out again."))

    @property
    def known(self) -> str:
        """Return the question of a correction: entered by the cards, or only who took it."""
        return str(gettext("What do you know about this night?") if self.nights else gettext("What do you know about this day?"))

    def final_hands(self, cards: int) -> str:
        """Return what the final hands are for, after the last day."""
        if self.nights:
            return str(
                gettext(
                    "After the last night everyone enters the %(n)s cards in hand; the most cards of a value score that value.", n=cards
                )
            )
        return str(
            gettext("After the last day everyone enters the %(n)s cards in hand; the most cards of a value score that value.", n=cards)
        )

    def taken(self, number: int, player: str) -> str:
        """Return a quick tap in words: who took the day card."""
        if self.nights:
            return str(gettext("Night %(n)s: night card taken by %(player)s", n=number, player=player))
        return str(gettext("Day %(n)s: day card taken by %(player)s", n=number, player=player))


def calendar_of(variant: Variant) -> Calendar:
    """Return how a variant names its days."""
    return Calendar(nights=variant is EIGHT_NIGHTS)


def describe_event(game: Game, kind: str, payload: Mapping[str, JSON]) -> str:
    """Return one 12 Days change in words (nights in 8 Nights)."""
    player = payload.get("player")
    number = counted_from_one(payload, "day")
    if calendar_of(TWELVE_DAYS.parse(game.setup).variant).nights:
        nights: dict[str, Any] = {
            "card": _l("Night %(n)s: %(player)s revealed a card", n=number, player=player),
            "taken": _l("Night %(n)s: night card taken by %(player)s", n=number, player=player or _l("nobody")),
            "correct_day": _l("Night %(n)s corrected", n=number),
        }
        if kind in nights:
            return str(nights[kind])
    texts: dict[str, Any] = {
        "card": _l("Day %(n)s: %(player)s revealed a card", n=number, player=player),
        "gift": _l("Day %(n)s: the Claus winner gives the day to %(player)s", n=number, player=player),
        "taken": _l("Day %(n)s: day card taken by %(player)s", n=number, player=player or _l("nobody")),
        "hand": _l("Final hand of %(player)s entered", player=player),
        "correct_day": _l("Day %(n)s corrected", n=number),
    }
    return str(texts.get(kind, kind))


@dataclass(frozen=True, kw_only=True)
class CardOption:
    """A card as a form offers it."""

    token: str
    label: str
