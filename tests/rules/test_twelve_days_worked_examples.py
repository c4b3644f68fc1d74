"""The worked examples of the 12 Days specification, each scored through a game record."""

from __future__ import annotations

from typing import Any

import pytest

from rules import record
from rules.problems import Illegal
from rules.twelve_days import score as twelve_days

S, M = "santa", "mrs_claus"


def names(count: int) -> list[str]:
    """Return player names P1, P2, … for a table of that size."""
    return [f"P{i}" for i in range(1, count + 1)]


def won_by(player: str) -> dict[str, Any]:
    """Return a day entered quickly as taken by one player."""
    return {"taken_by": player}


def played(*cards: int | str, gift_to: str | None = None) -> dict[str, Any]:
    """Return a day on which P1, P2, … revealed these cards."""
    day: dict[str, Any] = {"played": {f"P{i}": card for i, card in enumerate(cards, start=1)}}
    if gift_to is not None:
        day["gift_to"] = gift_to
    return day


def result_of(players: list[str], days: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """Return the scored result of a 12 Days record."""
    raw = {"game": "12days", "players": players, "days": days, **extra}
    scored: dict[str, Any] = record.scored(record.parse(raw))["result"]
    return scored


def day_points_on(result: dict[str, Any], day: int) -> dict[str, int]:
    """Return who received points on a day (1-based), leaving out the zeros."""
    return {p: v for p, v in result["rounds"][day - 1].items() if v}


def before(day: int, players: list[str]) -> list[dict[str, Any]]:
    """Return earlier days, each won quickly by the last player, so a later day has its number."""
    return [won_by(players[-1]) for _ in range(day - 1)]


def test_example_1_lowest_card_wins_the_day() -> None:
    """3, 5, 8, 10 on day 1: the 3 wins one point."""
    result = result_of(names(4), [played(3, 5, 8, 10)])
    assert day_points_on(result, 1) == {"P1": 1}


def test_example_2_equal_lowest_cards_cancel() -> None:
    """3, 3, 5, 10 on day 5: the threes cancel, the 5 wins five points."""
    players = names(4)
    result = result_of(players, [*before(5, players), played(3, 3, 5, 10)])
    assert day_points_on(result, 5) == {"P3": 5}


def test_example_3_cancelling_cascades_upwards() -> None:
    """2, 2, 4, 4, 9 on day 3: both pairs cancel and the 9 wins."""
    players = names(5)
    result = result_of(players, [*before(3, players), played(2, 2, 4, 4, 9)])
    assert day_points_on(result, 3) == {"P5": 3}


def test_example_4_claus_winner_gives_the_day_away() -> None:
    """Santa beats everything but must give day 6 to another player."""
    players = names(3)
    result = result_of(players, [*before(6, players), played(S, 2, 7, gift_to="P3")])
    assert day_points_on(result, 6) == {"P3": 6}
    with pytest.raises(Illegal) as to_self:
        record.parse({"game": "12days", "players": players, "days": [played(S, 2, 7, gift_to="P1")]})
    assert [str(p) for p in to_self.value.problems] == ["days[0].gift_to: P1 won with a Claus card and must give the day to another player"]
    with pytest.raises(Illegal) as no_gift:
        record.parse({"game": "12days", "players": players, "days": [played(S, 2, 7)]})
    assert [str(p) for p in no_gift.value.problems] == ["days[0].gift_to: P1 won with a Claus card and must give the day away"]


def test_example_5_two_clauses_cancel_and_the_next_card_keeps_the_day() -> None:
    """Santa and Mrs. Claus cancel; the 4 wins and keeps day 4."""
    players = names(4)
    result = result_of(players, [*before(4, players), played(S, M, 4, 8)])
    assert day_points_on(result, 4) == {"P3": 4}


def test_example_6_when_everything_cancels_the_day_goes_into_the_pot() -> None:
    """Santa, Mrs. Claus, 5, 5: nobody wins day 4."""
    players = names(4)
    result = result_of(players, [*before(4, players), played(S, M, 5, 5)])
    assert day_points_on(result, 4) == {}
    game = record.parse({"game": "12days", "players": players, "days": [*before(4, players), played(S, M, 5, 5)]})
    assert isinstance(game, twelve_days.Game)
    assert twelve_days.score_game(game).pot == (4,)


def test_example_7_the_next_winner_takes_the_pot() -> None:
    """Day 2 unwon, day 3 won by the 1: days 2 and 3 make five points."""
    players = names(3)
    result = result_of(players, [won_by("P3"), played(4, 4, 4), played(1, 6, 9)])
    assert day_points_on(result, 3) == {"P1": 5}


def test_example_8_a_pot_grows_over_several_days() -> None:
    """Days 7 and 8 unwon; the 2 on day 9 takes 7 + 8 + 9 = 24."""
    players = names(4)
    days = [*before(7, players), played(6, 6, 9, 9), played(10, 10, 10, 10), played(2, 3, 3, 11)]
    result = result_of(players, days)
    assert day_points_on(result, 9) == {"P1": 24}


def test_example_9_an_unwon_last_day_and_its_pot_are_lost() -> None:
    """Days 11 and 12 unwon: their 23 points go to nobody."""
    players = names(3)
    days = [*before(11, players), played(11, 11, 11), played(10, 10, 10)]
    result = result_of(players, days)
    assert result["lost"] == 23
    assert sum(result["day_points"].values()) + result["lost"] == 78


def test_example_10_a_value_nobody_holds_scores_for_nobody() -> None:
    """Without any 1–4 in the hands, those values score nothing; the rest go to the majority."""
    players = names(3)
    hands = {
        "P1": [12, 12, 12, 12, 11, 11, 9, 9, 7, 7, 6, 5],
        "P2": [12, 12, 10, 10, 10, 8, 8, 8, 6, 6, 5, 5],
        "P3": [11, 11, 11, 11, 9, 9, 9, 7, 7, 6, 5, 8],
    }
    days = [won_by("P1") for _ in range(12)]
    result = result_of(players, days, hands=hands)
    # 12: P1; 11: P3; 10: P2; 9: P3; 8: P2; 7: P1 and P3 tie; 6: P2; 5: P2.
    assert result["bonus"] == {"P1": 12 + 7, "P2": 10 + 8 + 6 + 5, "P3": 11 + 9 + 7}
    assert result["complete"] is True


def test_example_11_eight_nights_bonuses_and_player_count() -> None:
    """8 Nights hands score values 1–8 only; 5 players cannot play 8 Nights."""
    hands = {
        "P1": [8, 8, 8, 7, 7, 6, 6, 6],
        "P2": [8, 8, 8, 5, 5, 5, 5, 5],
        "P3": [7, 7, 7, 7, 6, 6, 4, 4],
    }
    result = result_of(names(3), [won_by("P1")] * 8, variant="8nights", hands=hands)
    assert result["bonus"] == {"P1": 14, "P2": 13, "P3": 11}
    assert sum(result["day_points"].values()) + result["lost"] == 36
    with pytest.raises(Illegal) as five:
        record.parse({"game": "12days", "variant": "8nights", "players": names(5)})
    assert [str(p) for p in five.value.problems] == ["players: 8 Nights is played by 3 to 4 players (got 5)"]
