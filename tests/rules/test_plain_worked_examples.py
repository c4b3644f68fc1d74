"""The plain sheet's rules (rules/plain.md): its worked examples, each through a game record, and the rules they prove."""

from __future__ import annotations

from typing import Any

import pytest

from rules import record
from rules.games import TableEvent
from rules.history import fold, import_changes
from rules.problems import Illegal

PLAYERS = ["Anna", "Ben", "Cleo"]


def plain(rounds: list[dict[str, int]], **extra: Any) -> dict[str, Any]:
    """Return a plain record of Anna, Ben and Cleo with these rounds."""
    return {"game": "plain", "name": "Wizard", "players": PLAYERS, "rounds": [{"points": points} for points in rounds], **extra}


def result_of(raw: dict[str, Any]) -> dict[str, Any]:
    """Return the scored result of a plain record."""
    scored: dict[str, Any] = record.scored(record.parse(raw))["result"]
    return scored


def refusals(raw: Any) -> list[str]:
    """Return every problem a record is refused with."""
    with pytest.raises(Illegal) as refused:
        record.loads(raw if isinstance(raw, str) else record.dumps(raw))
    return [str(found) for found in refused.value.problems]


def test_example_1_highest_wins_and_a_tie_shares_the_win() -> None:
    """Anna 20, 0, 15 → 35; Ben −10, 40, 5 → 35; Cleo 30, −20, 10 → 20: Anna and Ben win."""
    rounds = [{"Anna": 20, "Ben": -10, "Cleo": 30}, {"Anna": 0, "Ben": 40, "Cleo": -20}, {"Anna": 15, "Ben": 5, "Cleo": 10}]
    result = result_of(plain(rounds, end={"rounds": 3}))
    assert result["totals"] == {"Anna": 35, "Ben": 35, "Cleo": 20}
    assert result["winners"] == ["Anna", "Ben"]
    assert result["complete"] is True
    assert result["rounds"] == rounds


def test_example_2_under_lowest_the_target_ends_the_game_and_the_lowest_total_wins() -> None:
    """Round 4 brings Ben to 104: the game ends after round 4, Cleo (lowest) wins, and a 5th round is refused."""
    rounds = [{"Anna": 10, "Ben": 30, "Cleo": 5}] * 3 + [{"Anna": 20, "Ben": 14, "Cleo": 5}]
    result = result_of(plain(rounds, wins="lowest", end={"target": 100}))
    assert result["totals"] == {"Anna": 50, "Ben": 104, "Cleo": 20}
    assert result["complete"] is True and result["winners"] == ["Cleo"]
    fifth = plain([*rounds, {"Anna": 1, "Ben": 1, "Cleo": 1}], wins="lowest", end={"target": 100})
    assert refusals(fifth) == ["rounds[4]: the game ended after round 4, when a total reached 100; no round follows"]


def test_example_3_an_open_ended_game_is_complete_once_finished_and_finished_is_refused_with_an_end_rule() -> None:
    """Open-ended with 2 rounds and ``finished: true`` is complete; ``finished`` beside ``end.rounds`` is refused."""
    rounds = [{"Anna": 1, "Ben": 2, "Cleo": 3}, {"Anna": 4, "Ben": 5, "Cleo": 6}]
    assert result_of(plain(rounds))["complete"] is False
    finished = result_of(plain(rounds, finished=True))
    assert finished["complete"] is True and finished["winners"] == ["Cleo"]
    assert refusals(plain(rounds, finished=True, end={"rounds": 5})) == [
        "finished: a game with an end rule is finished by that rule, not by this key"
    ]


def test_example_4_a_round_naming_a_player_twice_leaving_one_out_or_too_large_a_number_is_refused_at_its_place() -> None:
    """Each problem names the round and the player: ``rounds[1].points.Cleo: …``."""
    twice = '{"game": "plain", "name": "W", "players": ["Anna", "Ben", "Cleo"], "rounds": [{"points": {"Anna": 1, "Ben": 1, "Cleo": 1}}, {"points": {"Anna": 1, "Ben": 1, "Cleo": 2, "Cleo": 3}}]}'
    assert refusals(twice) == ["rounds[1].points.Cleo: is given twice in one object"]
    left_out = plain([{"Anna": 1, "Ben": 1, "Cleo": 1}, {"Anna": 1, "Ben": 1}])
    assert refusals(left_out) == ["rounds[1].points.Cleo: is missing: every player has a number in a closed round"]
    too_large = plain([{"Anna": 1, "Ben": 1, "Cleo": 1}, {"Anna": 1, "Ben": 1, "Cleo": 100_001}])
    assert refusals(too_large) == ["rounds[1].points.Cleo: a round's points are a whole number from -100000 to 100000 (got 100001)"]


