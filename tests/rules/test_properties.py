"""Property tests: invariants of the scoring rules that hold for every legal record."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import history, record
from rules.auruxxx import score as auruxxx
from rules.problems import Illegal
from rules.twelve_days import score as twelve_days
from rules.twelve_days.history import TwelveDaysTable
from tests.rules.auruxxx_strategies import auruxxx_histories, auruxxx_records
from tests.rules.strategies import Record, players, records
from tests.rules.twelve_days_strategies import complete_twelve_days_records, twelve_days_histories, twelve_days_records

DAY_POINTS = {"standard": 78, "8nights": 36, "8players": 78}
"""Points of all day cards together, per variant, as the rulebook states them."""


def _result(raw: Record) -> dict[str, Any]:
    """Return the result object the rules compute for a record."""
    result: dict[str, Any] = record.scored(record.parse(raw))["result"]
    return result


def _renamed(raw: Record, names: Mapping[str, str], seating: Sequence[str]) -> Record:
    """Return the record with every player renamed and the seats in the given order."""
    out = copy.deepcopy(raw)

    def keys(mapping: Mapping[str, Any]) -> dict[str, Any]:
        return {names[player]: value for player, value in mapping.items()}

    def ref(player: str | None) -> str | None:
        return None if player is None else names[player]

    out["players"] = [names[player] for player in seating]
    for round_ in out.get("rounds", []):
        round_["finisher"] = names[round_["finisher"]]
        round_["happy_man"] = ref(round_["happy_man"])
        for part in ("passes", "hands"):
            if part in round_:
                round_[part] = keys(round_[part])
    for day in out.get("days", []):
        if "taken_by" in day:
            day["taken_by"] = ref(day["taken_by"])
        else:
            day["played"] = keys(day["played"])
            if "gift_to" in day:
                day["gift_to"] = ref(day["gift_to"])
    if "hands" in out:
        out["hands"] = keys(out["hands"])
    return out


@settings(max_examples=150, deadline=None)
@given(records())
def test_every_generated_record_is_legal(raw: Record) -> None:
    """Every record the strategies build passes ``record.parse``."""
    record.parse(raw)


@settings(max_examples=40, deadline=None)
@given(complete_twelve_days_records())
def test_complete_twelve_days_record_is_complete(raw: Record) -> None:
    """A record with every day and every hand scores as a finished game."""
    assert _result(raw)["complete"] is True


@settings(max_examples=100, deadline=None)
@given(auruxxx_records())
def test_auruxxx_total_is_the_sum_of_the_round_scores(raw: Record) -> None:
    """An AURUXXX total is the sum of that player's round scores."""
    result = _result(raw)
    for player in raw["players"]:
        assert result["totals"][player] == sum(r[player] for r in result["rounds"])


@settings(max_examples=100, deadline=None)
@given(twelve_days_records())
def test_twelve_days_total_is_the_sum_of_the_day_scores_and_the_bonus(raw: Record) -> None:
    """A 12 Days total is the points received day by day plus the hand bonus."""
    result = _result(raw)
    for player in raw["players"]:
        assert result["day_points"][player] == sum(r[player] for r in result["rounds"])
        assert result["totals"][player] == result["day_points"][player] + result["bonus"][player]


@st.composite
def _renamings(draw: st.DrawFn) -> tuple[Record, dict[str, str], list[str]]:
    """Return a record, a renaming of its players to other unique names and a new seating."""
    raw = draw(records())
    old = raw["players"]
    new = draw(players(len(old), len(old)))
    return raw, dict(zip(old, new)), draw(st.permutations(old))


@settings(max_examples=150, deadline=None)
@given(_renamings())
def test_renaming_or_reseating_changes_nobodys_points(case: tuple[Record, dict[str, str], list[str]]) -> None:
    """Renaming the players and changing the seats moves every total and win with its player."""
    raw, names, seating = case
    before = _result(raw)
    after = _result(_renamed(raw, names, seating))
    assert after["totals"] == {names[p]: total for p, total in before["totals"].items()}
    assert set(after["winners"]) == {names[p] for p in before["winners"]}


