"""`flask score`: a game record in, the scored record out, or every problem and status 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from flask.testing import FlaskCliRunner

from tests.examples import AURUXXX_EXAMPLE, TWELVE_DAYS_EXAMPLE
from tests.waiting import PATIENCE_SECONDS


def score(runner: FlaskCliRunner, record: Any, tmp_path: Path) -> Any:
    """Run `score` on a record written to a file and return the result."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return runner.invoke(args=["score", str(path)])


def test_score_prints_the_auruxxx_example_with_its_result(runner: FlaskCliRunner, tmp_path: Path) -> None:
    """The format's example scores by the rules: Cleo holds the figure and halves 82 to 41."""
    outcome = score(runner, AURUXXX_EXAMPLE, tmp_path)
    assert outcome.exit_code == 0, outcome.output
    printed = json.loads(outcome.stdout)
    assert printed["result"] == {
        "rounds": [{"Anna": 32, "Ben": 0, "Cleo": 41}],
        "totals": {"Anna": 32, "Ben": 0, "Cleo": 41},
        "winners": ["Ben"],
        "complete": False,
    }
    assert printed["rounds"][0]["passes"] == {"Anna": 2, "Ben": 1, "Cleo": 0}
    assert printed["house_rules"] == AURUXXX_EXAMPLE["house_rules"]


def test_score_prints_the_twelve_days_example_with_day_points_bonus_and_lost(runner: FlaskCliRunner, tmp_path: Path) -> None:
    """Day points, hand bonuses and the pot of a running 12 Days game."""
    outcome = score(runner, TWELVE_DAYS_EXAMPLE, tmp_path)
    assert outcome.exit_code == 0, outcome.output
    result = json.loads(outcome.stdout)["result"]
    assert result["rounds"] == [
        {"A": 0, "B": 1, "C": 0},
        {"A": 0, "B": 0, "C": 2},
        {"A": 0, "B": 3, "C": 0},
        {"A": 0, "B": 0, "C": 0},
    ]
    assert result["day_points"] == {"A": 0, "B": 4, "C": 2}
    assert result["lost"] == 0
    # 12: A (4); 11: C (4); 10: B; 9: C; 8: B; 7: A and C tie; 6: B; 5: A and B; 4, 3, 2: C; 1: B.
    assert result["bonus"] == {"A": 12 + 7 + 5, "B": 10 + 8 + 6 + 5 + 1, "C": 11 + 9 + 7 + 4 + 3 + 2}
    assert result["totals"] == {"A": 24, "B": 34, "C": 38}
    assert result["winners"] == ["C"] and result["complete"] is False


def test_score_reads_standard_input(runner: FlaskCliRunner) -> None:
    """`-` reads the record from standard input."""
    outcome = runner.invoke(args=["score", "-"], input=json.dumps(AURUXXX_EXAMPLE))
    assert outcome.exit_code == 0
    assert json.loads(outcome.stdout)["result"]["winners"] == ["Ben"]


def test_halves_are_written_as_point_five(runner: FlaskCliRunner, tmp_path: Path) -> None:
    """A half point is a JSON number ending in .5; whole points have no fraction."""
    record = {
        "game": "auruxxx",
        "players": ["A", "B"],
        "rounds": [{"finisher": "A", "golden12": 1, "happy_man": "B", "hands": {"B": {"numbers": [9, 8]}}}],
    }
    outcome = score(runner, record, tmp_path)
    assert '"B": 8.5' in outcome.stdout and '"A": -5' in outcome.stdout and "-5.0" not in outcome.stdout


def test_bad_record_prints_every_problem_and_exits_2(runner: FlaskCliRunner, tmp_path: Path) -> None:
    """Each problem on its own line on standard error, nothing on standard output."""
    bad = json.loads(json.dumps(AURUXXX_EXAMPLE))
    bad["rounds"][0]["passes"]["Anna"] = 4
    bad["rounds"][0]["golden12"] = 0
    outcome = score(runner, bad, tmp_path)
    assert outcome.exit_code == 2
    assert outcome.stdout == ""
    assert outcome.stderr.splitlines() == [
        "rounds[0].golden12: the finisher ends the round with 1 to 5 Golden 12 (got 0)",
        "rounds[0].passes.Anna: at most 3 passes per round (got 4)",
    ]


def test_broken_json_is_a_clear_line_not_a_traceback(runner: FlaskCliRunner, tmp_path: Path) -> None:
    """Text that is not JSON at all, or not UTF-8, is one line and status 2."""
    path = tmp_path / "broken.json"
    path.write_bytes(b'{"game": "auruxxx", \xff')
    outcome = runner.invoke(args=["score", str(path)])
    assert outcome.exit_code == 2
    assert outcome.stderr.startswith("record: is not valid JSON")
    assert "Traceback" not in outcome.output
    assert len(outcome.stderr.splitlines()) == 1


