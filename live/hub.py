"""One listener per process: every open sheet waits on it, and it watches the database once for all of them.

Streams register the game they show and sleep on an in-process event. The listener learns
of changes in three ways: a tap stored by this process announces itself at once (the
``appended`` signal of ``models``); PostgreSQL delivers the NOTIFY that every other process's
taps send, on one LISTEN connection per process; on SQLite one query per tick asks for the
newest version of every watched game. A version is the number of a game's newest event, so it
only ever grows. The listener runs while any stream waits and stops a while after the last one left.

The hub also counts open streams, per process and per client address, so that one client (or a
page reloaded in a loop) cannot take every connection a process has.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from sqlalchemy import Engine, func, select

from models import CHANGES_CHANNEL, Event, appended, db

log = logging.getLogger(__name__)

TICK_SECONDS = 0.025
"""How often SQLite is asked for the versions of the watched games."""
IDLE_SECONDS = 30.0
"""How long the listener stays up after the last stream left, so a reconnect finds it running."""
RETRY_SECONDS = 1.0
"""Pause before the listener tries again after the database failed it."""
NOTIFY_POLL_SECONDS = 1.0
"""How long one wait for a PostgreSQL notification lasts before the listener checks it is still needed."""
LISTENER_NAME = "tischblock-live"
"""How the listener's PostgreSQL session names itself (``pg_stat_activity.application_name``)."""
QUERY_CHUNK = 500
"""Games asked about in one query (SQLite limits the number of parameters)."""


class StreamRefused(Exception):
    """Raised when a process or a client address already holds as many streams as it may."""


def newest_versions(engine: Engine, game_ids: Iterable[int]) -> dict[int, int]:
    """Return the version of each game (0 for a game without events), in as few queries as the list allows."""
    wanted = sorted(set(game_ids))
    found = dict.fromkeys(wanted, 0)
    if not wanted:
        return found
    with engine.connect() as connection:
        for start in range(0, len(wanted), QUERY_CHUNK):
            chunk = wanted[start : start + QUERY_CHUNK]
            rows = connection.execute(
                select(Event.game_id, func.max(Event.seq)).where(Event.game_id.in_(chunk)).group_by(Event.game_id)
            )
            found.update((game_id, int(seq)) for game_id, seq in rows)
    return found