@settings(max_examples=100, deadline=None)
@given(auruxxx_records(min_rounds=1))
def test_halving_never_raises_a_round_score(raw: Record) -> None:
    """Holding the Happy-Man figure never scores more than the same round without it."""
    game = record.parse(raw)
    assert isinstance(game, auruxxx.Game)
    for halving in auruxxx.Halving:
        for rounding in auruxxx.Rounding:
            rules = replace(game.house_rules, halving=halving, rounding=rounding)
            for round_ in game.rounds:
                for player in game.players:
                    held = auruxxx.score_player(replace(round_, happy_man=player), player, rules).points
                    for elsewhere in [None, *(p for p in game.players if p != player)]:
                        without = auruxxx.score_player(replace(round_, happy_man=elsewhere), player, rules).points
                        assert held <= without


ALL_HOUSE_RULES = [
    auruxxx.HouseRules(golden12_in_hand=golden12, two_in_hand=two, halving=halving, rounding=rounding)
    for golden12 in auruxxx.GOLDEN12_IN_HAND_CHOICES
    for two in auruxxx.TWO_IN_HAND_CHOICES
    for halving in auruxxx.Halving
    for rounding in auruxxx.Rounding
]
"""Every combination of house rules a table can choose."""


@settings(max_examples=100, deadline=None)
@given(auruxxx_records(min_rounds=1))
def test_one_more_pass_cross_never_lowers_a_round_score(raw: Record) -> None:
    """Under every house rule, with or without the figure, a player's extra cross never scores less."""
    game = record.parse(raw)
    assert isinstance(game, auruxxx.Game)
    for rules in ALL_HOUSE_RULES:
        for round_ in game.rounds:
            for player in game.players:
                if round_.passes_of(player) == auruxxx.MAX_PASSES:
                    continue
                for holder in {round_.happy_man, player}:
                    before = replace(round_, happy_man=holder)
                    after = replace(before, passes={**before.passes, player: before.passes_of(player) + 1})
                    more, fewer = (auruxxx.score_player(r, player, rules).points for r in (after, before))
                    assert more >= fewer


@settings(max_examples=60, deadline=None)
@given(complete_twelve_days_records())
def test_day_points_handed_out_and_lost_make_all_day_cards(raw: Record) -> None:
    """In a finished 12 Days game the day points handed out plus those lost are 78 (36 in 8 Nights)."""
    result = _result(raw)
    variant = raw.get("variant", "standard")
    assert sum(result["day_points"].values()) + result["lost"] == DAY_POINTS[variant]


@settings(max_examples=100, deadline=None)
@given(twelve_days_records())
def test_every_day_card_so_far_is_handed_out_waiting_or_lost(raw: Record) -> None:
    """After any number of days, handed out + pot + lost is the sum of the day numbers so far."""
    game = record.parse(raw)
    assert isinstance(game, twelve_days.Game)
    for count in range(len(game.days) + 1):
        result = twelve_days.score_game(replace(game, days=game.days[:count]))
        assert sum(result.day_points.values()) + sum(result.pot) + result.lost == sum(range(1, count + 1))


@settings(max_examples=150, deadline=None)
@given(records())
def test_export_and_reimport_change_nothing(raw: Record) -> None:
    """A scored record written as JSON and read back scores to exactly the same record."""
    exported = record.scored(record.parse(raw))
    assert record.scored(record.parse(json.loads(json.dumps(exported)))) == exported
    assert record.scored(record.loads(record.dumps(exported))) == exported


@settings(max_examples=100, deadline=None)
@given(records())
def test_normalising_is_idempotent(raw: Record) -> None:
    """Normalising a normalised record changes nothing."""
    normal = record.serialise(record.parse(raw))
    assert record.serialise(record.parse(normal)) == normal


@settings(max_examples=100, deadline=None)
@given(auruxxx_records())
def test_auruxxx_winners_have_the_lowest_total(raw: Record) -> None:
    """AURUXXX winners are exactly the players with the lowest total, and there is at least one."""
    result = _result(raw)
    lowest = min(result["totals"].values())
    assert result["winners"]
    assert set(result["winners"]) == {p for p, total in result["totals"].items() if total == lowest}


