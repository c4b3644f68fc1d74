"""The 12 Days forms' own values: the final-hand keypad's counts and the day correction's fields.

The flows are shared (``views.table.keypads``, ``views.table.corrections``); this module says what a 12 Days
final hand and a 12 Days day look like in them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from flask_babel import gettext, ngettext

from models import Game
from rules.json_value import JSON
from rules.twelve_days import TWELVE_DAYS
from rules.twelve_days.history import TwelveDaysTable, final_hand
from rules.twelve_days.record import serialise_day
from rules.twelve_days.score import card_value
from views.table import Correction, Keypad, is_whole
from views.twelve_days.words import CardOption, calendar_of, card_label, card_token, parse_card

# --- The final-hand keypad ---------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class HandRow:
    """One value on the final-hand form: how many of it the player holds, and at most may hold."""

    token: str
    label: str
    count: int
    limit: int


@dataclass(frozen=True)
class CountedCards:
    """What the final-hand keypad shows: how many cards of each value the hand holds, and how many the deck has."""

    counts: Mapping[str, int]
    limits: Mapping[str, int]
    """The copies of each card in the variant's deck, by card token."""

    def pressed(self, action: str) -> CountedCards:
        """Return the keypad after one card of a value more, or one less."""
        verb, _, target = action.partition(":")
        if verb in ("more", "less") and target in self.limits:
            count = max(0, self.counts.get(target, 0) + (1 if verb == "more" else -1))
            return replace(self, counts={**self.counts, target: count})
        return self

    def draft(self) -> dict[str, JSON]:
        """Return what a phone keeps of an unsaved keypad: the counts that are not 0."""
        return {"counts": {token: count for token, count in self.counts.items() if count}}


def _limits(table: TwelveDaysTable) -> dict[str, int]:
    """Return how many copies of each card the game's deck holds, by card token, lowest card first."""
    return {card_token(card): table.game.variant.copies(card) for card in table.game.variant.cards}


def _stored_cards(table: TwelveDaysTable, player: str) -> CountedCards:
    """Return the keypad for a final hand entered earlier, so it can be changed."""
    return CountedCards(Counter(card_token(card) for card in table.hands.get(player, ())), _limits(table))


def _kept_cards(draft: Mapping[str, Any], table: TwelveDaysTable) -> CountedCards:
    """Return the keypad as this phone kept it unsaved."""
    counts = {token: int(count) for token, count in draft.get("counts", {}).items() if isinstance(count, int)}
    return CountedCards(counts, _limits(table))


def _posted_cards(form: Mapping[str, str], table: TwelveDaysTable) -> tuple[CountedCards, list[str]]:
    """Return the counts the form carries, each at most the copies the deck has (anything else counts 0)."""
    limits = _limits(table)
    counts = {token: min(int(value), limit) if is_whole(value := form.get(f"count-{token}", "0")) else 0 for token, limit in limits.items()}
    return CountedCards(counts, limits), []


def _written_cards(entry: CountedCards, action: str, player: str, form: Mapping[str, str]) -> tuple[dict[str, JSON], list[str]]:
    """Return the ``hand`` event of the keypad: every card it counts."""
    return {"player": player, "cards": [parse_card(token) for token, count in entry.counts.items() for _ in range(count)]}, []


def _held_cards(table: TwelveDaysTable, player: str, form: Mapping[str, str]) -> str | None:
    """Return the player's final hand as the game holds it, its cards counted, highest first ("4 × 12, 11"), or None if none is entered."""
    counted = Counter(table.hands.get(player, ()))
    cards = ", ".join(
        f"{count} × {card_label(card)}" if count > 1 else card_label(card)
        for card, count in sorted(counted.items(), key=lambda item: card_value(item[0]), reverse=True)
    )
    return cards or None


def _their_cards(table: TwelveDaysTable, entry: CountedCards, player: str, action: str, form: Mapping[str, str]) -> str:
    """Return the words of the choice after another phone saved this final hand: its cards counted, highest first."""
    cards = _held_cards(table, player, form) or "–"
    return str(gettext("Another phone saved the hand of %(name)s meanwhile: %(cards)s.", name=player, cards=cards))


def _shown_cards(entry: CountedCards, table: TwelveDaysTable, action: str) -> dict[str, object]:
    """Return what the keypad page shows: a row per value (highest first), how many cards it holds and should hold."""
    variant = table.game.variant
    held = sum(entry.counts.values())
    return {
        "rows": [
            HandRow(token=card_token(card), label=card_label(card), count=entry.counts.get(card_token(card), 0), limit=variant.copies(card))
            for card in reversed(variant.cards)
        ],
        "held": held,
        "hand_size": variant.hand_size,
        "count_text": ngettext("%(num)s of %(size)s cards", "%(num)s of %(size)s cards", held, size=variant.hand_size),
    }