def test_a_missing_file_is_named(runner: FlaskCliRunner, tmp_path: Path) -> None:
    """A file that does not exist is refused with a line naming it."""
    outcome = runner.invoke(args=["score", str(tmp_path / "nope.json")])
    assert outcome.exit_code == 2
    assert "nope.json" in outcome.output and "Traceback" not in outcome.output


def test_deep_nesting_exits_2_with_a_message_not_a_traceback(runner: FlaskCliRunner, tmp_path: Path) -> None:
    """A list nested 985 deep as a value (it once crashed with exit 1) is one line and status 2."""
    path = tmp_path / "deep.json"
    path.write_text('{"game": "auruxxx", "players": ["A", "B"], "house_rules": {"halving": ' + "[" * 985 + "]" * 985 + "}}")
    outcome = runner.invoke(args=["score", str(path)])
    assert outcome.exit_code == 2
    assert outcome.stderr.splitlines() == ["record: is nested more than 16 levels deep"]
    assert outcome.stdout == "" and "Traceback" not in outcome.output


def test_a_key_given_twice_exits_2_naming_it(runner: FlaskCliRunner) -> None:
    """`{"B": 3, "B": 1}` is refused, not scored as 1."""
    text = json.dumps(AURUXXX_EXAMPLE).replace('"passes": {"Anna": 2,', '"passes": {"Anna": 3, "Anna": 2,')
    outcome = runner.invoke(args=["score", "-"], input=text)
    assert outcome.exit_code == 2
    assert outcome.stderr.splitlines() == ["rounds[0].passes.Anna: is given twice in one object"]


def test_score_keeps_and_checks_the_round_being_played(runner: FlaskCliRunner, tmp_path: Path) -> None:
    """An ``open_round`` is printed back normalised and scores nothing; a 4th cross in it is refused."""
    running = {**AURUXXX_EXAMPLE, "open_round": {"happy_man": "Anna", "passes": {"Cleo": 1}}}
    outcome = score(runner, running, tmp_path)
    assert outcome.exit_code == 0, outcome.output
    printed = json.loads(outcome.stdout)
    assert printed["open_round"] == {"happy_man": "Anna", "passes": {"Anna": 0, "Ben": 0, "Cleo": 1}, "hands": {}}
    assert printed["result"]["totals"] == {"Anna": 32, "Ben": 0, "Cleo": 41}
    outcome = score(runner, {**running, "open_round": {"passes": {"Cleo": 4}}}, tmp_path)
    assert outcome.exit_code == 2
    assert outcome.stderr.splitlines() == ["open_round.passes.Cleo: at most 3 passes per round (got 4)"]


def test_however_large_the_record_score_prints_at_most_50_lines(runner: FlaskCliRunner) -> None:
    """100,000 unknown keys (more than the import takes) print 49 of them and one line counting the rest."""
    keys = {f"k{index}": 1 for index in range(100_000)}
    outcome = runner.invoke(args=["score", "-"], input=json.dumps({**AURUXXX_EXAMPLE, **keys}))
    assert outcome.exit_code == 2
    assert outcome.stderr.splitlines() == [f'record: unknown key "k{index}"' for index in range(49)] + [
        "record: 99951 more problems are not listed"
    ]


def test_nan_where_the_record_ignores_it_exits_2(runner: FlaskCliRunner) -> None:
    """A ``result`` is recomputed, never trusted, but ``"result": NaN`` is still not JSON."""
    outcome = runner.invoke(args=["score", "-"], input=json.dumps(AURUXXX_EXAMPLE)[:-1] + ', "result": NaN}')
    assert outcome.exit_code == 2
    assert outcome.stderr.splitlines() == ["result: NaN is not a JSON number"] and outcome.stdout == ""


REFUSING_THE_FAQ = """
import json, sys
import faq.content


def refuse(*args, **kwargs):
    raise SystemExit("the rules FAQ was loaded")


faq.content.load = faq.content.load_outlines = faq.content.load_questions = refuse
from app import create_app

outcome = create_app().test_cli_runner().invoke(args=["score", "-"], input=sys.stdin.read())
print(outcome.exit_code, json.loads(outcome.stdout)["result"]["winners"] if outcome.exit_code == 0 else outcome.output)
"""


def test_score_starts_without_the_rules_faq(tmp_path: Path) -> None:
    """`score` never searches the FAQ, so it neither loads nor builds it: its start is the rules', not the FAQ's."""
    found = subprocess.run(
        [sys.executable, "-c", REFUSING_THE_FAQ],
        input=json.dumps(AURUXXX_EXAMPLE),
        capture_output=True,
        text=True,
        timeout=PATIENCE_SECONDS * 6,
        cwd=Path(__file__).resolve().parents[2],
        env={**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'score.db'}"},
        check=False,
    )
    assert found.returncode == 0 and found.stdout.split() == ["0", "['Ben']"], found.stdout + found.stderr
