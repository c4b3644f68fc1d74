"""Hypothesis strategies for 12 Days (all variants): legal records and event histories that replay them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from hypothesis import strategies as st

from rules.twelve_days import score as twelve_days
from tests.rules.strategies import GameStrategies, History, Record, numbered, players, register


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


@st.composite
def twelve_days_histories(draw: st.DrawFn, min_days: int = 0) -> History:
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
    return raw, setup, numbered(events)


def any_twelve_days_records() -> st.SearchStrategy[Record]:
    """Return a strategy for any legal 12 Days record, with or without the final hands."""
    return st.one_of(twelve_days_records(), complete_twelve_days_records())


register("12days", GameStrategies(records=any_twelve_days_records, histories=twelve_days_histories))
