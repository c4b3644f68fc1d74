"""The goals `make bench` checks: each printed with its figure and floor, met or missed, and gathered into one table.

    .venv/bin/python bench/goals.py FIGURES.jsonl docs/performance.md   # write the run's table into the docs

Every bench reports its goals through ``report``. When ``TISCHBLOCK_BENCH_GOALS`` names a
file (``make bench`` sets it), each goal is also added to that file as one JSON line, and at
the end of the run this script writes them as the table of current figures in
docs/performance.md, between its two marker lines, so the table there is always the last
whole run's, never a figure copied by hand.
"""

from __future__ import annotations

import json
import os
import platform
import sys
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

FIGURES = "TISCHBLOCK_BENCH_GOALS"
"""The environment variable naming the file a run's goals are gathered in."""
BEGIN = "<!-- make bench: current figures begin -->"
END = "<!-- make bench: current figures end -->"


@dataclass(frozen=True)
class Goal:
    """One goal as one run measured it."""

    bench: str
    """The bench that measured it (its file name)."""
    goal: str
    """What is asked, in a few words with its bound."""
    figure: str
    """What the run measured."""
    floor: str
    """What the figure is read against, measured in the same run."""
    met: bool


def report(bench: str, goal: str, figure: str, floor: str, met: bool) -> None:
    """Print one goal with its figure, floor and verdict, and add it to the run's file when there is one."""
    print(f"  goal: {goal}: {figure} (floor: {floor}): {'met' if met else 'MISSED'}", flush=True)
    gathered = os.environ.get(FIGURES)
    if gathered:
        with open(gathered, "a", encoding="utf-8") as figures:
            figures.write(json.dumps(asdict(Goal(bench, goal, figure, floor, met)), ensure_ascii=False) + "\n")


def table(goals: list[Goal], when: datetime) -> str:
    """Return the goals as the Markdown table of the docs, with the run's date and machine above it."""
    cores = os.cpu_count() or 0
    try:
        load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    except OSError:
        load = "unknown"
    lines = [
        f"Last whole `make bench`: {when:%Y-%m-%d}, {cores} cores ({platform.machine()}), load average at the end {load}.",
        "",
        "| bench | goal | figure | floor (same run) | |",
        "| --- | --- | --- | --- | --- |",
    ]
    lines += [f"| {g.bench} | {g.goal} | {g.figure} | {g.floor} | {'met' if g.met else '**missed**'} |" for g in goals]
    met = sum(goal.met for goal in goals)
    lines += ["", f"{met} of {len(goals)} goals met."]
    return "\n".join(lines)


def write(figures: Path, docs: Path) -> None:
    """Put the run's table between the docs' markers, replacing the last run's."""
    goals = [Goal(**json.loads(line)) for line in figures.read_text(encoding="utf-8").splitlines() if line.strip()]
    text = docs.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{docs}: the markers {BEGIN!r} and {END!r} are missing")
    before, rest = text.split(BEGIN, 1)
    _, after = rest.split(END, 1)
    docs.write_text(f"{before}{BEGIN}\n{table(goals, datetime.now(UTC))}\n{END}{after}", encoding="utf-8")
    print(f"{docs}: {len(goals)} goals written, {sum(goal.met for goal in goals)} met")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    write(Path(sys.argv[1]), Path(sys.argv[2]))
