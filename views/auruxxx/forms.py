"""The AURUXXX forms' own values: the hand keypad's cards and the round correction's fields.

The flows are shared (``views.table.keypads``, ``views.table.corrections``); this module says what an
AURUXXX hand and an AURUXXX round look like in them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from flask_babel import gettext, ngettext

from models import Game
from rules.auruxxx import AURUXXX
from rules.auruxxx.history import AuruxxxTable, hand_in, may_enter_hand
from rules.auruxxx.record import serialise_hand
from rules.auruxxx.score import (
    GOLDEN12_IN_DECK,
    MAX_PASSES,
    NUMBER_VALUES,
    ROUNDS,
    Cards,
    CountedHand,
    hand_points,
    nobody_may_hold_after,
    retyped_hand,
)
from rules.json_value import JSON
from rules.problems import readable
from views.auruxxx.sheet import whole
from views.table import Correction, Keypad, is_integer, is_whole, posted_index, whole_or_text

KEYPAD_CARDS: tuple[tuple[str, str], ...] = (
    *((f"n{value}", str(value)) for value in NUMBER_VALUES),
    ("fifty", "50"),
    ("action", "action"),
    ("happy_man", "happy_man"),
    ("two", "two"),
    ("golden12", "golden12"),
)
"""Every key of the hand keypad: its token in the form, and what it shows."""
CARD_TOKENS = {token for token, _ in KEYPAD_CARDS}
MAX_HAND_CARDS = 160
"""A hand cannot hold more cards than the deck has."""


def posted_round(form: Mapping[str, str]) -> int:
    """Return the round a form was filled in for (the rules refuse any but the current one)."""
    return posted_index(form, "round", ROUNDS, gettext("Unknown round."))


# --- The hand keypad ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TappedHand:
    """What the hand keypad shows: the cards tapped so far (keypad tokens), or a total typed instead of them."""

    tokens: tuple[str, ...] = ()
    typed: str = ""

    def pressed(self, action: str) -> TappedHand:
        """Return the keypad after a key: add a card, or remove the one tapped at a position."""
        verb, _, target = action.partition(":")
        if verb == "add" and target in CARD_TOKENS and len(self.tokens) < MAX_HAND_CARDS:
            return replace(self, tokens=(*self.tokens, target))
        if verb == "remove" and is_whole(target) and int(target) < len(self.tokens):
            return replace(self, tokens=self.tokens[: int(target)] + self.tokens[int(target) + 1 :])
        return self

    def draft(self) -> dict[str, JSON]:
        """Return what a phone keeps of an unsaved keypad."""
        return {"cards": " ".join(self.tokens), "points": self.typed}

    def counted(self, action: str) -> bool:
        """Return whether the typed total is what gets saved (its own button, or no card tapped)."""
        return action == "save-points" or (not self.tokens and bool(self.typed))

    def cards(self) -> Cards:
        """Return the hand the tapped cards make."""
        counts = Counter(token for token in self.tokens if not token.startswith("n"))
        return Cards(
            numbers=tuple(int(token[1:]) for token in self.tokens if token.startswith("n")),
            fifty=counts["fifty"],
            action=counts["action"],
            happy_man=counts["happy_man"],
            two=counts["two"],
            golden12=counts["golden12"],
        )


def _known(tokens: list[str]) -> tuple[str, ...]:
    """Return the keypad cards among ``tokens``, at most as many as a hand can hold."""
    return tuple(token for token in tokens if token in CARD_TOKENS)[:MAX_HAND_CARDS]


def _stored_hand(table: AuruxxxTable, player: str) -> TappedHand:
    """Return the keypad for a hand entered earlier in the round being played, so it can be changed."""
    entered = table.current.hands.get(player) if table.current is not None else None
    if isinstance(entered, Cards):
        tokens = [f"n{number}" for number in entered.numbers]
        for kind in ("fifty", "action", "happy_man", "two", "golden12"):
            tokens += [kind] * getattr(entered, kind)
        return TappedHand(tuple(tokens))
    if isinstance(entered, CountedHand):
        return TappedHand(typed=str(entered.points))
    return TappedHand()


def _kept_hand(draft: Mapping[str, Any], table: AuruxxxTable) -> TappedHand:
    """Return the keypad as this phone kept it unsaved."""
    return TappedHand(_known(str(draft.get("cards", "")).split()), str(draft.get("points", "")))


def _posted_hand(form: Mapping[str, str], table: AuruxxxTable) -> tuple[TappedHand, list[str]]:
    """Return the keypad as its form carries it, refusing whatever in it is no keypad card."""
    sent = form.get("cards", "").split()
    strangers = [token for token in sent if token not in CARD_TOKENS]
    entry = TappedHand(_known(sent), form.get("points", "").strip())
    if strangers:
        stranger = readable(strangers[0])
        return entry, [gettext("%(card)s is not a card on the keypad; check the cards and save again.", card=stranger)]
    return entry, []


def _written_hand(entry: TappedHand, action: str, player: str, form: Mapping[str, str]) -> tuple[dict[str, JSON], list[str]]:
    """Return the ``hand`` event of the keypad: the tapped cards, or the typed total."""
    if not entry.counted(action):
        hand: dict[str, JSON] = serialise_hand(entry.cards())
    elif is_whole(entry.typed):
        hand = {"points": int(entry.typed)}
    else:
        return {}, [gettext("Type the hand's total as a whole number, or enter the cards.")]
    return {"round": posted_round(form), "player": player, "hand": hand}, []


def _their_hand(table: AuruxxxTable, entry: TappedHand, player: str, action: str, form: Mapping[str, str]) -> str:
    """Return the words of the choice after another phone saved this hand: its points and this phone's."""
    saved = hand_in(table, player, posted_round(form))
    theirs = whole(hand_points(saved, table.game.house_rules)) if saved is not None else "–"
    mine = entry.typed if entry.counted(action) else whole(hand_points(entry.cards(), table.game.house_rules))
    return str(
        gettext(
            "Another phone saved the hand of %(name)s meanwhile: %(theirs)s points. Yours: %(mine)s points.",
            name=player,
            theirs=theirs,
            mine=mine,
        )
    )


