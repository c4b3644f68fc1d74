"""Hypothesis strategies that build only legal game records, as decoded JSON, for property tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from rules import auruxxx, record, twelve_days
from rules.history import TableEvent

Record = dict[str, Any]
"""A decoded game record (the record format's JSON)."""

_LETTERS = "ABDEFJKLMNOPSTUZÄÖÜabdeijklmnoprstuäöüßéçñ"
_SPECIAL_NAMES = (
    "santa", "mrs_claus", "Mrs. Claus", "null", "Anna Lena", "Jürgen", "Ölaf Ärger", "Zoë", "X" * 40,
    "\U0001f468\u200d\U0001f373", "Jean\u00a0Luc", "\u0645\u0647\u0631\u200c\u0646\u0627\u0632",
)
"""Names that look like record keywords, long names, and names with joiners and a no-break space."""

names: st.SearchStrategy[str] = st.one_of(
    st.sampled_from(_SPECIAL_NAMES),
    st.builds(str.__add__, st.sampled_from(_LETTERS), st.text(_LETTERS + " -'.\u00a0", max_size=16)).map(str.rstrip),
)
"""A legal player name: 1–40 characters, no space at either end, with umlauts, spaces and joiners."""


def _unique(drawn: list[str]) -> list[str]:
    """Return the names with each repeat (what the rules count as the same name) made unique by a seat mark."""
    seen: list[str] = []
    for seat, name in enumerate(drawn):
        seen.append(name if record.same_name_as(name, seen) is None else f"{name[:36]} #{seat}")
    return seen


def players(low: int, high: int) -> st.SearchStrategy[list[str]]:
    """Return a strategy for low to high unique player names in seating order."""
    return st.lists(names, min_size=low, max_size=high).map(_unique)


# --- AURUXXX -----------------------------------------------------------------------------

_AURUXXX_KINDS: tuple[str | int, ...] = (*auruxxx.NUMBER_VALUES, "fifty", "happy_man", "golden12", "action", "two")


def _auruxxx_pool(kinds: Sequence[str | int], golden12_left: int, actions: int) -> list[str | int]:
    """Return every copy the deck has of the chosen kinds of card (Golden 12 only those not laid)."""
    copies: dict[str | int, int] = {number: auruxxx.NUMBER_COPIES for number in auruxxx.NUMBER_VALUES}
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
def _auruxxx_round(
    draw: st.DrawFn, seats: Sequence[str], holder: str | None, house_rules: auruxxx.HouseRules
) -> Record:
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
    house_rules = auruxxx.HouseRules(
        golden12_in_hand=rules.get("golden12_in_hand", 12), two_in_hand=rules.get("two_in_hand", 2)
    )
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


# --- 12 Days -----------------------------------------------------------------------------


def _deck(variant: twelve_days.Variant) -> list[twelve_days.Card]:
    """Return every gift card of a variant, each copy once."""
    return [card for card in variant.cards for _ in range(variant.copies(card))]


@st.composite
def _played_day(draw: st.DrawFn, seats: Sequence[str], variant: twelve_days.Variant) -> Record:
    """Return a day with revealed cards within the deck, and a gift exactly when a Claus wins."""
    left = Counter({card: variant.copies(card) for card in variant.cards})
    played: dict[str, twelve_days.Card] = {}
    for player in seats:
        card = draw(st.sampled_from([c for c in variant.cards if left[c] > 0]))
        left[card] -= 1
        played[player] = card
    order = draw(st.permutations(seats))
    day: Record = {"played": {player: played[player] for player in order}}
    decision = twelve_days.reveal(played)
    if decision.claus_win:
        day["gift_to"] = draw(st.sampled_from([p for p in seats if p != decision.winner]))
    elif draw(st.booleans()):
        day["gift_to"] = None
    return day


@st.composite
def _final_hands(draw: st.DrawFn, seats: Sequence[str], variant: twelve_days.Variant) -> Record:
    """Return every player's final hand, dealt from one shuffled deck."""
    size = variant.hand_size
    dealt = draw(st.randoms(use_true_random=False)).sample(_deck(variant), len(seats) * size)
    return {player: dealt[i * size : (i + 1) * size] for i, player in enumerate(seats)}


@st.composite
def _twelve_days_record(draw: st.DrawFn, variant: str | None, complete: bool, min_days: int) -> Record:
    """Return a legal 12 Days record with at least min_days days; complete ones have every day and hand."""
    name = variant if variant is not None else draw(st.sampled_from(tuple(twelve_days.VARIANTS)))
    rules = twelve_days.find_variant(name)
    seats = draw(players(rules.min_players, rules.max_players))
    record: Record = {"game": "12days", "players": seats}
    if name != twelve_days.STANDARD.name or draw(st.booleans()):
        record["variant"] = name
    taken = st.fixed_dictionaries({"taken_by": st.sampled_from([None, *seats])})
    day = st.one_of(_played_day(seats, rules), taken)
    count = rules.days if complete else draw(st.integers(min_days, rules.days))
    days = [draw(day) for _ in range(count)]
    if days or complete or draw(st.booleans()):
        record["days"] = days
    if complete or draw(st.booleans()):
        record["hands"] = draw(_final_hands(seats, rules))
    return record


def twelve_days_records(variant: str | None = None, min_days: int = 0) -> st.SearchStrategy[Record]:
    """Return a strategy for legal 12 Days records of a variant (any when None), hands optional."""
    return _twelve_days_record(variant, complete=False, min_days=min_days)


def complete_twelve_days_records(variant: str | None = None) -> st.SearchStrategy[Record]:
    """Return a strategy for legal finished 12 Days records: every day and every final hand."""
    return _twelve_days_record(variant, complete=True, min_days=0)


def records() -> st.SearchStrategy[Record]:
    """Return a strategy for any legal record of either game."""
    return st.one_of(auruxxx_records(), twelve_days_records(), complete_twelve_days_records())


# --- Event histories ---------------------------------------------------------------------


def _numbered(events: Sequence[tuple[str, Record]]) -> list[TableEvent]:
    """Return events numbered 1, 2, … in the order given."""
    return [TableEvent(seq, kind, payload) for seq, (kind, payload) in enumerate(events, start=1)]


@st.composite
def auruxxx_histories(draw: st.DrawFn, min_rounds: int = 0) -> tuple[Record, Record, list[TableEvent]]:
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
        after = [
            ("hand", {"round": index, "player": p, "hand": hands.get(p, {})}) for p in raw["players"] if p != finisher
        ]
        finish = ("finish", {"round": index, "player": finisher, "golden12": round_["golden12"]})
        events += [*draw(st.permutations(before)), finish, *draw(st.permutations(after))]
    return raw, setup, _numbered(events)


@st.composite
def twelve_days_histories(draw: st.DrawFn, min_days: int = 0) -> tuple[Record, Record, list[TableEvent]]:
    """Return a legal 12 Days record, its setup, and card/gift/taken/hand events that replay it."""
    raw = draw(st.one_of(twelve_days_records(min_days=min_days), complete_twelve_days_records()))
    setup: Record = {key: raw[key] for key in ("game", "players", "variant") if key in raw}
    events: list[tuple[str, Record]] = []
    for index, day in enumerate(raw.get("days", [])):
        if "taken_by" in day:
            events.append(("taken", {"day": index, "player": day["taken_by"]}))
            continue
        order = draw(st.permutations(list(day["played"])))
        events += [("card", {"day": index, "player": p, "card": day["played"][p]}) for p in order]
        if day.get("gift_to") is not None:
            events.append(("gift", {"day": index, "player": day["gift_to"]}))
    if "hands" in raw:
        order = draw(st.permutations(raw["players"]))
        events += [("hand", {"player": p, "cards": raw["hands"][p]}) for p in order]
    return raw, setup, _numbered(events)