@settings(max_examples=100, deadline=None)
@given(twelve_days_records())
def test_twelve_days_winners_have_the_highest_total(raw: Record) -> None:
    """12 Days winners are exactly the players with the highest total, and there is at least one."""
    result = _result(raw)
    highest = max(result["totals"].values())
    assert result["winners"]
    assert set(result["winners"]) == {p for p, total in result["totals"].items() if total == highest}


@settings(max_examples=100, deadline=None)
@given(auruxxx_histories())
def test_auruxxx_history_folds_to_the_record(case: tuple[Record, Record, list[history.TableEvent]]) -> None:
    """Replaying an AURUXXX record as pass/happy_man/finish/hand events gives the same scored record."""
    raw, setup, events = case
    table = history.fold(setup, events)
    assert record.scored(table.game) == record.scored(record.parse(raw))


@settings(max_examples=100, deadline=None)
@given(twelve_days_histories())
def test_twelve_days_history_folds_to_the_record(case: tuple[Record, Record, list[history.TableEvent]]) -> None:
    """Replaying a 12 Days record as card/gift/taken/hand events gives the same scored record."""
    raw, setup, events = case
    table = history.fold(setup, events)
    assert record.scored(table.game) == record.scored(record.parse(raw))


@settings(max_examples=100, deadline=None)
@given(st.one_of(auruxxx_histories(min_rounds=1), twelve_days_histories(min_days=1)))
def test_undoing_the_last_event_is_folding_without_it(case: tuple[Record, Record, list[history.TableEvent]]) -> None:
    """Appending an undo of the last event folds to the same table as leaving that event out."""
    _, setup, events = case
    undo = history.TableEvent(events[-1].seq + 1, history.UNDO, {"event": events[-1].seq})
    assert history.fold(setup, [*events, undo]) == history.fold(setup, events[:-1])


@settings(max_examples=50, deadline=None)
@given(auruxxx_records(min_rounds=1), st.data())
def test_a_fourth_pass_is_refused(raw: Record, data: st.DataObject) -> None:
    """Setting a player's crosses in a round to 4 makes the record illegal, naming the place."""
    index = data.draw(st.integers(0, len(raw["rounds"]) - 1))
    player = data.draw(st.sampled_from(raw["players"]))
    mutated = copy.deepcopy(raw)
    mutated["rounds"][index].setdefault("passes", {})[player] = 4
    with pytest.raises(Illegal) as refused:
        record.parse(mutated)
    assert f"rounds[{index}].passes.{player}: at most 3 passes per round (got 4)" in str(refused.value)


@settings(max_examples=150, deadline=None)
@given(st.one_of(auruxxx_histories(), twelve_days_histories()), st.data())
def test_a_running_game_exported_at_any_moment_imports_to_the_same_sheet(
    case: tuple[Record, Record, list[history.TableEvent]], data: st.DataObject
) -> None:
    """Tapped up to any moment, exported (the round or day being played included) and imported: the same table.

    The import is what the app stores: the finished part as one import, then the open
    round or day tap by tap. Final 12 Days hands travel only once every player's is in.
    """
    _, setup, events = case
    table = history.fold(setup, events[: data.draw(st.integers(0, len(events)), label="moment")])
    exported = record.dumps(record.scored(table.game))
    imported = record.loads(exported)
    written = record.serialise(imported)
    restored_setup = {key: written[key] for key in ("game", "players", "house_rules", "variant") if key in written}
    changes = history.import_changes(imported)
    replayed = [history.TableEvent(seq, kind, payload) for seq, (kind, payload) in enumerate(changes, start=1)]
    restored = history.fold(restored_setup, replayed)
    assert record.dumps(record.scored(restored.game)) == exported
    assert restored.current == table.current
    if isinstance(table, TwelveDaysTable):
        assert isinstance(restored, TwelveDaysTable)
        assert restored.hands == (table.hands if table.game.hands is not None else {})