def _held_hand(table: AuruxxxTable, player: str, form: Mapping[str, str]) -> str | None:
    """Return the points of the player's hand the game holds for the keypad's round, or None if none is entered."""
    held = hand_in(table, player, posted_round(form))
    if held is None:
        return None
    points = hand_points(held, table.game.house_rules)
    return str(ngettext("%(num)s point", "%(num)s points", points))


def _shown_hand(entry: TappedHand, table: AuruxxxTable, action: str) -> dict[str, object]:
    """Return what the keypad page shows: the round, the cards tapped, their sum and the keys."""
    return {
        "current": table.current,
        "tokens": list(entry.tokens),
        "typed": entry.typed,
        "total": whole(hand_points(entry.cards(), table.game.house_rules)),
        "keypad": KEYPAD_CARDS,
    }


HAND_KEYPAD: Keypad[AuruxxxTable, TappedHand] = Keypad(
    rules=AURUXXX,
    template="auruxxx/hand.html",
    opens=may_enter_hand,
    position=lambda table: table.current.index if table.current is not None else None,
    stored=_stored_hand,
    kept=_kept_hand,
    posted=_posted_hand,
    saves=("save", "save-points"),
    written=_written_hand,
    part=lambda table, player, form: hand_in(table, player, posted_round(form)),
    theirs=_their_hand,
    held=_held_hand,
    shown=_shown_hand,
)
"""The hand keypad: a key per card, or the hand's counted total typed in."""


