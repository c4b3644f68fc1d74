"""What a tap costs as the database grows: 1, 1,000 and 100,000 stored games, a game of 2,000 events, a long evening.

    .venv/bin/python bench/growth.py
    .venv/bin/python bench/growth.py --taps 60

One phone taps a game's sheet as htmx does (the Happy-Man figure changes hands; the answer is
the re-rendered sheet), one tap after another, on the production server (two gevent workers,
SQLite). The floor is the same tap on a second server whose database holds one game; the taps
alternate between the two, so both see the same moments of a busy machine, and each figure
is the ratio of the two medians. Stored games are written straight into the database (each
with three players and six changes), as a busy year of card tables would leave them; the game
of 2,000 events is 2,000 Happy-Man handovers. The long evening is imported as a table's phone
would import it: 19 finished games and a 20th being played; its floor is not the second server
but the first game of another evening on the same server, tapped in turn with it.
"""

from __future__ import annotations

import argparse
import re
import secrets
import statistics
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.goals import report as report_goal  # noqa: E402
from testbed.servers import GunicornServer, migrate, sqlite_url  # noqa: E402

PLAYERS = ["Anna", "Ben", "Cleo"]
CSRF = re.compile(r'name="csrf-token" content="([^"]+)"')
SEEN = re.compile(r'name="seen" value="(\d+)"')
BATCH = 10_000
STORED_GOAL = 1.5
LONG_GAME_GOAL = 1.2
EVENING_GOAL = 1.1
EARLIER_GAMES = 19
FINISHED_ROUND = {
    "finisher": "Ben",
    "golden12": 1,
    "happy_man": "Cleo",
    "passes": {"Anna": 1},
    "hands": {"Anna": {"points": 10}, "Cleo": {"points": 5}},
}
"""A round of a finished game of an imported evening: Anna passes once, Ben ends it, Anna keeps 10 points, Cleo 5."""


def store_games(database_url: str, count: int) -> None:
    """Write ``count`` finished-looking games straight into the database: three players, six pass crosses each."""
    from sqlalchemy import create_engine, func, insert, select

    from models import Event, Game, Player

    engine = create_engine(database_url)
    now = datetime.now(UTC)
    with engine.begin() as connection:
        first = int(connection.scalar(select(func.coalesce(func.max(Game.id), 0))) or 0) + 1
        for start in range(first, first + count, BATCH):
            ids = range(start, min(start + BATCH, first + count))
            connection.execute(
                insert(Game),
                [
                    {
                        "id": i,
                        "token": secrets.token_urlsafe(24),
                        "read_token": secrets.token_urlsafe(24),
                        "kind": "auruxxx",
                        "variant": "standard",
                        "house_rules": {},
                        "first_dealer": 0,
                        "created_at": now,
                    }
                    for i in ids
                ],
            )
            connection.execute(insert(Player), [{"game_id": i, "seat": s, "name": n} for i in ids for s, n in enumerate(PLAYERS)])
            connection.execute(
                insert(Event),
                [
                    {
                        "game_id": i,
                        "seq": 2 * s + c + 1,
                        "kind": "pass",
                        "payload": {"round": 0, "player": n},
                        "device": None,
                        "created_at": now,
                        "idempotency_key": uuid.uuid4().hex,
                    }
                    for i in ids
                    for s, n in enumerate(PLAYERS)
                    for c in range(2)
                ],
            )
    engine.dispose()


def long_game(database_url: str, token: str, events: int) -> None:
    """Give the game at ``token`` a history of ``events`` Happy-Man handovers."""
    from sqlalchemy import create_engine, insert, select

    from models import Event, Game

    engine = create_engine(database_url)
    now = datetime.now(UTC)
    with engine.begin() as connection:
        game_id = connection.scalar(select(Game.id).where(Game.token == token))
        connection.execute(
            insert(Event),
            [
                {
                    "game_id": game_id,
                    "seq": seq,
                    "kind": "happy_man",
                    "payload": {"round": 0, "player": PLAYERS[seq % 3]},
                    "device": None,
                    "created_at": now,
                    "idempotency_key": uuid.uuid4().hex,
                }
                for seq in range(1, events + 1)
            ],
        )
    engine.dispose()


def evening_game(server: GunicornServer, earlier: int) -> str:
    """Import an evening of ``earlier`` finished AURUXXX games and a new one, as a table's phone would; return the new one's token."""
    finished = {"game": "auruxxx", "players": PLAYERS, "rounds": [FINISHED_ROUND] * 3}
    games = [finished] * earlier + [{"game": "auruxxx", "players": PLAYERS, "rounds": []}]
    answer = requests.post(f"{server.base}/import", json={"evening": {"table": "Küchentisch"}, "games": games}, timeout=60)
    assert answer.status_code == 201, answer.text[-300:]
    return str(answer.headers["Location"]).rsplit("/g/", 1)[1]


