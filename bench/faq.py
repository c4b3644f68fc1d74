"""Measure the rules FAQ search: hit rates over the evaluation questions, and query latency.

    .venv/bin/python bench/faq.py --eval       # top-1 / top-3 per game and language, the misses, offline agreement
    .venv/bin/python bench/faq.py --latency    # median and p95 per query against a bare SELECT 1

The questions live in tests/faq/questions.toml; tests/faq/test_search_quality.py asserts the
rates and tests/faq/test_offline_search.py the agreement, this script only reports. Timings are
never asserted anywhere.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import subprocess
import statistics
import sys
import time
import tomllib
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from faq.content import load  # noqa: E402
from faq.search import Index  # noqa: E402

QUESTIONS = ROOT / "tests" / "faq" / "questions.toml"
OFFLINE_RUNNER = ROOT / "tests" / "faq" / "offline_search.js"


@dataclass(frozen=True)
class Question:
    """One evaluation question and the ids that count as answering it."""

    game: str
    lang: str
    q: str
    expect: tuple[str, ...]


@dataclass(frozen=True)
class Outcome:
    """What the search returned for one question."""

    question: Question
    found: tuple[str, ...]

    @property
    def top1(self) -> bool:
        return bool(self.found) and self.found[0] in self.question.expect

    @property
    def top3(self) -> bool:
        return any(i in self.question.expect for i in self.found[:3])


def questions(path: Path = QUESTIONS) -> list[Question]:
    """Return the evaluation questions."""
    raw = tomllib.loads(path.read_text(encoding="utf-8"))["question"]
    return [Question(r["game"], r["lang"], r["q"], tuple(r["expect"])) for r in raw]


def evaluate(index: Index, asked: list[Question]) -> list[Outcome]:
    """Return the top three ids the search finds for every question."""
    return [
        Outcome(q, tuple(h.entry.id for h in index.search(q.q, game=q.game, lang=q.lang, limit=3)))
        for q in asked
    ]


def rates(outcomes: list[Outcome]) -> tuple[float, float]:
    """Return the top-1 and top-3 hit rates."""
    if not outcomes:
        return 0.0, 0.0
    return (
        sum(o.top1 for o in outcomes) / len(outcomes),
        sum(o.top3 for o in outcomes) / len(outcomes),
    )


def report_eval(index: Index) -> int:
    """Print hit rates per game and language, overall, and every miss."""
    outcomes = evaluate(index, questions())
    groups: dict[tuple[str, str], list[Outcome]] = defaultdict(list)
    for o in outcomes:
        groups[(o.question.game, o.question.lang)].append(o)
    print(f"{'game':<9} {'lang':<4} {'n':>4} {'top-1':>7} {'top-3':>7}")
    for (game, lang), group in sorted(groups.items()):
        one, three = rates(group)
        print(f"{game:<9} {lang:<4} {len(group):>4} {one:>7.1%} {three:>7.1%}")
    one, three = rates(outcomes)
    print(f"{'all':<14} {len(outcomes):>4} {one:>7.1%} {three:>7.1%}")
    misses = [o for o in outcomes if not o.top3]
    near = [o for o in outcomes if o.top3 and not o.top1]
    if misses:
        print(f"\nmisses (not in top 3): {len(misses)}")
        for o in misses:
            print(f"  [{o.question.game}/{o.question.lang}] {o.question.q!r}")
            print(f"      want {', '.join(o.question.expect)}; got {', '.join(o.found) or '(nothing)'}")
    if near:
        print(f"\nin top 3 but not first: {len(near)}")
        for o in near:
            print(f"  [{o.question.game}/{o.question.lang}] {o.question.q!r}: want {o.question.expect[0]}, first {o.found[0]}")
    report_agreement(index, outcomes)
    return 0


def report_agreement(index: Index, outcomes: list[Outcome]) -> None:
    """Print how often the browser's offline search (run by node) returns the server's top 3, in order."""
    node = shutil.which("node")
    if node is None:
        print("\noffline agreement: not measured, node is missing")
        return
    asked = [{"game": o.question.game, "lang": o.question.lang, "q": o.question.q} for o in outcomes]
    data = json.dumps({"index": index.offline(), "asked": asked, "limit": 3})
    offline = json.loads(subprocess.run([node, str(OFFLINE_RUNNER)], input=data, capture_output=True, text=True, check=True).stdout)
    same = sum(list(o.found) == found for o, found in zip(outcomes, offline))
    print(f"\noffline search (browser) returns the server's top 3 for {same} of {len(outcomes)} questions ({same / len(outcomes):.1%})")


def timed(call: Callable[[], object], repeat: int) -> list[float]:
    """Return the milliseconds of each of ``repeat`` calls."""
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        out.append((time.perf_counter() - start) * 1000)
    return out


def percentile(values: list[float], share: float) -> float:
    """Return the value below which ``share`` of the values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def report_latency(index: Index, repeat: int) -> int:
    """Time every evaluation query ``repeat`` times, cold and warm, against a bare SELECT 1 floor."""
    asked = questions()
    floor_db = sqlite3.connect(":memory:")
    floor = timed(lambda: floor_db.execute("SELECT 1").fetchall(), repeat * len(asked))
    first = [timed(lambda q=q: index.search(q.q, game=q.game, lang=q.lang), 1)[0] for q in asked]
    warm: list[float] = []
    slowest: list[tuple[float, str]] = []
    for q in asked:
        times = timed(lambda q=q: index.search(q.q, game=q.game, lang=q.lang), repeat)
        warm += times
        slowest.append((statistics.median(times), q.q))
    floor_median = statistics.median(floor)
    print(f"{len(asked)} queries, each timed {repeat}x (plus one first, uncached run)")
    print(f"{'':<22} {'median ms':>10} {'p95 ms':>10} {'max ms':>10}")
    print(f"{'search (first run)':<22} {statistics.median(first):>10.3f} {percentile(first, 0.95):>10.3f} {max(first):>10.3f}")
    print(f"{'search (repeated)':<22} {statistics.median(warm):>10.3f} {percentile(warm, 0.95):>10.3f} {max(warm):>10.3f}")
    print(f"{'floor: SELECT 1':<22} {floor_median:>10.4f} {percentile(floor, 0.95):>10.4f} {max(floor):>10.4f}")
    print(f"ratio search/floor (median): first run {statistics.median(first) / floor_median:,.0f}x, "
          f"repeated {statistics.median(warm) / floor_median:,.0f}x")
    print(f"budget 50 ms: p95 first run {percentile(first, 0.95) / 50:.1%} of it, max {max(first + warm):.2f} ms")
    print("slowest queries (median ms):")
    for ms, q in sorted(slowest, reverse=True)[:5]:
        print(f"  {ms:8.3f}  {q!r}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--eval", action="store_true", help="print top-1/top-3 hit rates and the misses")
    mode.add_argument("--latency", action="store_true", help="print median and p95 query time against a floor")
    parser.add_argument("--repeat", type=int, default=50, help="timings per query for --latency (default 50)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    index = Index(load())
    print(f"index built in {(time.perf_counter() - start) * 1000:.0f} ms")
    return report_eval(index) if args.eval else report_latency(index, args.repeat)


if __name__ == "__main__":
    raise SystemExit(main())
