"""Measure the rules FAQ search: hit rates on the tuning and held-out questions, "no answer" on off-topic ones, agreement, latency, sizes.

    .venv/bin/python bench/faq.py --eval       # top-1 / top-3 per set, game and language, the kinds that miss, off topic, offline agreement
    .venv/bin/python bench/faq.py --eval --held-out-misses   # the same, listing the held-out questions that miss too
    .venv/bin/python bench/faq.py --eval --tuning-only       # the tuning set alone: what whoever tunes reads
    .venv/bin/python bench/faq.py --folds 5    # each paraphrase asked of a search built without it (5 folds)
    .venv/bin/python bench/faq.py --latency    # median and p95 per question on the server and in node x4 (a phone), against a bare SELECT 1
    .venv/bin/python bench/faq.py --sizes      # lines of FAQ code, and the compressed bytes a phone downloads for the FAQ

The tuning set (faq/content/<game>.questions.toml) is what the search learns from; each of its
questions is asked of a model taught without it (five folds by text). The held-out sets
(tests/faq/heldout-*.toml) are never tuned on, and their misses are listed only when asked for:
whoever tunes runs ``--tuning-only``, so that not even the held-out rates decide which change is
kept. The off-topic set (tests/faq/offtopic.toml) must get no answer. docs/faq.md has the goals,
the method and the figures; this script only reports, and timings are never asserted anywhere.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
import tomllib
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

import brotli

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from faq.content import CONTENT, BrokenContent, Question, read_questions  # noqa: E402
from faq.search import FAQ  # noqa: E402

HERE = ROOT / "tests" / "faq"
HELD_OUT = sorted(HERE.glob("heldout-*.toml"))
"""The held-out sets, oldest first: none was tuned on."""
OFF_TOPIC = HERE / "offtopic.toml"
OFFLINE_RUNNER = HERE / "offline_search.js"
TOP1_GOAL, TOP3_GOAL, NOTHING_GOAL = 0.90, 0.97, 0.90
FOLDS = 5


@dataclass(frozen=True)
class Outcome:
    """The ids the search returned for one question, best first."""

    question: Question
    found: tuple[str, ...]

    @property
    def top1(self) -> bool:
        return bool(self.found) and self.found[0] in self.question.expect

    @property
    def top3(self) -> bool:
        return any(found in self.question.expect for found in self.found[:3])


def rates(outcomes: list[Outcome]) -> tuple[int, float, float]:
    """Return how many outcomes there are, and the shares answered first and among the first three."""
    count = len(outcomes) or 1
    return len(outcomes), sum(o.top1 for o in outcomes) / count, sum(o.top3 for o in outcomes) / count


def questions(path: Path, faq: FAQ) -> list[Question]:
    """Return the questions of a set, in file order, or raise BrokenContent listing what is wrong with them."""
    problems: list[str] = []
    found = read_questions(path, faq.entries, problems)
    if problems:
        raise BrokenContent("\n".join(problems))
    return found


def off_topic(faq: FAQ) -> list[tuple[str, str, str]]:
    """Return the off-topic questions: game, language and question."""
    return [(q["game"], q["lang"], q["q"]) for q in tomllib.loads(OFF_TOPIC.read_text(encoding="utf-8"))["question"]]


def evaluate(faq: FAQ, asked: Iterable[Question]) -> list[Outcome]:
    """Return what the search finds for every question."""
    return [Outcome(q, tuple(h.entry.id for h in faq.search(q.q, game=q.game, lang=q.lang, limit=3))) for q in asked]


def fold_of(question: Question) -> int:
    """Return the fold a question is left out in: a checksum of its game, language and words, so adding one moves no other."""
    return zlib.crc32(f"{question.game}|{question.lang}|{question.q}".encode()) % FOLDS


def cross_validated(faq: FAQ) -> list[Outcome]:
    """Return what the search finds for each tuning question, asked of an index taught by the other folds only."""
    found = []
    for game, lang in faq.sections():
        entries = [e for e in faq.entries if (e.game, e.lang) == (game, lang)]
        for fold in range(FOLDS):
            _, searcher = faq.build(game, lang, [q for q in faq.questions if fold_of(q) != fold])
            for q in faq.questions:
                if (q.game, q.lang) == (game, lang) and fold_of(q) == fold:
                    found.append(Outcome(q, tuple(entries[at].id for _, at in searcher.rank(q.q)[0][:3])))
    return found


def goal_note(top1: float, top3: float) -> str:
    """Say whether a group meets the goals, and by how many points it misses them if not."""
    missed = [f"{name} by {gap * 100:.1f} pts" for name, gap in (("top-1", TOP1_GOAL - top1), ("top-3", TOP3_GOAL - top3)) if gap > 1e-9]
    return "ok" if not missed else "misses " + ", ".join(missed)


def report_set(name: str, outcomes: list[Outcome], *, list_misses: bool) -> None:
    """Print one set's rates per game and language against the goals, by kind of question, and its misses if asked."""
    print(f"\n== {name}: {len(outcomes)} questions; goals top-1 >= {TOP1_GOAL:.0%}, top-3 >= {TOP3_GOAL:.0%} per game and language")
    grouped: dict[tuple[str, str], list[Outcome]] = defaultdict(list)
    kinds: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        grouped[(o.question.game, o.question.lang)].append(o)
        for kind in o.question.kinds or ("plain",):
            kinds[kind].append(o)
    for (game, lang), group in sorted(grouped.items()):
        count, top1, top3 = rates(group)
        print(f"{game:<9} {lang:<4} {count:>4} {top1:>7.1%} {top3:>7.1%}  {goal_note(top1, top3)}")
    count, top1, top3 = rates(outcomes)
    print(f"{'all':<14} {count:>4} {top1:>7.1%} {top3:>7.1%}   no answer for {sum(not o.found for o in outcomes)}")
    for kind in sorted(kinds, key=lambda kind: rates(kinds[kind])[1]):
        count, top1, top3 = rates(kinds[kind])
        print(f"  {kind:<23} {count:>4} {top1:>7.1%} {top3:>7.1%}")
    if list_misses:
        for o in outcomes:
            if not o.top1:
                print(
                    f"  {'not in 3' if not o.top3 else 'not 1st '} [{o.question.game}/{o.question.lang}] {o.question.q!r}: want {o.question.expect[0]}, got {', '.join(o.found) or 'nothing'}"
                )


