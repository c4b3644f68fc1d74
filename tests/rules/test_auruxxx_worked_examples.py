"""The worked examples of the AURUXXX specification, each scored through a game record."""

from __future__ import annotations

from typing import Any

import pytest

from rules import record
from rules.problems import Illegal


def result_of(players: list[str], *rounds: dict[str, Any], **house_rules: Any) -> dict[str, Any]:
    """Return the scored result of an AURUXXX record."""
    raw = {"game": "auruxxx", "players": players, "house_rules": house_rules, "rounds": list(rounds)}
    scored: dict[str, Any] = record.scored(record.parse(raw))["result"]
    return scored


def refusals(players: list[str], *rounds: dict[str, Any]) -> list[str]:
    """Return the problems a record is refused with."""
    with pytest.raises(Illegal) as refused:
        record.parse({"game": "auruxxx", "players": players, "rounds": list(rounds)})
    return [str(p) for p in refused.value.problems]


def test_example_1_finisher_bonus_hands_and_crosses() -> None:
    """Finisher −5 per Golden 12; others count hand plus 5 per cross."""
    result = result_of(
        ["P1", "P2", "P3"],
        {
            "finisher": "P1",
            "golden12": 1,
            "happy_man": None,
            "passes": {"P2": 1},
            "hands": {"P2": {"numbers": [7, 0, 12]}, "P3": {"numbers": [3], "fifty": 1}},
        },
    )
    assert result["rounds"] == [{"P1": -5, "P2": 24, "P3": 53}]


def test_example_2_zero_cards_and_empty_hand_score_only_their_crosses() -> None:
    """A hand of zeros counts 0, an empty hand counts 0, and only the finisher gets the bonus."""
    result = result_of(
        ["P1", "P2", "P3"],
        {
            "finisher": "P1",
            "golden12": 1,
            "happy_man": None,
            "passes": {"P2": 2, "P3": 1},
            "hands": {"P2": {"numbers": [0, 0]}},
        },
    )
    assert result["rounds"][0]["P2"] == 10
    assert result["rounds"][0]["P3"] == 5


def test_example_3_happy_man_card_in_hand_scores_25_and_does_not_halve() -> None:
    """Only the figure halves; a Happy-Man card left in hand is 25 like an action card."""
    result = result_of(
        ["P1", "P2"],
        {
            "finisher": "P1",
            "golden12": 1,
            "happy_man": None,
            "hands": {"P2": {"numbers": [7], "fifty": 1, "action": 1, "happy_man": 1}},
        },
    )
    assert result["rounds"][0]["P2"] == 107


def test_example_4_three_crosses_are_the_limit() -> None:
    """Three crosses cost 15 for a hand and for the finisher; a fourth is refused."""
    result = result_of(
        ["P1", "P2"],
        {"finisher": "P2", "golden12": 1, "happy_man": None, "passes": {"P1": 3, "P2": 3}, "hands": {"P1": {"numbers": [4]}}},
    )
    assert result["rounds"][0] == {"P1": 19, "P2": 10}
    assert refusals(["P1", "P2"], {"finisher": "P2", "golden12": 1, "happy_man": None, "passes": {"P1": 4}}) == [
        "rounds[0].passes.P1: at most 3 passes per round (got 4)"
    ]


def test_example_5_several_golden_12_at_once() -> None:
    """Three Golden 12 laid together earn −15 against one cross."""
    result = result_of(["P1", "P2"], {"finisher": "P1", "golden12": 3, "happy_man": None, "passes": {"P1": 1}})
    assert result["rounds"][0]["P1"] == -10


def test_example_6_at_most_five_golden_12() -> None:
    """Five Golden 12 give −25; six, five with another in a hand, or none are refused."""
    assert result_of(["P1", "P2"], {"finisher": "P1", "golden12": 5, "happy_man": None})["rounds"][0]["P1"] == -25
    assert refusals(["P1", "P2"], {"finisher": "P1", "golden12": 6, "happy_man": None}) == [
        "rounds[0].golden12: the deck has only 5 Golden 12 (got 6)"
    ]
    five_and_one = refusals(["P1", "P2"], {"finisher": "P1", "golden12": 5, "happy_man": None, "hands": {"P2": {"golden12": 1}}})
    assert five_and_one == ["rounds[0].golden12: only 5 Golden 12 are in the deck, but the finisher's 5 and those in hands make 6"]
    assert refusals(["P1", "P2"], {"finisher": "P1", "golden12": 0, "happy_man": None}) == [
        "rounds[0].golden12: the finisher ends the round with 1 to 5 Golden 12 (got 0)"
    ]