def new_game(database_url: str) -> str:
    """Start a game the way the app does and return its edit token."""
    from app import create_app
    from views.table.starting import create_game

    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "bench"})
    with app.app_context():
        return create_game({"game": "auruxxx", "players": PLAYERS, "house_rules": {}}).token


class Phone:
    """A phone with one game's sheet open, tapping it as htmx does."""

    def __init__(self, server: GunicornServer, token: str) -> None:
        self.url = f"{server.base}/g/{token}"
        self.session = requests.Session()
        page = self.session.get(self.url, timeout=30).text
        found = CSRF.search(page)
        assert found is not None
        self.csrf = found.group(1)
        self.seen = self.newest(page)
        self.taps = 0

    @staticmethod
    def newest(sheet: str) -> int:
        """Return the newest change a sheet shows, which the phone's next tap says it saw (``seen``)."""
        return max(int(value) for value in SEEN.findall(sheet))

    def tap(self) -> float:
        """Hand the figure on and return the round trip in milliseconds."""
        self.taps += 1
        form = {"csrf_token": self.csrf, "key": uuid.uuid4().hex, "round": 0, "player": PLAYERS[self.taps % 3], "seen": self.seen}
        started = time.perf_counter()
        answer = self.session.post(f"{self.url}/happy-man", data=form, headers={"HX-Request": "true"}, timeout=30)
        took = (time.perf_counter() - started) * 1000
        assert answer.status_code == 200, answer.status_code
        self.seen = self.newest(answer.text)
        return took


def tap_costs(floor: Phone, phone: Phone, taps: int) -> tuple[float, float]:
    """Tap both phones in turn ``taps`` times (after two warm-up rounds); return the two medians in milliseconds."""
    floors, costs = [], []
    for index in range(taps + 2):
        first, second = floor.tap(), phone.tap()
        if index >= 2:
            floors.append(first)
            costs.append(second)
    return statistics.median(floors), statistics.median(costs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--taps", type=int, default=40, help="taps timed per figure (default 40)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tischblock-bench-") as folder:
        floor_url, url = sqlite_url(Path(folder) / "floor.db"), sqlite_url(Path(folder) / "tischblock.db")
        migrate(floor_url)
        migrate(url)
        floor_server = GunicornServer(floor_url, Path(folder) / "floor.log").start()
        server = GunicornServer(url, Path(folder) / "gunicorn.log").start()
        try:
            floor = Phone(floor_server, new_game(floor_url))
            figures: list[tuple[str, float, float]] = []
            figures.append(("1 stored game", *tap_costs(floor, Phone(server, new_game(url)), args.taps)))
            store_games(url, 999)
            figures.append(("1,000 stored games", *tap_costs(floor, Phone(server, new_game(url)), args.taps)))
            store_games(url, 99_000)
            figures.append(("100,000 stored games", *tap_costs(floor, Phone(server, new_game(url)), args.taps)))
            token = new_game(url)
            long_game(url, token, 2_000)
            figures.append(("a game of 2,000 events", *tap_costs(floor, Phone(server, token), args.taps)))
            first_of_evening = Phone(server, evening_game(server, 0))
            later = Phone(server, evening_game(server, EARLIER_GAMES))
            figures.append((f"the {EARLIER_GAMES + 1}th game of an evening", *tap_costs(first_of_evening, later, args.taps)))
        finally:
            server.stop()
            floor_server.stop()
    print(f"\nTap cost as the database grows (SQLite, gunicorn 2 gevent workers; medians of {args.taps} taps each,")
    print("alternating with the floor: the same tap on a second server whose database holds one game)")
    for name, floor_ms, median in figures:
        print(f"  {name:30s} {median:7.1f} ms   floor {floor_ms:7.1f} ms   {median / floor_ms:5.2f}×")
    stored = max(m / f for name, f, m in figures if "stored" in name)
    report_goal(
        "growth",
        f"a tap flat within {STORED_GOAL}× as the database grows to 100,000 games",
        f"{stored:.2f}×",
        "a database of one game",
        stored <= STORED_GOAL,
    )
    long_name, long_floor, long_median = next(figure for figure in figures if "events" in figure[0])
    long_ratio = long_median / long_floor
    report_goal(
        "growth",
        f"a tap in {long_name} ≤ {LONG_GAME_GOAL}× one in a new game",
        f"{long_ratio:.2f}× ({long_median:.1f} ms)",
        f"a new game {long_floor:.1f} ms",
        long_ratio <= LONG_GAME_GOAL,
    )
    late_name, first_ms, late_ms = figures[-1]
    evening_ratio = late_ms / first_ms
    report_goal(
        "growth",
        f"a tap in {late_name} ≤ {EVENING_GOAL}× one in its first game",
        f"{evening_ratio:.2f}× ({late_ms:.1f} ms)",
        f"the first game of an evening {first_ms:.1f} ms",
        evening_ratio <= EVENING_GOAL,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