def node_search(faq: FAQ, asked: list[tuple[str, str, str]], limit: int = 3, repeat: int = 0) -> list[list[object]]:
    """Return what the phone's script, run by node on the index the server ships, finds for each question (and its times, with ``repeat``)."""
    data = json.dumps([{"game": game, "lang": lang, "q": q} for game, lang, q in asked])
    payload = f'{{"index":{faq.offline_json},"asked":{data},"limit":{limit},"repeat":{repeat}}}'
    node = shutil.which("node") or "node"
    found: list[list[object]] = json.loads(
        subprocess.run([node, str(OFFLINE_RUNNER)], input=payload, capture_output=True, text=True, check=True).stdout
    )
    return found


def report_agreement(faq: FAQ, name: str, asked: list[tuple[str, str, str]]) -> None:
    """Print how often the phone's script returns the server's top 3, in order (and no answer where the server has none)."""
    server = [[h.entry.id for h in faq.search(q, game=game, lang=lang, limit=3)] for game, lang, q in asked]
    same = sum(ours == theirs for ours, theirs in zip(server, node_search(faq, asked)))
    print(
        f"offline search (the phone's script) returns the server's top 3 for {same} of {len(asked)} {name} questions ({same / len(asked):.1%})"
    )


def report_eval(faq: FAQ, *, held_out_misses: bool, tuning_only: bool) -> int:
    """Print the tuning set, each held-out set, the off-topic set and the offline agreement on each."""
    report_set(
        "tuning set (faq/content/*.questions.toml), each asked of an index taught without it", cross_validated(faq), list_misses=True
    )
    asked = [(q.game, q.lang, q.q) for q in faq.questions]
    report_agreement(faq, "tuning", asked)
    if tuning_only:
        return 0
    for path in HELD_OUT:
        held_out = questions(path, faq)
        report_set(f"held-out set {path.relative_to(ROOT)}", evaluate(faq, held_out), list_misses=held_out_misses)
        report_agreement(faq, path.name, [(q.game, q.lang, q.q) for q in held_out])
    unanswerable = off_topic(faq)
    nothing: dict[tuple[str, str], list[bool]] = defaultdict(list)
    for game, lang, q in unanswerable:
        nothing[(game, lang)].append(not faq.search(q, game=game, lang=lang))
    print(f"\n== off-topic set {OFF_TOPIC.relative_to(ROOT)}: {len(unanswerable)} questions; goal: no answer for >= {NOTHING_GOAL:.0%}")
    for (game, lang), got in sorted(nothing.items()):
        print(f"{game:<9} {lang:<4} {len(got):>4} no answer {sum(got) / len(got):>7.1%}")
    total = [found for got in nothing.values() for found in got]
    print(f"{'all':<14} {len(total):>4} no answer {sum(total) / len(total):>7.1%}")
    report_agreement(faq, "off-topic", unanswerable)
    return 0