# --- Correcting a finished round ---------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class RoundForm:
    """What the round-correction form shows: the stored round, or what was typed into it."""

    finisher: str
    golden12: int | str
    happy_man: str | None
    passes: Mapping[str, int | str]
    hands: Mapping[str, int | str]
    """Points in hand per player: the stored total, or the text typed."""


def _stored_round(table: AuruxxxTable, index: int) -> RoundForm:
    """Return the form's values for a finished round: every hand as its total."""
    game = table.game
    round_ = game.rounds[index]
    return RoundForm(
        finisher=round_.finisher,
        golden12=round_.golden12,
        happy_man=round_.happy_man,
        passes={p: round_.passes_of(p) for p in game.players},
        hands={p: hand_points(round_.hand_of(p), game.house_rules) for p in game.players if p != round_.finisher},
    )


def _read_round_form(form: Mapping[str, str], game: Game, table: AuruxxxTable, index: int) -> tuple[JSON, RoundForm, list[str]]:
    """Return the corrected round as a record round, the form as filled in, and the hands left blank."""
    played = table.game
    players = game.player_names
    typed = {p: form.get(f"hand-{seat}", "").strip() for seat, p in enumerate(players)}
    shown = RoundForm(
        finisher=form.get("finisher", ""),
        golden12=whole_or_text(form.get("golden12", "")),
        happy_man=form.get("happy_man", "") or None,
        passes={p: whole_or_text(form.get(f"passes-{seat}", "")) for seat, p in enumerate(players)},
        hands=typed,
    )
    blank = [p for p, text in typed.items() if p != shown.finisher and not text]
    if blank:
        return {}, shown, [gettext("%(name)s: type the points in hand (0 for an empty hand).", name=name) for name in blank]
    original = played.rounds[index]
    hands: dict[str, JSON] = {
        p: serialise_hand(retyped_hand(original, p, int(text), played.house_rules)) if is_integer(text) else {"points": text}
        for p, text in typed.items()
        if p != shown.finisher
    }
    written: dict[str, JSON] = {
        "finisher": shown.finisher,
        "golden12": shown.golden12,
        "happy_man": shown.happy_man,
        "passes": dict(shown.passes),
        "hands": hands,
    }
    return written, shown, []


def _prefilled_round(stored: RoundForm, asked: Mapping[str, str], table: AuruxxxTable) -> RoundForm:
    """Return the stored round with the crosses or the figure holder a link asks for (a refused tap's); anything else in it is left out."""
    players = table.game.players
    passes = dict(stored.passes)
    for seat, player in enumerate(players):
        crosses = asked.get(f"passes-{seat}", "")
        if is_whole(crosses) and int(crosses) <= MAX_PASSES:
            passes[player] = int(crosses)
    holder = asked.get("happy_man", "")
    return replace(stored, passes=passes, happy_man=holder if holder in players else stored.happy_man)


def _round_offers(table: AuruxxxTable, index: int) -> dict[str, object]:
    """Return what the round-correction form offers: whether nobody may hold the figure, the Golden 12 and the crosses."""
    return {
        "nobody_allowed": nobody_may_hold_after(table.game.rounds[:index]),
        "golden12_choices": range(1, GOLDEN12_IN_DECK + 1),
        "pass_choices": range(MAX_PASSES + 1),
    }


ROUND_CORRECTION: Correction[AuruxxxTable, RoundForm] = Correction(
    rules=AURUXXX,
    event="correct_round",
    position="round",
    template="auruxxx/correct.html",
    changed_meanwhile=lambda: gettext(
        "Someone else changed this round meanwhile. What you entered is still in the form; "
        "compare it with how the round stands now and save again."
    ),
    stored=_stored_round,
    read_form=_read_round_form,
    offers=_round_offers,
    endpoint="auruxxx.correct",
    fix_text=lambda number: gettext("Correct round %(n)s with it", n=number),
    prefilled=_prefilled_round,
)
"""A finished round corrected as a whole: who ended it, with how many Golden 12, the figure, crosses and hands."""
