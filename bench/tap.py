"""The CPU time one htmx tap costs the app, in-process, split into its store, its render and the rest of its answer.

    .venv/bin/python bench/tap.py
    .venv/bin/python bench/tap.py --taps 400 --databases sqlite --profile 25

A busy shared machine spoils wall-clock figures; the CPU time a thread spends it moves far
less (caches and clock rates still vary with the load, so read the ratio to the floor): each
request is timed with ``time.thread_time`` (the CPU of this thread only, not of the waits for
a core, a disk or a database server), through the app's own test client, on an SQLite file in
WAL mode as deployed (every commit flushed) and on a throwaway PostgreSQL cluster. Two games
are tapped as a table taps them in the middle of an evening: AURUXXX in its third round (the
Happy-Man figure handed on) and 12 Days on its seventh day (a card revealed, then changed).
Each tap's CPU is split where the app's own functions begin and end: the store
(``append_events``: read, check, insert, commit), the render and announcement of the pushed
sheet after the commit (``publish``) and the answer (the rest of the request: lookup, view, response). The floor is
a ``GET /healthz`` through the same client, alternating with the taps, so both see the same
moments; every figure is a median, and the tap's is also given as a ratio to the floor.
With ``--profile N`` the taps run once more under cProfile and its top N entries are printed.
"""

from __future__ import annotations

import argparse
import gzip
import re
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cProfile  # noqa: E402
import pstats  # noqa: E402

from flask import Flask  # noqa: E402
from flask.testing import FlaskClient  # noqa: E402
from werkzeug.test import TestResponse  # noqa: E402

from bench.goals import report as report_goal  # noqa: E402
from testbed.servers import PostgresCluster, migrate, sqlite_url  # noqa: E402

PLAYERS = ["Anna", "Ben", "Cleo", "Dora"]
CSRF = re.compile(r'name="csrf-token" content="([^"]+)"')
FORM_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
SEEN = re.compile(r'name="seen" value="(\d+)"')
HTMX = {"HX-Request": "true", "Accept-Language": "de", "Accept-Encoding": "gzip"}
WARM_UP = 20
TAP_CPU_GOAL_MS = 4.0
TAP_FLOOR_GOAL = 2.5
"""A tap's CPU: at most 4 ms, about 2.5 times a ``/healthz`` (the ratio is what a busy machine cannot bend)."""
"""Taps of each game before the timed ones: caches filled, templates compiled, connections open."""


class Phone:
    """One phone with a game's sheet open, posting its forms as htmx does."""

    def __init__(self, client: FlaskClient, token: str) -> None:
        self.client = client
        self.url = f"/g/{token}"
        page = text(client.get(self.url, headers=HTMX))
        found = CSRF.search(client.get(self.url, headers={"Accept-Language": "de"}).get_data(as_text=True))
        assert found is not None
        self.csrf = found.group(1)
        self.seen = newest(page)

    def post(self, route: str, **fields: str) -> str:
        """Send a tap made on the newest sheet this phone saw; return the answer, a sheet or nothing (it must count)."""
        form = {"csrf_token": self.csrf, "key": uuid.uuid4().hex, "seen": str(self.seen), **fields}
        answer = self.client.post(f"{self.url}/{route}", data=form, headers=HTMX)
        assert answer.status_code in (200, 204), (route, fields, answer.status_code, text(answer)[-500:])
        return text(answer)

    def look(self) -> None:
        """Read the sheet again, as the phone's stream would have shown it after a form that answers elsewhere."""
        self.seen = newest(text(self.client.get(self.url, headers=HTMX)))


def text(answer: TestResponse) -> str:
    """Return an answer's text, gunzipped if it came compressed (a phone asks for gzip)."""
    data = answer.get_data()
    return (gzip.decompress(data) if answer.headers.get("Content-Encoding") == "gzip" else data).decode()


def newest(sheet: str) -> int:
    """Return the newest change a sheet shows: what the phone's next tap says it saw (``seen``)."""
    return max(int(value) for value in SEEN.findall(sheet))


