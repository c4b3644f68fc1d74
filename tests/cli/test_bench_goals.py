"""`make bench` gathers every goal into docs/performance.md: the table there is a run's, never copied by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import goals

ROOT = Path(__file__).resolve().parents[2]


def test_each_reported_goal_is_printed_and_gathered_in_the_runs_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    figures = tmp_path / "figures.jsonl"
    monkeypatch.setenv(goals.FIGURES, str(figures))
    goals.report("tap", "CPU per tap ≤ 4 ms", "8.10 ms, 6.1×", "/healthz 1.33 ms", False)
    goals.report("load", "memory ≤ 50 KB per open sheet", "40.2 KB", "the workers before", True)
    assert "goal: CPU per tap ≤ 4 ms: 8.10 ms, 6.1× (floor: /healthz 1.33 ms): MISSED" in capsys.readouterr().out
    gathered = [goals.Goal(**json.loads(line)) for line in figures.read_text(encoding="utf-8").splitlines()]
    assert [(goal.bench, goal.met) for goal in gathered] == [("tap", False), ("load", True)]


def test_the_runs_table_replaces_the_last_one_between_the_markers_and_nothing_else(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    figures = tmp_path / "figures.jsonl"
    monkeypatch.setenv(goals.FIGURES, str(figures))
    goals.report("growth", "a tap flat within 1.5×", "1.02×", "a database of one game", True)
    docs = tmp_path / "performance.md"
    docs.write_text(f"# Performance\n\nbefore\n{goals.BEGIN}\nan old table\n{goals.END}\n\nafter\n", encoding="utf-8")
    goals.write(figures, docs)
    goals.write(figures, docs)
    text = docs.read_text(encoding="utf-8")
    assert "an old table" not in text and text.count(goals.BEGIN) == 1 and text.startswith("# Performance\n\nbefore\n")
    assert "| growth | a tap flat within 1.5× | 1.02× | a database of one game | met |" in text
    assert "1 of 1 goals met." in text and text.endswith(f"{goals.END}\n\nafter\n")


def test_docs_without_the_markers_are_refused_and_left_as_they_were(tmp_path: Path) -> None:
    figures = tmp_path / "figures.jsonl"
    figures.write_text("", encoding="utf-8")
    docs = tmp_path / "performance.md"
    docs.write_text("# Performance\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="markers"):
        goals.write(figures, docs)
    assert docs.read_text(encoding="utf-8") == "# Performance\n"


def test_the_performance_docs_hold_the_markers_the_bench_writes_between() -> None:
    text = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    assert text.count(goals.BEGIN) == 1 and text.count(goals.END) == 1 and text.index(goals.BEGIN) < text.index(goals.END)
