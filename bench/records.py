"""What `flask score` costs on 10 MB records, against reading the same bytes with ``json.loads``.

    .venv/bin/python bench/records.py
    .venv/bin/python bench/records.py --runs 9 --megabytes 10

Four records of about 10 MB each, answered by the ``score`` command itself (its click
command, standard input to standard output, in this process):

- many rounds: the AURUXXX example's round again and again (refused by their number);
- many rounds and a NaN: the same with ``"result": NaN`` at the end (refused where it stands,
  which walks the whole record for places);
- many strangers: one round whose pass crosses name a stranger after another (refused, the
  answer cut to 50 lines);
- a long result: a legal record carrying a 10 MB ``result`` (ignored, recomputed, printed).

The floor is ``json.loads`` of the same bytes, timed in turn with each run of the command,
so both see the same moments of a busy machine; each figure is the ratio of the two medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.goals import report as report_goal  # noqa: E402
from infra.cli import score_command  # noqa: E402

ROUND = {
    "finisher": "Ben",
    "golden12": 1,
    "happy_man": "Cleo",
    "passes": {"Anna": 2, "Ben": 1},
    "hands": {"Anna": {"numbers": [3, 8, 11]}, "Cleo": {"fifty": 1, "action": 1, "numbers": [0, 7]}},
}
"""The round of the record format's AURUXXX example."""
PLAYERS = ["Anna", "Ben", "Cleo"]
SCORE_GOAL = 10.0
"""Linear time, read as a bound: `score` answers within ten times what reading the same bytes takes."""


def many_rounds(size: int) -> bytes:
    """Return a record of as many copies of the example round as make ``size`` bytes."""
    count = size // len(json.dumps(ROUND))
    return json.dumps({"game": "auruxxx", "players": PLAYERS, "rounds": [ROUND] * count}).encode()


def many_rounds_and_a_nan(size: int) -> bytes:
    """Return the record of many rounds with a ``result`` strict JSON does not allow, at its very end."""
    return many_rounds(size)[:-1] + b', "result": NaN}'


def many_strangers(size: int) -> bytes:
    """Return a record whose one round gives pass crosses to strangers until it is ``size`` bytes long."""
    count = size // len(json.dumps({"p000000": 1}))
    passes = {f"p{index:06d}": 1 for index in range(count)}
    return json.dumps({"game": "auruxxx", "players": PLAYERS, "rounds": [{**ROUND, "passes": passes}]}).encode()


def long_result(size: int) -> bytes:
    """Return a legal record of one round that carries a ``result`` of about ``size`` bytes."""
    totals = {"Anna": 32, "Ben": 0, "Cleo": 41}
    count = size // len(json.dumps(totals))
    return json.dumps({"game": "auruxxx", "players": PLAYERS, "rounds": [ROUND], "result": {"rounds": [totals] * count}}).encode()


def timed(work: Callable[[], object]) -> float:
    """Return the seconds one run of some work took."""
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="runs of each record and of its floor (default 5)")
    parser.add_argument("--megabytes", type=float, default=10, help="size of each record (default 10)")
    args = parser.parse_args()
    size = int(args.megabytes * 1_000_000)
    runner = CliRunner()
    print(f"\n`score` on records of {args.megabytes:g} MB (medians of {args.runs} runs, each beside a json.loads of the same bytes)")
    worst = 0.0
    records = (
        ("many rounds", many_rounds),
        ("and a NaN", many_rounds_and_a_nan),
        ("many strangers", many_strangers),
        ("a long result", long_result),
    )
    for name, build in records:
        text = build(size)
        outcome = runner.invoke(score_command, ["-"], input=text)
        lines = len(outcome.stderr.splitlines()) if outcome.exit_code == 2 else len(outcome.stdout.splitlines())
        answer = f"exit {outcome.exit_code}, {lines} lines" + (f": {outcome.stderr.splitlines()[0]}" if outcome.exit_code == 2 else "")
        answers, floors = [], []
        for _ in range(args.runs):
            answers.append(timed(lambda: runner.invoke(score_command, ["-"], input=text)))
            floors.append(timed(lambda: json.loads(text)))
        answered, floor = statistics.median(answers), statistics.median(floors)
        worst = max(worst, answered / floor)
        print(
            f"  {name:15s} {len(text) / 1e6:5.1f} MB  {answered:6.3f} s   json.loads {floor:6.3f} s   {answered / floor:5.2f}×   ({answer[:90]})"
        )
    print(f"  largest ratio {worst:.2f}×")
    report_goal(
        "records",
        f"`score` on {args.megabytes:g} MB records in linear time: ≤ {SCORE_GOAL:g}× reading them",
        f"largest {worst:.2f}×",
        "json.loads of the same bytes",
        worst <= SCORE_GOAL,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
