"""What the table's statistics page costs at a table of 1,000 games, against one of 10 and against /healthz.

    .venv/bin/python bench/table_statistics.py
    .venv/bin/python bench/table_statistics.py --runs 60 --games 1000

Two tables of one SQLite database, each a chain of finished games (AURUXXX and 12 Days in
turn, three to five players from a group of eight, three games a Friday), are stored as
imported records; a 1,000-game table is twenty years of Fridays. The page is asked for as a
phone asks for it (the app in this process, through Flask's test client), the two tables and
the floor, ``/healthz``, in turn, so all three see the same moments of a busy machine; each
figure is a median, and the ratios are of medians. The goal: the page of the 1,000-game table
costs at most 1.5 times the page of the 10-game table. The first look at each table (nothing
kept yet, every game read and folded) is shown beside it, once: it is what a process pays
after it starts, not what a phone waits for on a Friday.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import flask_migrate  # noqa: E402
from flask.testing import FlaskClient  # noqa: E402

from app import create_app  # noqa: E402
from bench.goals import report as report_goal  # noqa: E402
from infra.config import TestConfig  # noqa: E402
from models import CardTable, Event, Game, Player, db  # noqa: E402
from rules import record  # noqa: E402
from rules.games import rules_of  # noqa: E402

GROUP = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz", "Gabi", "Hans"]
GOAL = 1.5
"""The most the 1,000-game table's page may cost against the 10-game table's."""


def auruxxx_record(number: int, players: list[str]) -> dict[str, Any]:
    """Return a finished AURUXXX game: each round ended by another player, the figure with the next, a cross or two."""
    rounds = []
    for index in range(3):
        finisher = players[(number + index) % len(players)]
        holder = players[(number + index + 1) % len(players)]
        hands = {player: {"points": (7 * number + 3 * seat + index) % 40} for seat, player in enumerate(players) if player != finisher}
        rounds.append({"finisher": finisher, "golden12": 1 + index % 2, "happy_man": holder, "passes": {holder: 1}, "hands": hands})
    return {"game": "auruxxx", "players": players, "rounds": rounds}


def twelve_days_record(number: int, players: list[str]) -> dict[str, Any]:
    """Return a finished 12 Days game entered quickly (who took each day) with everyone's final hand from one deck."""
    days = [{"taken_by": players[(number + day) % len(players)] if (number + day) % 5 else None} for day in range(12)]
    deck = [value for value in range(1, 13) for _ in range(value)]
    hands = {player: deck[12 * seat : 12 * seat + 12] for seat, player in enumerate(players)}
    return {"game": "12days", "players": players, "days": days, "hands": hands}


def store_table(games: int) -> tuple[str, str]:
    """Store a table of ``games`` finished games, three a Friday, as imports; return its newest game's edit and read tokens."""
    table = CardTable(name=f"{games} games")
    previous: Game | None = None
    first = datetime(2006, 1, 6, 19, tzinfo=UTC)
    for number in range(games):
        size = 3 + number % 3
        players = [GROUP[(number + seat * 3) % len(GROUP)] for seat in range(size)]
        raw = auruxxx_record(number, players) if number % 2 == 0 else twelve_days_record(number, players)
        parsed = record.parse(raw)
        started = first + timedelta(days=7 * (number // 3), minutes=50 * (number % 3))
        game = Game.from_setup(record.setup(parsed), previous_id=previous.id if previous else None, created_at=started)
        game.card_table = table
        game.players = [Player(seat=seat, name=name) for seat, name in enumerate(players)]
        db.session.add(game)
        db.session.flush()
        finished, _ = rules_of(parsed).split_open(parsed)
        db.session.add(
            Event(
                game_id=game.id,
                seq=1,
                kind="import",
                payload={"record": record.serialise(finished)},
                created_at=started + timedelta(minutes=40),
                idempotency_key=f"import-{game.id}",
            )
        )
        previous = game
    db.session.commit()
    assert previous is not None and previous.read_token is not None
    return previous.token, previous.read_token


def timed(client: FlaskClient, url: str) -> float:
    """Return the seconds one answer took, checking that it is a page."""
    start = time.perf_counter()
    response = client.get(url, headers={"Accept-Language": "de"})
    elapsed = time.perf_counter() - start
    assert response.status_code == 200, (url, response.status_code)
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=40, help="answers of each page and of the floor (default 40)")
    parser.add_argument("--games", type=int, default=1000, help="games at the large table (default 1000)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:

        class BenchDatabase(TestConfig):
            SQLALCHEMY_DATABASE_URI = f"sqlite:///{Path(folder) / 'bench.db'}"

        app = create_app(BenchDatabase)
        with app.app_context():
            flask_migrate.upgrade()
            tables = {10: store_table(10), args.games: store_table(args.games)}
        client = app.test_client()
        urls = {size: f"/g/{read}/statistics" for size, (_, read) in tables.items()}
        first = {size: timed(client, url) for size, url in urls.items()}
        answers: dict[int, list[float]] = {size: [] for size in urls}
        floors: list[float] = []
        for _ in range(args.runs):
            for size, url in urls.items():
                answers[size].append(timed(client, url))
            floors.append(timed(client, "/healthz"))
    floor = statistics.median(floors)
    medians = {size: statistics.median(times) for size, times in answers.items()}
    print(f"\nThe statistics page (medians of {args.runs} answers each, in turn with /healthz; the app in this process)")
    print(f"  /healthz (floor)          {floor * 1000:7.2f} ms")
    for size, median in medians.items():
        print(
            f"  table of {size:5d} games     {median * 1000:7.2f} ms   {median / floor:6.1f}× the floor"
            f"   (first look {first[size] * 1000:8.1f} ms)"
        )
    ratio = medians[args.games] / medians[10]
    report_goal(
        "table_statistics",
        f"the statistics of a {args.games:,d}-game table ≤ {GOAL}× those of a 10-game one",
        f"{ratio:.2f}× ({medians[args.games] * 1000:.1f} ms)",
        f"10 games {medians[10] * 1000:.1f} ms, /healthz {floor * 1000:.2f} ms",
        ratio <= GOAL,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