FINAL_HAND_KEYPAD: Keypad[TwelveDaysTable, CountedCards] = Keypad(
    rules=TWELVE_DAYS,
    template="twelve_days/hand.html",
    opens=lambda table, player: True,
    position=lambda table: None,
    stored=_stored_cards,
    kept=_kept_cards,
    posted=_posted_cards,
    written=_written_cards,
    part=lambda table, player, form: final_hand(table, player),
    theirs=_their_cards,
    held=_held_cards,
    shown=_shown_cards,
)
"""The final-hand keypad: a count per card value; a final hand can be entered at any time."""


# --- Correcting a finished day ------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class DayForm:
    """What the day-correction form shows: the stored day, or what was entered into it."""

    played: Mapping[str, str]
    """The card token each player revealed; empty for a day entered quickly."""
    gift_to: str
    taken_by: str
    quick: bool
    """Whether the form shows only who took the day."""


def _day_form(written: Mapping[str, JSON]) -> DayForm:
    """Return the form's values for a day as the record writes it."""
    played, gift_to, taken_by = written.get("played"), written.get("gift_to"), written.get("taken_by")
    return DayForm(
        played={p: str(c) for p, c in played.items()} if isinstance(played, dict) else {},
        gift_to=gift_to if isinstance(gift_to, str) else "",
        taken_by=taken_by if isinstance(taken_by, str) else "",
        quick="taken_by" in written,
    )


def _stored_day(table: TwelveDaysTable, index: int) -> DayForm:
    """Return the form's values for a finished day."""
    game = table.game
    return _day_form(serialise_day(game.days[index], game.players))


def _read_day_form(form: Mapping[str, str], game: Game, table: TwelveDaysTable, index: int) -> tuple[JSON, DayForm, list[str]]:
    """Return the corrected day as a record day, and the form as filled in."""
    corrected: dict[str, JSON]
    if form.get("mode") == "taken":
        corrected = {"taken_by": form.get("taken_by", "") or None}
    else:
        corrected = {"played": {p: parse_card(form.get(f"card-{seat}", "")) for seat, p in enumerate(game.player_names)}}
        gift = form.get("gift_to", "")
        if gift:
            corrected["gift_to"] = gift
    return corrected, _day_form(corrected), []


def _prefilled_day(stored: DayForm, asked: Mapping[str, str], table: TwelveDaysTable) -> DayForm:
    """Return the stored day with the card or the gift a link asks for (a refused tap's); only the variant's cards and the players count.

    A day entered only as who took it has no cards to change: it stays as stored.
    """
    players = table.game.players
    offered = {card_token(card) for card in table.game.variant.cards}
    played = dict(stored.played)
    for seat, player in enumerate(players):
        card = asked.get(f"card-{seat}", "")
        if card in offered and not stored.quick:
            played[player] = card
    gift = asked.get("gift_to", "")
    return replace(stored, played=played, gift_to=gift if gift in players and not stored.quick else stored.gift_to)


def _day_offers(table: TwelveDaysTable, index: int) -> dict[str, object]:
    """Return what the day-correction form offers: the variant's cards, how each is shown, whether a Claus can give a day, and what the variant calls a day."""
    cards = [CardOption(token=card_token(c), label=card_label(c)) for c in table.game.variant.cards]
    return {
        "cards": cards,
        "labels": {card.token: card.label for card in cards},
        "calendar": calendar_of(table.game.variant),
        "clauses": table.game.variant.clauses,
    }


DAY_CORRECTION: Correction[TwelveDaysTable, DayForm] = Correction(
    rules=TWELVE_DAYS,
    event="correct_day",
    position="day",
    template="twelve_days/correct.html",
    changed_meanwhile=lambda: gettext(
        "Someone else changed this day meanwhile. What you entered is still in the form; "
        "compare it with how the day stands now and save again."
    ),
    stored=_stored_day,
    read_form=_read_day_form,
    offers=_day_offers,
    endpoint="twelve_days.correct_day",
    fix_text=lambda number: gettext("Correct day %(n)s with it", n=number),
    prefilled=_prefilled_day,
)
"""A finished day corrected: the cards everyone revealed and a Claus winner's gift, or only who took it."""