def test_example_7_happy_man_halves_the_round() -> None:
    """The holder halves hand and crosses: 30 + 10 = 40 becomes 20."""
    result = result_of(
        ["P1", "P2"],
        {"finisher": "P1", "golden12": 1, "happy_man": "P2", "passes": {"P2": 2}, "hands": {"P2": {"numbers": [12, 11, 7]}}},
    )
    assert result["rounds"][0]["P2"] == 20


@pytest.mark.parametrize(("rounding", "points"), [("exact", 8.5), ("floor", 8), ("ceil", 9)])
def test_example_8_halving_an_odd_score_follows_the_rounding_rule(rounding: str, points: float) -> None:
    """17 halved is 8.5 exactly, 8 rounded down, 9 rounded up."""
    result = result_of(
        ["P1", "P2"],
        {"finisher": "P1", "golden12": 1, "happy_man": "P2", "hands": {"P2": {"numbers": [9, 8]}}},
        rounding=rounding,
    )
    assert result["rounds"][0]["P2"] == points
    assert type(result["rounds"][0]["P2"]) is type(points)


def test_example_9_nobody_halves_before_the_first_happy_man_card() -> None:
    """Without a holder nobody halves; once held, the figure never goes back to nobody."""
    result = result_of(["P1", "P2"], {"finisher": "P1", "golden12": 1, "happy_man": None, "hands": {"P2": {"points": 30}}})
    assert result["rounds"][0]["P2"] == 30
    back_to_nobody = refusals(
        ["P1", "P2"],
        {"finisher": "P1", "golden12": 1, "happy_man": "P2"},
        {"finisher": "P1", "golden12": 1, "happy_man": None},
    )
    assert back_to_nobody == ["rounds[1].happy_man: the Happy-Man figure never goes back to nobody (P2 holds it)"]


def test_example_10_equal_lowest_totals_share_the_win() -> None:
    """20 − 5 + 30 and −5 + 25 + 25 are both 45: both win. A seventh player is refused.

    Every round has a finisher, who scores at most 10, so the example's third round needs a
    third player to end it; the tie between the other two is what is tested.
    """
    result = result_of(
        ["P1", "P2", "P3"],
        {"finisher": "P2", "golden12": 1, "happy_man": None, "hands": {"P1": {"points": 20}, "P3": {"points": 50}}},
        {"finisher": "P1", "golden12": 1, "happy_man": None, "hands": {"P2": {"points": 25}, "P3": {"points": 50}}},
        {"finisher": "P3", "golden12": 1, "happy_man": None, "hands": {"P1": {"points": 30}, "P2": {"points": 25}}},
    )
    assert result["totals"] == {"P1": 45, "P2": 45, "P3": 95}
    assert result["winners"] == ["P1", "P2"]
    assert result["complete"] is True
    assert refusals([f"P{i}" for i in range(1, 8)]) == ["players: AURUXXX is played by 2 to 6 players (got 7)"]


@pytest.mark.parametrize("halving", ["net", "penalty"])
def test_halving_order_matters_only_for_a_finisher_holding_the_figure(halving: str) -> None:
    """Net halves (3 crosses − 1 Golden 12) = 10 to 5; penalty halves 15 to 7.5, then −5."""
    result = result_of(
        ["P1", "P2"],
        {"finisher": "P1", "golden12": 1, "happy_man": "P1", "passes": {"P1": 3}, "hands": {"P2": {"points": 24}}},
        halving=halving,
    )
    assert result["rounds"][0]["P1"] == {"net": 5, "penalty": 2.5}[halving]
    assert result["rounds"][0]["P2"] == 24


def test_in_the_net_order_a_sub_of_zero_or_less_is_never_halved() -> None:
    """Halving is a benefit: a finisher holding the figure with a negative sub keeps it whole."""
    result = result_of(
        ["P1", "P2"],
        {"finisher": "P1", "golden12": 5, "happy_man": "P1", "passes": {"P1": 1}},
        halving="net",
    )
    assert result["rounds"][0]["P1"] == -20


@pytest.mark.parametrize(("rounding", "points"), [("exact", -7.5), ("floor", -8), ("ceil", -7)])
def test_in_the_penalty_order_the_penalty_is_halved_whatever_the_bonus(rounding: str, points: float) -> None:
    """The specification's example: the finisher holds the figure, g = 2, one cross: 5 / 2 − 10 = −7.5.

    Without the cross the finisher scores −10, so the cross never lowers the score.
    """
    crossed = {"finisher": "P1", "golden12": 2, "happy_man": "P1", "passes": {"P1": 1}}
    result = result_of(["P1", "P2"], crossed, halving="penalty", rounding=rounding)
    assert result["rounds"][0]["P1"] == points
    uncrossed = result_of(["P1", "P2"], {**crossed, "passes": {}}, halving="penalty", rounding=rounding)
    assert uncrossed["rounds"][0]["P1"] == -10
