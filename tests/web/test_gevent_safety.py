"""No database call in an evented worker waits where gevent cannot switch: SQLite writers take turns before they write,
and psycopg waits through gevent's own loop."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

import models.base
from models.base import GatedConnection, configure_engine, write_gate
from tests.waiting import PATIENCE_SECONDS

ROOT = Path(__file__).resolve().parents[2]


def engine_on(database: Path):  # type: ignore[no-untyped-def]
    engine = create_engine(f"sqlite:///{database}")
    configure_engine(engine)
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE IF NOT EXISTS taps (n INTEGER)"))
    return engine


def held_by_another_process(lock_file: Path) -> bool:
    """Return whether the lock file's flock is held, as another process sees it."""
    probe = f"import fcntl, os, sys; fd = os.open({str(lock_file)!r}, os.O_RDWR)\ntry: fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\nexcept BlockingIOError: sys.exit(1)"
    return subprocess.run([sys.executable, "-c", probe], check=False).returncode == 1


def test_an_sqlite_write_holds_the_gate_from_its_first_statement_until_the_commit(tmp_path: Path) -> None:
    engine = engine_on(tmp_path / "tischblock.db")
    lock_file = tmp_path / "tischblock.db-writer"
    with engine.connect() as connection:
        connection.execute(text("SELECT count(*) FROM taps"))
        assert not held_by_another_process(lock_file)
        connection.execute(text("INSERT INTO taps VALUES (1)"))
        assert isinstance(connection.connection.dbapi_connection, GatedConnection)
        assert held_by_another_process(lock_file)
        connection.commit()
        assert not held_by_another_process(lock_file)
        connection.execute(text("INSERT INTO taps VALUES (2)"))
        connection.rollback()
        assert not held_by_another_process(lock_file)
    engine.dispose()


def test_a_writer_waits_for_another_process_by_sleeping_not_inside_sqlite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While another process writes, the gate looks again after ``time.sleep`` (gevent's, in a worker); then the write goes through."""
    engine = engine_on(tmp_path / "tischblock.db")
    other_process = os.open(tmp_path / "tischblock.db-writer", os.O_RDWR | os.O_CREAT)
    fcntl.flock(other_process, fcntl.LOCK_EX)
    naps: list[float] = []
    real_sleep = models.base.time.sleep
    writer = threading.get_ident()

    def nap(seconds: float) -> None:
        if threading.get_ident() == writer:  # time.sleep is everyone's: count only this writer's naps
            naps.append(seconds)
            if len(naps) == 3:
                fcntl.flock(other_process, fcntl.LOCK_UN)
        real_sleep(seconds)

    monkeypatch.setattr(models.base.time, "sleep", nap)
    with engine.begin() as connection:
        connection.execute(text("INSERT INTO taps VALUES (1)"))
    assert len(naps) == 3 and naps == sorted(naps)
    with engine.connect() as connection:
        assert connection.scalar(text("SELECT count(*) FROM taps")) == 1
    os.close(other_process)
    engine.dispose()


def test_writers_of_one_process_take_turns_and_all_get_through(tmp_path: Path) -> None:
    engine = engine_on(tmp_path / "tischblock.db")

    def write() -> None:
        for _ in range(20):
            with engine.begin() as connection:
                connection.execute(text("INSERT INTO taps VALUES (1)"))

    writers = [threading.Thread(target=write) for _ in range(4)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(30)
    with engine.connect() as connection:
        assert connection.scalar(text("SELECT count(*) FROM taps")) == 80
    assert write_gate(str(tmp_path / "tischblock.db")) is write_gate(str(tmp_path / "tischblock.db"))
    engine.dispose()


def test_an_in_memory_database_has_no_gate() -> None:
    engine = create_engine("sqlite://")
    configure_engine(engine)
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE taps (n INTEGER)"))
        connection.execute(text("INSERT INTO taps VALUES (1)"))
        assert connection.connection.dbapi_connection.gate is None  # type: ignore[union-attr]
    engine.dispose()


def test_in_a_patched_worker_the_app_leaves_psycopg_waiting_through_gevent() -> None:
    """A gevent worker patches the standard library before it loads the app; psycopg then never waits in C."""
    script = (
        "from gevent import monkey; monkey.patch_all()\n"
        "from app import create_app\n"
        "create_app({'SQLALCHEMY_DATABASE_URI': 'postgresql+psycopg://nobody@127.0.0.1:1/none', 'SECRET_KEY': 'x'})\n"
        "import psycopg.waiting as waiting\n"
        "print(waiting.wait is not getattr(waiting, 'wait_c', None))\n"
    )
    answer = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=PATIENCE_SECONDS, check=False)
    assert answer.stdout.strip() == "True", answer.stderr[-2000:]