class Hub:
    """The live streams of one app in one process: who waits for which game, and how many streams are open."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.per_process = int(app.config["LIVE_STREAMS_PER_PROCESS"])
        self.per_address = int(app.config["LIVE_STREAMS_PER_ADDRESS"])
        self.tick = float(app.config.get("LIVE_TICK_SECONDS", TICK_SECONDS))
        self._lock = threading.Lock()
        self._open: Counter[str] = Counter()
        self._watchers: Counter[int] = Counter()
        self._versions: dict[int, int] = {}
        self._signals: dict[int, threading.Event] = {}
        self._listener: threading.Thread | None = None
        self._idle_since: float | None = None
        with app.app_context():
            appended.connect(self._appended, sender=db.engine)

    # --- admission ------------------------------------------------------------------------

    def admit(self, address: str) -> None:
        """Count a new stream from ``address``, or raise ``StreamRefused`` when a cap is reached."""
        with self._lock:
            if self._open.total() >= self.per_process:
                raise StreamRefused("this server process holds as many live streams as it may")
            if self._open[address] >= self.per_address:
                raise StreamRefused("this address holds as many live streams as it may")
            self._open[address] += 1

    def leave(self, address: str) -> None:
        """Forget a stream that ended."""
        with self._lock:
            self._open[address] -= 1
            if self._open[address] <= 0:
                del self._open[address]

    def open_streams(self) -> int:
        """Return how many streams this process holds now."""
        with self._lock:
            return self._open.total()

    # --- waiting --------------------------------------------------------------------------

    @contextmanager
    def watching(self, game_id: int, version: int) -> Iterator[None]:
        """Keep a game watched while a stream shows it; ``version`` is what that stream read itself."""
        with self._lock:
            self._watchers[game_id] += 1
            self._versions[game_id] = max(version, self._versions.get(game_id, 0))
            self._idle_since = None
            if self._listener is None:
                self._listener = threading.Thread(target=self._listen, name="tischblock-live", daemon=True)
                self._listener.start()
        try:
            yield
        finally:
            with self._lock:
                self._watchers[game_id] -= 1
                if self._watchers[game_id] <= 0:
                    del self._watchers[game_id]
                    self._versions.pop(game_id, None)
                    self._signals.pop(game_id, None)

    def wait(self, game_id: int, seen: int, timeout: float) -> int | None:
        """Return the game's version as soon as it is past ``seen``, or None after ``timeout`` seconds."""
        with self._lock:
            current = self._versions.get(game_id, 0)
            if current > seen:
                return current
            signal = self._signals.setdefault(game_id, threading.Event())
        signal.wait(timeout)
        with self._lock:
            current = self._versions.get(game_id, 0)
        return current if current > seen else None

    def changed(self, game_id: int, version: int) -> None:
        """Record that a watched game reached ``version`` and wake its streams."""
        with self._lock:
            if game_id not in self._watchers or version <= self._versions.get(game_id, 0):
                return
            self._versions[game_id] = version
            signal = self._signals.pop(game_id, None)
        if signal is not None:
            signal.set()

    def _appended(self, sender: Engine, *, game_id: int, version: int, **extra: Any) -> None:
        """Wake a game's streams the moment this process stores a tap for it."""
        self.changed(game_id, version)

    # --- the listener -----------------------------------------------------------------------

    def _watched(self) -> list[int]:
        with self._lock:
            return list(self._watchers)

    def _needed(self) -> bool:
        """Return whether the listener should go on; it ends itself once no stream has waited for a while."""
        with self._lock:
            if self._watchers:
                self._idle_since = None
                return True
            now = time.monotonic()
            if self._idle_since is None:
                self._idle_since = now
            if now - self._idle_since < IDLE_SECONDS:
                return True
            self._listener = None
            return False

    def _publish(self, versions: dict[int, int]) -> None:
        for game_id, version in versions.items():
            self.changed(game_id, version)

    def _listen(self) -> None:
        """Watch the database for this process until no stream needs it, surviving database failures."""
        with self.app.app_context():
            engine = db.engine
        postgresql = engine.dialect.name == "postgresql"
        connection: Any = None
        try:
            while self._needed():
                try:
                    if postgresql:
                        connection = self._listen_postgresql(engine, connection)
                    else:
                        self._publish(newest_versions(engine, self._watched()))
                        time.sleep(self.tick)
                except Exception:  # the listener must outlive a database restart; streams catch up meanwhile
                    log.exception("live listener: the database failed; trying again in %s s", RETRY_SECONDS)
                    if connection is not None:
                        connection.close()
                        connection = None
                    time.sleep(RETRY_SECONDS)
        finally:
            if connection is not None:
                connection.close()

    def _listen_postgresql(self, engine: Engine, connection: Any) -> Any:
        """Wait once for a NOTIFY on the process's one LISTEN connection (opened if needed); read the versions it names."""
        import psycopg

        if connection is None:
            url = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
            connection = psycopg.connect(url, autocommit=True, application_name=LISTENER_NAME)
            connection.execute(f"LISTEN {CHANGES_CHANNEL}")
            self._publish(_versions_on(connection, self._watched()))  # whatever happened while nobody listened
        notes = connection.notifies(timeout=NOTIFY_POLL_SECONDS, stop_after=1)
        games = {int(note.payload) for note in notes if note.payload.isdigit()}
        with self._lock:
            games &= set(self._watchers)
        if games:
            self._publish(_versions_on(connection, games))
        return connection


def _versions_on(connection: Any, game_ids: Iterable[int]) -> dict[int, int]:
    """Read versions on the listener's own PostgreSQL connection: a busy pool must never hold up every push."""
    wanted = sorted(set(game_ids))
    found = dict.fromkeys(wanted, 0)
    if wanted:
        rows = connection.execute(
            f"SELECT game_id, max(seq) FROM {Event.__tablename__} WHERE game_id = ANY(%s) GROUP BY game_id", (wanted,)
        )
        found.update((int(game_id), int(seq)) for game_id, seq in rows)
    return found


def hub_of(app: Flask) -> Hub:
    """Return the app's hub in this process, creating it on first use (after the server forked its workers)."""
    hub = app.extensions.get("tischblock_live")
    if hub is None:
        with _CREATING:
            hub = app.extensions.get("tischblock_live")
            if hub is None:
                hub = app.extensions["tischblock_live"] = Hub(app)
    assert isinstance(hub, Hub)
    return hub


_CREATING = threading.Lock()