@pytest.mark.parametrize("points", [-100_000, 0, 100_000])
def test_points_may_be_negative_down_to_minus_100000_and_up_to_100000(points: int) -> None:
    assert result_of(plain([{"Anna": points, "Ben": 0, "Cleo": 0}]))["totals"]["Anna"] == points


@pytest.mark.parametrize("points", [-100_001, 1.5, "7", True, None])
def test_a_round_holds_whole_numbers_only(points: Any) -> None:
    assert refusals(plain([{"Anna": points, "Ben": 0, "Cleo": 0}]))[0].startswith(
        "rounds[0].points.Anna: a round's points are a whole number"
    )


def test_a_game_with_a_number_of_rounds_ends_after_them_and_refuses_one_more() -> None:
    rounds = [{"Anna": 1, "Ben": 2, "Cleo": 3}] * 2
    assert result_of(plain(rounds, end={"rounds": 2}))["complete"] is True
    assert result_of(plain(rounds[:1], end={"rounds": 2}))["complete"] is False
    assert refusals(plain([*rounds, rounds[0]], end={"rounds": 2})) == ["rounds[2]: the game ends after 2 rounds; no round follows"]


def test_who_wins_defaults_to_the_highest_total_and_leaders_are_named_while_the_game_runs() -> None:
    result = result_of(plain([{"Anna": 5, "Ben": 9, "Cleo": 9}]))
    assert result["winners"] == ["Ben", "Cleo"] and result["complete"] is False
    assert record.serialise(record.parse(plain([])))["wins"] == "highest"


@pytest.mark.parametrize(
    ("setup", "expected"),
    [
        ({"name": ""}, "name: the game's name cannot be empty"),
        ({"name": "W" * 61}, "name: the game's name has at most 60 characters (got 61)"),
        ({"name": " Wizard"}, "name: the game's name cannot begin or end with a space"),
        ({"name": "\u200b"}, "name: the game's name needs at least one visible character"),
        ({"wins": "most"}, 'wins: must be one of "highest", "lowest" (got "most")'),
        ({"end": {"rounds": 0}}, "end.rounds: must be from 1 to 99 (got 0)"),
        ({"end": {"target": 100_001}}, "end.target: must be from 1 to 100000 (got 100001)"),
        ({"end": {"rounds": 3, "target": 50}}, 'end: an end rule names either "rounds" or "target", one of them'),
        ({"end": {"laps": 3}}, 'end: unknown key "laps"'),
        ({"players": []}, "players: a plain sheet has 1 to 12 players (got 0)"),
        ({"players": [f"P{n}" for n in range(13)]}, "players: a plain sheet has 1 to 12 players (got 13)"),
        ({"colour": "red"}, 'record: unknown key "colour"'),
    ],
)
def test_the_setup_is_refused_naming_the_key(setup: dict[str, Any], expected: str) -> None:
    """The name (1–60 characters, as a player's name), who wins, the end rule and 1–12 players."""
    assert expected in refusals({**plain([]), **setup})


def test_the_name_of_the_game_takes_60_characters_and_emoji() -> None:
    assert record.parse({**plain([]), "name": "🃏" + "W" * 59}).name.startswith("🃏")


def test_one_player_may_keep_a_plain_sheet() -> None:
    assert result_of({**plain([]), "players": ["Anna"], "rounds": [{"points": {"Anna": -3}}]})["winners"] == ["Anna"]


def test_an_open_round_carries_the_numbers_entered_so_far_and_is_refused_once_the_game_is_over() -> None:
    game = record.parse(plain([], open_round={"points": {"Anna": 20}}))
    assert record.serialise(game)["open_round"] == {"points": {"Anna": 20}}
    assert result_of(plain([], open_round={"points": {"Anna": 20}}))["totals"] == {"Anna": 0, "Ben": 0, "Cleo": 0}
    over = plain([{"Anna": 1, "Ben": 1, "Cleo": 1}], end={"rounds": 1}, open_round={"points": {"Anna": 2}})
    assert refusals(over) == ["open_round: the game is over, so no round is being played"]
    full = plain([], open_round={"points": {"Anna": 1, "Ben": 1, "Cleo": 1}})
    assert refusals(full) == ["open_round.points: every player has a number here, so this round is closed and belongs in rounds"]


def test_a_finished_game_has_at_least_one_round() -> None:
    assert refusals(plain([], finished=True)) == ["finished: a game is finished after at least one round"]


def test_more_than_99_rounds_are_refused() -> None:
    assert refusals(plain([{"Anna": 0, "Ben": 0, "Cleo": 0}] * 100)) == ["rounds: a plain sheet holds at most 99 rounds (got 100)"]