def start(client: FlaskClient, kind: str, **fields: str) -> str:
    """Start a game through the new-game form and return its edit token."""
    page = client.get(f"/new/{kind}", headers={"Accept-Language": "de"}).get_data(as_text=True)
    found = FORM_CSRF.search(page)
    assert found is not None
    answer = client.post(f"/new/{kind}", data={"csrf_token": found.group(1), "player": PLAYERS, "action": "start", **fields})
    assert answer.status_code == 303, answer.get_data(as_text=True)[-500:]
    return str(answer.headers["Location"]).removeprefix("/g/")


def auruxxx_in_third_round(client: FlaskClient) -> Callable[[int], None]:
    """Play two AURUXXX rounds; return the tap of the third: the Happy-Man figure handed on round the table."""
    phone = Phone(client, start(client, "auruxxx"))
    for index in range(2):
        phone.seen = newest(phone.post("pass", player="Anna", round=str(index)))
        phone.post("finish", player="Ben", round=str(index), golden12="1")
        for seat, points in ((0, "10"), (2, "5"), (3, "0")):
            phone.look()
            phone.post(f"hand/{seat}", round=str(index), action="save-points", points=points)
        phone.look()

    def tap(number: int) -> None:
        phone.seen = newest(phone.post("happy-man", player=PLAYERS[number % len(PLAYERS)], round="2"))

    return tap


def twelve_days_on_seventh_day(client: FlaskClient) -> Callable[[int], None]:
    """Record six 12 Days days; return the tap of the seventh: Anna's revealed card, changed again and again."""
    phone = Phone(client, start(client, "12days", variant="standard"))
    for day in range(6):
        phone.seen = newest(phone.post("taken", day=str(day), player=PLAYERS[day % len(PLAYERS)]))

    def tap(number: int) -> None:
        phone.seen = newest(phone.post("card", day="6", player="Anna", card=("3", "5")[number % 2]))

    return tap


@dataclass
class Split:
    """The CPU seconds of the parts of the request being timed, as the app's functions spend them."""

    store: float = 0.0
    render: float = 0.0

    def reset(self) -> None:
        self.store = self.render = 0.0


@dataclass
class Parts:
    """The CPU in milliseconds of every timed tap of one game, whole and by part."""

    tap: list[float] = field(default_factory=list)
    store: list[float] = field(default_factory=list)
    render: list[float] = field(default_factory=list)
    answer: list[float] = field(default_factory=list)


@dataclass
class Figures:
    """Every timed tap's CPU, by game (a 12 Days sheet costs more to render than an AURUXXX one), and the floor's."""

    games: dict[str, Parts] = field(default_factory=dict)
    floor: list[float] = field(default_factory=list)

    def tap(self) -> float:
        """Return a tap's CPU in milliseconds, either game alike: the mean of the two games' medians (the median of both mixed falls between them)."""
        return statistics.mean(statistics.median(parts.tap) for parts in self.games.values())


@contextmanager
def timing_parts(split: Split) -> Iterator[None]:
    """Count the CPU of the store and the render of every tap meanwhile, wrapping the functions the app calls."""
    from models import append_events
    from views.table import taps

    publish = taps.publish

    def timed_append(*args: Any, **kwargs: Any) -> Any:
        began = time.thread_time()
        try:
            return append_events(*args, **kwargs)
        finally:
            split.store += time.thread_time() - began

    def timed_publish(*args: Any, **kwargs: Any) -> Any:
        began = time.thread_time()
        try:
            return publish(*args, **kwargs)
        finally:
            split.render += time.thread_time() - began

    taps.append_events = timed_append  # the names the tap views call them by
    taps.publish = timed_publish
    try:
        yield
    finally:
        taps.append_events = append_events
        taps.publish = publish


def app_on(database_url: str) -> Flask:
    """Build the app as a host runs it (production settings) on a migrated database."""
    from app import create_app

    migrate(database_url)
    return create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "bench"})


