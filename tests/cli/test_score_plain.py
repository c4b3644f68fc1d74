"""`flask score` on a plain sheet: the record of rules/plain.md scored, or every problem at its place and status 2."""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskCliRunner

WIZARD: dict[str, Any] = {
    "game": "plain",
    "name": "Wizard",
    "players": ["Anna", "Ben", "Cleo"],
    "wins": "highest",
    "end": {"rounds": 10},
    "rounds": [
        {"points": {"Anna": 20, "Ben": -10, "Cleo": 30}},
        {"points": {"Anna": 0, "Ben": 40, "Cleo": -20}},
    ],
    "finished": False,
}
"""The example of rules/plain.md, word for word (its ``finished`` is refused: the game has an end rule)."""


def score_text(runner: FlaskCliRunner, text: str) -> Any:
    """Run `score` on a record read from standard input."""
    return runner.invoke(args=["score", "-"], input=text)


def test_score_prints_a_plain_sheet_with_rounds_totals_leaders_and_complete(runner: FlaskCliRunner) -> None:
    running = {key: value for key, value in WIZARD.items() if key != "finished"}
    outcome = score_text(runner, json.dumps(running))
    assert outcome.exit_code == 0, outcome.output
    printed = json.loads(outcome.stdout)
    assert printed["name"] == "Wizard" and printed["end"] == {"rounds": 10}
    assert printed["result"] == {
        "rounds": [{"Anna": 20, "Ben": -10, "Cleo": 30}, {"Anna": 0, "Ben": 40, "Cleo": -20}],
        "totals": {"Anna": 20, "Ben": 30, "Cleo": 10},
        "winners": ["Ben"],
        "complete": False,
    }


def test_the_specs_example_is_refused_for_its_finished_beside_an_end_rule(runner: FlaskCliRunner) -> None:
    outcome = score_text(runner, json.dumps(WIZARD))
    assert outcome.exit_code == 2 and outcome.stdout == ""
    assert outcome.stderr.splitlines() == ["finished: a game with an end rule is finished by that rule, not by this key"]


def test_an_open_ended_game_is_normalised_with_finished_and_keeps_its_open_round(runner: FlaskCliRunner) -> None:
    running = {"game": "plain", "name": "Kniffel", "players": ["Anna", "Ben"], "open_round": {"points": {"Ben": -5}}}
    printed = json.loads(score_text(runner, json.dumps(running)).stdout)
    assert printed["wins"] == "highest" and printed["finished"] is False and printed["rounds"] == []
    assert printed["open_round"] == {"points": {"Ben": -5}}
    assert printed["result"]["complete"] is False


def test_every_problem_names_its_place_one_line_each(runner: FlaskCliRunner) -> None:
    text = (
        '{"game": "plain", "name": "Wizard", "players": ["Anna", "Ben", "Cleo"], "rounds": ['
        '{"points": {"Anna": 1, "Ben": 1, "Cleo": 1}}, {"points": {"Anna": 1, "Ben": 100001}}]}'
    )
    outcome = score_text(runner, text)
    assert outcome.exit_code == 2 and "Traceback" not in outcome.output
    assert outcome.stderr.splitlines() == [
        "rounds[1].points.Ben: a round's points are a whole number from -100000 to 100000 (got 100001)",
        "rounds[1].points.Cleo: is missing: every player has a number in a closed round",
    ]


def test_a_player_named_twice_in_a_round_and_nan_are_refused_by_the_strict_reader(runner: FlaskCliRunner) -> None:
    twice = '{"game": "plain", "name": "W", "players": ["Anna", "Cleo"], "rounds": [{"points": {"Anna": 1, "Cleo": 2, "Cleo": 3}}]}'
    assert score_text(runner, twice).stderr.splitlines() == ["rounds[0].points.Cleo: is given twice in one object"]
    nan = '{"game": "plain", "name": "W", "players": ["Anna"], "rounds": [{"points": {"Anna": NaN}}]}'
    assert score_text(runner, nan).stderr.splitlines() == ["rounds[0].points.Anna: NaN is not a JSON number"]


def test_however_many_rounds_are_wrong_at_most_50_lines_are_printed(runner: FlaskCliRunner) -> None:
    rounds = [{"points": {"Anna": 200_000}}] * 99
    outcome = score_text(runner, json.dumps({"game": "plain", "name": "W", "players": ["Anna"], "rounds": rounds}))
    lines = outcome.stderr.splitlines()
    assert outcome.exit_code == 2 and len(lines) == 50 and lines[-1] == "record: 50 more problems are not listed"