def test_the_game_is_named_by_the_name_the_table_gave_it() -> None:
    game = record.parse(plain([]))
    assert record.rules_of(game).name(game) == "Wizard"


# --- The history: taps, finishing, undo, corrections --------------------------------------------


SETUP: dict[str, Any] = {"game": "plain", "name": "Wizard", "players": PLAYERS, "wins": "highest"}


def events(*taps: tuple[str, dict[str, Any]]) -> list[TableEvent]:
    """Return taps as stored events, numbered from 1."""
    return [TableEvent(seq, kind, payload) for seq, (kind, payload) in enumerate(taps, start=1)]


def hand(round_: int, player: str, points: int) -> tuple[str, dict[str, Any]]:
    return "hand", {"round": round_, "player": player, "points": points}


def test_a_round_closes_when_every_player_has_a_number_and_a_number_can_be_changed_until_then() -> None:
    table = fold(SETUP, events(hand(0, "Anna", 5), hand(0, "Anna", -7), hand(0, "Ben", 3)))
    assert table.game.rounds == () and dict(table.game.open_round) == {"Anna": -7, "Ben": 3}
    closed = fold(SETUP, events(hand(0, "Anna", -7), hand(0, "Ben", 3), hand(0, "Cleo", 0)))
    assert closed.game.rounds == ({"Anna": -7, "Ben": 3, "Cleo": 0},) and not closed.game.open_round


def test_a_number_for_a_closed_round_is_refused_and_points_to_the_round_being_played() -> None:
    taps = [hand(0, name, 1) for name in PLAYERS]
    with pytest.raises(Illegal, match=r"round 1 is closed; round 2 is being played"):
        fold(SETUP, events(*taps, hand(0, "Anna", 2)))


def test_an_open_ended_game_is_finished_by_a_tap_and_undo_reopens_it() -> None:
    taps = [*(hand(0, name, n) for n, name in enumerate(PLAYERS)), ("finish", {"round": 1})]
    finished = fold(SETUP, events(*taps))
    assert record.scored(finished.game)["result"]["complete"] is True
    with pytest.raises(Illegal, match="the game is over after 1 rounds"):
        fold(SETUP, events(*taps, hand(1, "Anna", 1)))
    reopened = fold(SETUP, events(*taps, ("undo", {"event": 4})))
    assert record.scored(reopened.game)["result"]["complete"] is False


def test_finishing_is_refused_with_an_end_rule_before_any_round_or_with_a_round_half_entered() -> None:
    with pytest.raises(Illegal, match="ends by its own rule"):
        fold({**SETUP, "end": {"rounds": 3}}, events(*(hand(0, name, 1) for name in PLAYERS), ("finish", {"round": 1})))
    with pytest.raises(Illegal, match="at least one round"):
        fold(SETUP, events(("finish", {"round": 0})))
    with pytest.raises(Illegal, match="round 2 is half entered"):
        fold(SETUP, events(*(hand(0, name, 1) for name in PLAYERS), hand(1, "Anna", 1), ("finish", {"round": 1})))


def test_a_correction_replaces_a_closed_round_and_is_refused_when_the_target_then_ended_the_game_earlier() -> None:
    setup = {**SETUP, "end": {"target": 50}}
    taps = [hand(index, name, 20) for index in range(2) for name in PLAYERS]
    corrected = fold(setup, events(*taps, ("correct_round", {"round": 0, "record": {"points": {"Anna": 1, "Ben": 2, "Cleo": -3}}})))
    assert corrected.game.rounds[0] == {"Anna": 1, "Ben": 2, "Cleo": -3}
    with pytest.raises(Illegal, match=r"rounds\[1\]: the game ended after round 1, when a total reached 50"):
        fold(setup, events(*taps, ("correct_round", {"round": 0, "record": {"points": {"Anna": 60, "Ben": 0, "Cleo": 0}}})))
    with pytest.raises(Illegal, match=r"rounds\[0\].points.Cleo: is missing"):
        fold(setup, events(*taps, ("correct_round", {"round": 0, "record": {"points": {"Anna": 1, "Ben": 2}}})))


def test_an_export_in_the_middle_of_a_round_imports_as_its_taps_so_each_can_be_undone() -> None:
    game = record.parse(plain([{"Anna": 1, "Ben": 2, "Cleo": 3}], open_round={"points": {"Ben": -4}}, finished=False))
    changes = import_changes(game)
    assert [kind for kind, _ in changes] == ["import", "hand"]
    assert changes[1][1] == {"round": 1, "player": "Ben", "points": -4}
    finished = record.parse(plain([{"Anna": 1, "Ben": 2, "Cleo": 3}], finished=True))
    assert [kind for kind, _ in import_changes(finished)] == ["import", "finish"]