def measure(app: Flask, taps: int, profile: int) -> Figures:
    """Tap both games in turn, each tap followed by the floor; return the CPU figures (and print a profile if asked)."""
    client = app.test_client()
    games = {"AURUXXX": auruxxx_in_third_round(client), "12 Days": twelve_days_on_seventh_day(client)}
    for number in range(WARM_UP):
        for tap in games.values():
            tap(number)
            client.get("/healthz")
    split, figures = Split(), Figures()
    with timing_parts(split):
        for number in range(taps):
            name, tap = list(games.items())[number % len(games)]
            split.reset()
            began = time.thread_time()
            tap(WARM_UP + number)
            took = time.thread_time() - began
            began = time.thread_time()
            assert client.get("/healthz").status_code == 200
            figures.floor.append((time.thread_time() - began) * 1000)
            parts = figures.games.setdefault(name, Parts())
            parts.tap.append(took * 1000)
            parts.store.append(split.store * 1000)
            parts.render.append(split.render * 1000)
            parts.answer.append((took - split.store - split.render) * 1000)
    if profile:
        profiler = cProfile.Profile(time.thread_time)
        profiler.enable()
        for number in range(taps):
            list(games.values())[number % len(games)](WARM_UP + taps + number)
        profiler.disable()
        stats = pstats.Stats(profiler)
        stats.sort_stats("tottime").print_stats(profile)
        stats.sort_stats("cumulative").print_stats(profile)
    return figures


def report(name: str, figures: Figures) -> tuple[float, float]:
    """Print one database's medians, per game and for a tap of either; return the latter and the floor's."""
    tap, floor = figures.tap(), statistics.median(figures.floor)
    print(f"  {name}: floor GET /healthz {floor:.2f} ms; a tap of either game {tap:.2f} ms, {tap / floor:.1f}× the floor")
    for game, parts in figures.games.items():
        split = " / ".join(f"{statistics.median(values):.2f}" for values in (parts.store, parts.render, parts.answer))
        median = statistics.median(parts.tap)
        print(
            f"    {game:8s} tap {median:6.2f} ms ({median / floor:4.1f}× the floor)   store / render / answer {split} ms   ({len(parts.tap)} taps)"
        )
    return tap, floor


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--taps", type=int, default=300, help="timed taps per database, half in each game (default 300)")
    parser.add_argument("--databases", nargs="+", choices=("sqlite", "postgresql"), default=["sqlite", "postgresql"])
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="profile the taps once more and print the top N entries")
    args = parser.parse_args()
    results: dict[str, Figures] = {}
    with tempfile.TemporaryDirectory(prefix="tischblock-bench-") as folder:
        if "sqlite" in args.databases:
            results["SQLite"] = measure(app_on(sqlite_url(Path(folder) / "tischblock.db")), args.taps, args.profile)
        if "postgresql" in args.databases:
            if not PostgresCluster.available():
                print("PostgreSQL 15 is not installed: `make postgresql`")
                return 1
            cluster = PostgresCluster()
            try:
                cluster.start()
                results["PostgreSQL"] = measure(app_on(cluster.url), args.taps, args.profile)
            finally:
                cluster.stop()
    print("\nCPU time of one htmx tap, in-process (thread CPU, medians; AURUXXX's third round and 12 Days' seventh day in turn)")
    medians = {name: report(name, figures) for name, figures in results.items()}
    for name, (tap, floor) in medians.items():
        report_goal(
            "tap",
            f"{name}: worker CPU per tap ≤ {TAP_CPU_GOAL_MS:.0f} ms, ≤ {TAP_FLOOR_GOAL}× a /healthz",
            f"{tap:.2f} ms, {tap / floor:.1f}×",
            f"/healthz {floor:.2f} ms",
            tap / floor <= TAP_FLOOR_GOAL,
        )
    if {"SQLite", "PostgreSQL"} <= medians.keys():
        (sqlite_tap, sqlite_floor), (pg_tap, pg_floor) = medians["SQLite"], medians["PostgreSQL"]
        ratio = (pg_tap / pg_floor) / (sqlite_tap / sqlite_floor)
        print(f"  PostgreSQL against SQLite: {pg_tap / sqlite_tap:.2f}× the CPU per tap ({ratio:.2f}× in floors of each)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