def report_folds(folds: int) -> int:
    """Print, per game and language, how often a paraphrase finds its entry in an index built without its fold of paraphrases."""
    faq = FAQ(CONTENT)
    outcomes: list[Outcome] = []
    for fold in range(folds):
        kept, asked = [], []
        for entry in faq.entries:
            keep = []
            for paraphrase in entry.asked:
                if zlib.crc32(f"{entry.game}|{entry.lang}|{entry.id}|{paraphrase}".encode()) % folds == fold:
                    asked.append(Question(entry.game, entry.lang, paraphrase, (entry.id,)))
                else:
                    keep.append(paraphrase)
            kept.append(replace(entry, asked=tuple(keep)))
        without = FAQ(CONTENT)
        without.entries = kept  # type: ignore[misc]
        outcomes += evaluate(without, asked)
    print(f"== paraphrases, {folds} folds: {len(outcomes)} paraphrases, each asked of an index built without its fold")
    grouped: dict[tuple[str, str], list[Outcome]] = defaultdict(list)
    for o in outcomes:
        grouped[(o.question.game, o.question.lang)].append(o)
    for (game, lang), group in sorted(grouped.items()):
        count, top1, top3 = rates(group)
        print(f"{game:<9} {lang:<4} {count:>5} {top1:>7.1%} {top3:>7.1%}")
    return 0


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


PHONE_SLOWDOWN = 4
"""How much slower a phone-class CPU runs the offline search than node on this machine: the issue's 4x throttle."""


def report_latency(faq: FAQ, repeat: int) -> int:
    """Time every tuning and held-out question ``repeat`` times, on the server and in node times four, against a bare SELECT 1 floor."""
    held_out = [q for path in HELD_OUT for q in questions(path, faq)]
    asked = [*faq.questions, *held_out]
    floor_db = sqlite3.connect(":memory:")
    floor = timed(lambda: floor_db.execute("SELECT 1").fetchall(), repeat * len(asked))
    first = [timed(partial(faq.search, q.q, game=q.game, lang=q.lang), 1)[0] for q in asked]
    warm = [ms for q in asked for ms in timed(partial(faq.search, q.q, game=q.game, lang=q.lang), repeat)]
    phone = [
        [float(ms) * PHONE_SLOWDOWN for ms in times[1:]] for times in node_search(faq, [(q.game, q.lang, q.q) for q in asked], 10, repeat)
    ]  # type: ignore[union-attr, arg-type]
    print(f"{len(asked)} questions ({len(held_out)} held-out), each timed {repeat}x after one first run")
    print(f"{'':<36} {'median ms':>10} {'p95 ms':>10} {'max ms':>10}")
    rows = [
        ("server, first run", first),
        ("server, repeated", warm),
        ("server, held-out, first run", first[len(faq.questions) :]),
        (f"phone (node x{PHONE_SLOWDOWN}), first run", [times[0] for times in phone]),
        (f"phone (node x{PHONE_SLOWDOWN}), repeated", [ms for times in phone for ms in times[1:]]),
        (f"phone (node x{PHONE_SLOWDOWN}), held-out, first run", [times[0] for times in phone[len(faq.questions) :]]),
        ("floor: SELECT 1", floor),
    ]
    for name, values in rows:
        print(f"{name:<36} {statistics.median(values):>10.3f} {percentile(values, 0.95):>10.3f} {max(values):>10.3f}")
    offline = faq.offline_json.encode()
    print(
        f"offline index: {len(offline) / 1000:,.0f} KB, gzip -9 {len(gzip.compress(offline, 9)) / 1000:,.0f} KB, brotli {len(brotli.compress(offline)) / 1000:,.0f} KB"
    )
    return 0


