"""A tap the server acknowledged survives gunicorn being killed mid-burst, and the database stays sound.

SIGKILL of the master and both workers at once (their process group) is the harshest end a
server process can meet short of the machine losing power: no handler runs, no connection is
closed cleanly. Whatever got a 303 before must be in the history after a restart.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
import requests
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from models import Event, Game
from rules.games import TableEvent
from rules.history import fold
from testbed.phones import Phone, new_auruxxx_game
from testbed.servers import GunicornServer

pytestmark = pytest.mark.system

PLAYERS = ["Anna", "Ben", "Cleo", "Dana"]
TAPPERS = 4
ACKNOWLEDGED_BEFORE_KILL = 20
"""The kill comes once this many taps were acknowledged, so it always lands mid-burst, however busy the machine."""
BURST_DEADLINE_SECONDS = 60


def test_acknowledged_taps_survive_killing_every_server_process(database_url: str, engine: Engine, tmp_path: Path) -> None:
    log = tmp_path / "gunicorn.log"
    server = GunicornServer(database_url, log).start()
    restarted: GunicornServer | None = None
    try:
        host = Phone(server.base)
        token = new_auruxxx_game(host, PLAYERS)
        phones = [Phone(server.base) for _ in range(TAPPERS)]
        for phone in phones:
            phone.get(f"/g/{token}")
        acknowledged: list[str] = []
        unexpected: list[int] = []
        killed = threading.Event()
        burst_ran = threading.Event()
        lock = threading.Lock()

        def tap(index: int) -> None:
            phone, count = phones[index], 0
            while not killed.is_set():
                key = f"burst-{index}-{count}"
                count += 1
                try:
                    handover = {"round": 0, "player": PLAYERS[count % len(PLAYERS)], "seen": phone.seen(token)}
                    answer = phone.post(f"/g/{token}/happy-man", handover, key=key)
                except requests.RequestException:
                    continue  # in flight when the server died (or refused after): not acknowledged
                with lock:
                    if answer.status_code in (200, 303):
                        acknowledged.append(key)
                        if len(acknowledged) >= ACKNOWLEDGED_BEFORE_KILL:
                            burst_ran.set()
                    elif answer.status_code != 409 and not killed.is_set():  # 409: another phone's handover came first, nothing stored
                        unexpected.append(answer.status_code)

        threads = [threading.Thread(target=tap, args=(index,)) for index in range(TAPPERS)]
        for thread in threads:
            thread.start()
        burst_ran.wait(BURST_DEADLINE_SECONDS)
        server.kill_hard()
        killed.set()
        for thread in threads:
            thread.join(30)
        assert not unexpected
        assert len(acknowledged) >= ACKNOWLEDGED_BEFORE_KILL, "the burst hardly ran before the kill"

        restarted = GunicornServer(database_url, tmp_path / "restarted.log").start()
        with engine.connect() as connection:
            stored = set(connection.scalars(select(Event.idempotency_key).join(Game, Game.id == Event.game_id).where(Game.token == token)))
        lost = [key for key in acknowledged if key not in stored]
        assert not lost, f"{len(lost)} of {len(acknowledged)} acknowledged taps are missing: {lost[:5]}"

        phone = Phone(restarted.base)
        assert phone.get(f"/g/{token}").status_code == 200
        assert phone.post(f"/g/{token}/pass", {"round": 0, "player": "Anna"}).status_code == 303
        assert_database_sound(database_url, engine)
    finally:
        server.stop()
        if restarted is not None:
            restarted.stop()


def assert_database_sound(database_url: str, engine: Engine) -> None:
    """SQLite's own integrity check passes; every game's events are numbered 1..n and fold."""
    if database_url.startswith("sqlite:///"):
        connection = sqlite3.connect(database_url.removeprefix("sqlite:///"))
        try:
            assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
        finally:
            connection.close()
    with Session(engine) as session:
        numbering = session.execute(
            select(Event.game_id, func.count(), func.min(Event.seq), func.max(Event.seq)).group_by(Event.game_id)
        ).all()
        for game_id, count, first, last in numbering:
            assert (first, last) == (1, count), f"game {game_id}: seq {first}..{last} for {count} events"
        for game in session.scalars(select(Game)):
            rows = session.execute(select(Event.seq, Event.kind, Event.payload).where(Event.game_id == game.id).order_by(Event.seq))
            fold(game.setup, [TableEvent(seq, kind, payload) for seq, kind, payload in rows])
