"""Hypothesis strategies for AURUXXX: legal records (house rules, rounds, hands) and event histories that replay them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from rules.auruxxx import score as auruxxx
from tests.rules.strategies import GameStrategies, History, Record, numbered, players, register

_AURUXXX_KINDS: tuple[str | int, ...] = (*auruxxx.NUMBER_VALUES, "fifty", "happy_man", "golden12", "action", "two")


def _auruxxx_pool(kinds: Sequence[str | int], golden12_left: int, actions: int) -> list[str | int]:
    """Return every copy the deck has of the chosen kinds of card (Golden 12 only those not laid)."""
    copies: dict[str | int, int] = dict.fromkeys(auruxxx.NUMBER_VALUES, auruxxx.NUMBER_COPIES)
    copies |= {
        "fifty": auruxxx.FIFTY_IN_DECK,
        "happy_man": auruxxx.HAPPY_MAN_CARDS_IN_DECK,
        "golden12": golden12_left,
        "action": actions,
        "two": auruxxx.ACTION_AND_TWO_IN_DECK - actions,
    }
    return [kind for kind in kinds for _ in range(copies[kind])]


def _auruxxx_cards(cards: Sequence[str | int], verbose: bool) -> Record:
    """Return a record hand for dealt cards; ``verbose`` writes zero counts too."""
    counts = Counter(card for card in cards if isinstance(card, str))
    hand: Record = {"numbers": [card for card in cards if isinstance(card, int)]}
    for key in ("fifty", "action", "happy_man", "two", "golden12"):
        if verbose or counts[key]:
            hand[key] = counts[key]
    return hand


@st.composite
def _auruxxx_house_rules(draw: st.DrawFn) -> Record:
    """Return house rules with any of the keys left out (they take the defaults)."""
    choices: dict[str, tuple[Any, ...]] = {
        "golden12_in_hand": auruxxx.GOLDEN12_IN_HAND_CHOICES,
        "two_in_hand": auruxxx.TWO_IN_HAND_CHOICES,
        "halving": tuple(h.value for h in auruxxx.Halving),
        "rounding": tuple(r.value for r in auruxxx.Rounding),
    }
    return {key: draw(st.sampled_from(values)) for key, values in choices.items() if draw(st.booleans())}


@st.composite
def _auruxxx_round(draw: st.DrawFn, seats: Sequence[str], holder: str | None, house_rules: auruxxx.HouseRules) -> Record:
    """Return a legal round, given who held the Happy-Man figure before it."""
    finisher = draw(st.sampled_from(seats))
    golden12 = draw(st.integers(1, auruxxx.GOLDEN12_IN_DECK))
    happy_man = draw(st.sampled_from(list(seats) if holder is not None else [None, *seats]))
    round_: Record = {"finisher": finisher, "golden12": golden12, "happy_man": happy_man}
    passes = {p: draw(st.integers(0, auruxxx.MAX_PASSES)) for p in seats if draw(st.booleans())}
    if bool(passes) or draw(st.booleans()):
        round_["passes"] = passes
    others = [p for p in seats if p != finisher]
    forms = {p: draw(st.sampled_from(("left out", "cards", "points"))) for p in others}
    sizes = {p: draw(st.integers(0, 12)) for p in others if forms[p] == "cards"}
    kinds = draw(st.lists(st.sampled_from(_AURUXXX_KINDS), min_size=1, unique=True))
    pool = _auruxxx_pool(kinds, auruxxx.GOLDEN12_IN_DECK - golden12, draw(st.integers(0, auruxxx.ACTION_AND_TWO_IN_DECK)))
    dealt = draw(st.randoms(use_true_random=False)).sample(pool, min(len(pool), sum(sizes.values())))
    hands: Record = {}
    for player in others:
        if forms[player] == "cards":
            cards, dealt = dealt[: sizes[player]], dealt[sizes[player] :]
            hands[player] = _auruxxx_cards(cards, draw(st.booleans()))
        elif forms[player] == "points":
            hands[player] = {"points": draw(st.integers(0, auruxxx.max_hand_points(house_rules)))}
    if bool(hands) or draw(st.booleans()):
        round_["hands"] = hands
    return round_


@st.composite
def auruxxx_records(draw: st.DrawFn, min_rounds: int = 0) -> Record:
    """Return a legal AURUXXX record with 2–6 players and min_rounds to 3 finished rounds."""
    seats = draw(players(auruxxx.MIN_PLAYERS, auruxxx.MAX_PLAYERS))
    rules = draw(_auruxxx_house_rules())
    house_rules = auruxxx.HouseRules(golden12_in_hand=rules.get("golden12_in_hand", 12), two_in_hand=rules.get("two_in_hand", 2))
    record: Record = {"game": "auruxxx", "players": seats}
    if bool(rules) or draw(st.booleans()):
        record["house_rules"] = rules
    holder: str | None = None
    rounds = []
    for _ in range(draw(st.integers(min_rounds, auruxxx.ROUNDS))):
        round_ = draw(_auruxxx_round(seats, holder, house_rules))
        holder = round_["happy_man"] or holder
        rounds.append(round_)
    if bool(rounds) or draw(st.booleans()):
        record["rounds"] = rounds
    return record


@st.composite
def auruxxx_histories(draw: st.DrawFn, min_rounds: int = 0) -> History:
    """Return a legal AURUXXX record, its setup, and table events that replay it round by round."""
    raw = draw(auruxxx_records(min_rounds=min_rounds))
    setup: Record = {key: raw[key] for key in ("game", "players", "house_rules") if key in raw}
    events: list[tuple[str, Record]] = []
    holder: str | None = None
    for index, round_ in enumerate(raw.get("rounds", [])):
        passes = round_.get("passes", {})
        before = [("pass", {"round": index, "player": p}) for p, n in passes.items() for _ in range(n)]
        happy_man = round_["happy_man"]
        if happy_man is not None and (happy_man != holder or draw(st.booleans())):
            before.append(("happy_man", {"round": index, "player": happy_man}))
        holder = happy_man or holder
        finisher = round_["finisher"]
        hands = round_.get("hands", {})
        after = [("hand", {"round": index, "player": p, "hand": hands.get(p, {})}) for p in raw["players"] if p != finisher]
        finish = ("finish", {"round": index, "player": finisher, "golden12": round_["golden12"]})
        events += [*draw(st.permutations(before)), finish, *draw(st.permutations(after))]
    return raw, setup, numbered(events)


register("auruxxx", GameStrategies(records=auruxxx_records, histories=auruxxx_histories))