CHROMIUM_ENCODINGS = "gzip, deflate, br, zstd"
"""What Chromium says it accepts: the server answers with its first choice among them."""
FAQ_CODE = ("faq/*.py", "static/js/faq-offline.js")
"""The FAQ's code: the server's package and the phone's script."""


def report_sizes() -> int:
    """Print the lines of the FAQ's code and what a phone downloads for the FAQ, compressed as the server sends it to Chromium."""
    from app import create_app
    from infra.config import TestConfig
    from views.site.pwa import worker_settings

    files = sorted(path for pattern in FAQ_CODE for path in ROOT.glob(pattern))
    lines = {path: sum(1 for _ in path.open(encoding="utf-8")) for path in files}
    for path, count in lines.items():
        print(f"{count:>6}  {path.relative_to(ROOT)}")
    print(f"{sum(lines.values()):>6}  lines of FAQ code")
    app = create_app(TestConfig)
    client = app.test_client()
    with app.test_request_context():
        settings = worker_settings()
    pages = [str(page) for page in settings["pages"] if "/faq" in str(page)]  # type: ignore[attr-defined]
    script = next(str(entry["url"]) for entry in settings["precache"] if "faq-offline" in str(entry["url"]))  # type: ignore[attr-defined]
    total = 0
    for address in [*pages, script]:
        response = client.get(address, headers={"Accept-Encoding": CHROMIUM_ENCODINGS})
        assert response.status_code == 200, address
        total += len(response.data)
        if "offline-index" in address or address == script:
            print(f"{len(response.data) / 1000:>8,.0f} KB  {address} ({response.headers.get('Content-Encoding', 'plain')})")
    print(f"{total / 1000:>8,.0f} KB  the FAQ as a phone downloads it: {len(pages)} pages and the index kept for offline, and its script")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--eval", action="store_true", help="print top-1/top-3 hit rates, off topic and offline agreement")
    mode.add_argument("--latency", action="store_true", help="print median and p95 question time on the server and in node x4")
    mode.add_argument(
        "--sizes", action="store_true", help="print the lines of the FAQ code and the compressed bytes a phone downloads for it"
    )
    mode.add_argument("--folds", type=int, metavar="N", help="ask each paraphrase of an index built without its fold of N")
    parser.add_argument("--repeat", type=int, default=20, help="timings per question for --latency (default 20)")
    parser.add_argument("--held-out-misses", action="store_true", help="with --eval, list the held-out questions that miss too")
    parser.add_argument("--tuning-only", action="store_true", help="with --eval, measure the tuning set alone (for whoever tunes)")
    args = parser.parse_args(argv)
    if args.folds is not None:
        if args.folds < 2:
            parser.error("--folds: at least 2 folds")
        return report_folds(args.folds)
    if args.sizes:
        return report_sizes()
    start = time.process_time()
    faq = FAQ(CONTENT).warm()
    print(f"index built in {(time.process_time() - start) * 1000:.0f} ms of CPU")
    if args.eval:
        return report_eval(faq, held_out_misses=args.held_out_misses, tuning_only=args.tuning_only)
    return report_latency(faq, args.repeat)


if __name__ == "__main__":
    raise SystemExit(main())
