"""One listener per process: every open sheet waits on it, and it watches the database once for all of them.

Streams register the game they show and sleep on an in-process event. The listener learns
of changes in three ways: a tap stored by this process announces itself at once (the
``appended`` signal of ``models``); PostgreSQL delivers the NOTIFY that every other process's
taps send (the game and its new version), on one LISTEN connection per process; on SQLite one
query per tick asks for the events stored since the last one it saw (the events' own ascending
id), so a tick costs what changed, not how many games are open. A change carries its pushed sheet
when the process that stored it rendered one (``models.shipped``): the listener keeps it for the
streams it wakes (``Pushes.offer``), so they push it without rendering it again. A version is the
number of a game's newest event, so it only ever grows. The listener runs while any stream waits
and stops a while after the last one left.

While it runs, the listener sees every change, so it knows the version of every game it has
seen change or be watched since it started: a reconnecting stream is told its game's version
without asking the database.

The hub also counts open streams, per process and per client address, so that one client (or a
page reloaded in a loop) cannot take every connection a process has.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Flask
from sqlalchemy import Engine, and_, func, select

from live.push import Message, Pushes, Update
from models import CHANGES_CHANNEL, Event, Shipped, ShippedSheet, appended, db
from models.shipped import read_notice

log = logging.getLogger(__name__)

IDLE_SECONDS = 30.0
"""How long the listener stays up after the last stream left, so a reconnect finds it running."""
RETRY_SECONDS = 1.0
"""Pause before the listener tries again after the database failed it."""
NOTIFY_POLL_SECONDS = 1.0
"""How long the listener waits for PostgreSQL notifications before it checks it is still needed."""
LISTENER_NAME = "tischblock-live"
"""How the listener's PostgreSQL session names itself (``pg_stat_activity.application_name``)."""
QUERY_CHUNK = 500
"""Games asked about in one query when the listener catches up (SQLite limits the number of parameters)."""
EVENTS_PER_TICK = 1000
"""Events one tick reads at most; a tick that found that many looks again at once."""
SHEET_WAIT_SECONDS = 1.0
"""How long a listener waits for the pushed sheet a change's own process renders after storing it, before it renders the sheet
itself: far longer than a render takes, short enough that a change whose process died on the way still reaches every phone."""
VERSIONS_KEPT = 20_000
"""Games whose version the listener remembers beyond the watched ones: the reconnects of a busy evening."""


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
            rows = connection.execute(select(Event.game_id, func.max(Event.seq)).where(Event.game_id.in_(chunk)).group_by(Event.game_id))
            found.update((game_id, int(seq)) for game_id, seq in rows)
    return found


def events_after(engine: Engine, last_id: int) -> list[tuple[int, int, int, Shipped | None, datetime]]:
    """Return (id, game, version, pushed sheet, when stored) of the events stored after event ``last_id``, oldest first, at most a tick's worth.

    On SQLite, ids are handed out by the one writer at a time, so a later commit never has a
    smaller id: nothing is skipped. A pushed sheet stored with the event comes in the same query.
    """
    shipped = and_(ShippedSheet.game_id == Event.game_id, ShippedSheet.version == Event.seq)
    with engine.connect() as connection:
        rows = connection.execute(
            select(Event.id, Event.game_id, Event.seq, ShippedSheet.address, ShippedSheet.language, ShippedSheet.deflated, Event.created_at)
            .outerjoin(ShippedSheet, shipped)
            .where(Event.id > last_id)
            .order_by(Event.id)
            .limit(EVENTS_PER_TICK)
        )
        return [
            (int(event_id), int(game_id), int(seq), None if deflated is None else Shipped(address, language, deflated), stored)
            for event_id, game_id, seq, address, language, deflated, stored in rows
        ]


def _aware(moment: datetime) -> datetime:
    """Return a stored moment as an aware UTC datetime (SQLite hands back naive UTC ones)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def newest_event_id(engine: Engine) -> int:
    """Return the id of the newest stored event (0 for none): where the listener starts reading."""
    with engine.connect() as connection:
        return int(connection.scalar(select(func.coalesce(func.max(Event.id), 0))) or 0)


class Hub:
    """The live streams of one app in one process: who waits for which game, and how many streams are open."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.per_process = int(app.config["LIVE_STREAMS_PER_PROCESS"])
        self.per_address = int(app.config["LIVE_STREAMS_PER_ADDRESS"])
        self.tick = float(app.config["LIVE_TICK_SECONDS"])
        self._lock = threading.Lock()
        self._open: Counter[str] = Counter()
        self._watchers: Counter[int] = Counter()
        self._versions: dict[int, int] = {}
        """The version of every watched game, as this process last heard."""
        self._known: OrderedDict[int, int] = OrderedDict()
        """Versions of games seen since the listener started, watched or not (trusted only while ``_caught_up``)."""
        self._caught_up = False
        self._signals: dict[int, threading.Event] = {}
        self._awaited: dict[int, tuple[int, float]] = {}
        """Watched games whose change's sheet is on its way: (version, when to stop waiting for it)."""
        self._listener: threading.Thread | None = None
        self._idle_since: float | None = None
        self.pushes = Pushes()
        """The updates this process's streams push, rendered here or where the change was stored."""
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

    def version_of(self, game_id: int) -> int | None:
        """Return a game's version if the running listener has kept track of it, else None (ask the database)."""
        with self._lock:
            if not self._caught_up:
                return None
            if game_id in self._versions:
                return self._versions[game_id]
            return self._known.get(game_id)

    @contextmanager
    def watching(self, game_id: int, version: int) -> Iterator[None]:
        """Keep a game watched while a stream shows it; ``version`` is what that stream read itself."""
        with self._lock:
            self._watchers[game_id] += 1
            self._versions[game_id] = max(version, self._versions.get(game_id, 0), self._known.get(game_id, 0))
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
                    self._remember(game_id, self._versions.pop(game_id, 0))
                    self._signals.pop(game_id, None)
                    self._awaited.pop(game_id, None)

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

    def changed(self, game_id: int, version: int, shipped: Shipped | None = None, *, sheet_follows: bool = False) -> None:
        """Record that a game reached ``version`` and wake its streams, if any watch it, with the pushed sheet that came with the change.

        A change whose sheet follows (``models.shipped.notice``) wakes nobody yet: its sheet comes in
        a moment, or after ``SHEET_WAIT_SECONDS`` the streams render it themselves (``expire``).
        """
        with self._lock:
            if game_id not in self._watchers:
                self._remember(game_id, version)
                return
            if version <= self._versions.get(game_id, 0):
                return
            if sheet_follows:
                self._awaited[game_id] = (version, time.monotonic() + SHEET_WAIT_SECONDS)
                return
            self._versions[game_id] = version
            signal = self._signals.pop(game_id, None)
        if shipped is not None:
            message = Message(shipped.text(), shipped.deflated)
            self.pushes.offer(shipped.address, shipped.language, Update(version, None, message))
        if signal is not None:
            signal.set()

    def expire(self) -> float:
        """Wake the streams of changes whose sheet did not come in time; return the seconds until the next one is due."""
        now = time.monotonic()
        with self._lock:
            due = [(game_id, version) for game_id, (version, deadline) in self._awaited.items() if deadline <= now]
            for game_id, _ in due:
                del self._awaited[game_id]
            later = min((deadline for _, deadline in self._awaited.values()), default=now + NOTIFY_POLL_SECONDS)
        for game_id, version in due:
            self.changed(game_id, version)
        return max(later - now, 0.0)

    def _remember(self, game_id: int, version: int) -> None:
        """Keep an unwatched game's version while the listener is caught up (the caller holds the lock)."""
        if not self._caught_up or version < self._known.get(game_id, 0):
            return
        self._known[game_id] = version
        self._known.move_to_end(game_id)
        while len(self._known) > VERSIONS_KEPT:
            self._known.popitem(last=False)

    def _appended(self, sender: Engine, *, game_id: int, version: int, shipped: Shipped | None = None, **extra: Any) -> None:
        """Wake a game's streams the moment this process stores a tap for it."""
        self.changed(game_id, version, shipped)

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
            self._lose_track()
            return False

    def _lose_track(self) -> None:
        """Forget the versions of unwatched games: nobody keeps track of them now (the caller holds the lock)."""
        self._caught_up = False
        self._known.clear()

    def _catch_up(self, versions: dict[int, int]) -> None:
        """Take the watched games' versions read when the listener (re)started; from now on it sees every change."""
        with self._lock:
            self._caught_up = True
        self._publish(versions)

    def _publish(self, versions: dict[int, int]) -> None:
        for game_id, version in versions.items():
            self.changed(game_id, version)

    def _listen(self) -> None:
        """Watch the database for this process until no stream needs it, surviving database failures."""
        with self.app.app_context():
            engine = db.engine
        postgresql = engine.dialect.name == "postgresql"
        connection: Any = None
        last_id: int | None = None
        try:
            while self._needed():
                try:
                    if postgresql:
                        connection = self._listen_postgresql(engine, connection)
                    else:
                        if last_id is None:
                            last_id = newest_event_id(engine)
                            self._catch_up(newest_versions(engine, self._watched()))
                        last_id, full = self.look(engine, last_id)
                        if not full:
                            time.sleep(self.tick)
                except Exception:  # the listener must outlive a database restart; streams catch up meanwhile
                    log.exception("live listener: the database failed; trying again in %s s", RETRY_SECONDS)
                    with self._lock:
                        self._lose_track()
                    last_id = None
                    if connection is not None:
                        connection.close()
                        connection = None
                    time.sleep(RETRY_SECONDS)
        finally:
            if connection is not None:
                connection.close()

    def look(self, engine: Engine, last_id: int) -> tuple[int, bool]:
        """One SQLite tick: publish the events stored after ``last_id``; return where the next tick reads on and whether this one was full.

        A tap's pushed sheet is stored just after its change (``models.announce``): a watched game's
        newest change found without it, stored less than ``SHEET_WAIT_SECONDS`` ago, is left for the
        next tick rather than rendered here, so that each change is rendered once, where it was stored
        (only a game's newest sheet is kept: an older change's is no longer waited for).
        The next tick reads on from there (what it reads again is published again, which changes nothing).
        """
        events = events_after(engine, last_id)
        watched = set(self._watched())
        recent = datetime.now(UTC) - timedelta(seconds=SHEET_WAIT_SECONDS)
        newest: dict[int, tuple[int, Shipped | None]] = {}
        last_of = {game_id: version for _, game_id, version, _, _ in events}
        held: int | None = None
        for event_id, game_id, version, shipped, stored in events:
            if shipped is None and version == last_of[game_id] and game_id in watched and _aware(stored) > recent:
                held = event_id if held is None else held
                continue
            if held is None:
                last_id = event_id
            if version > newest.get(game_id, (0, None))[0]:
                newest[game_id] = (version, shipped)
        for game_id, (version, shipped) in newest.items():
            self.changed(game_id, version, shipped)
        if held is not None:
            return held - 1, False
        return last_id, len(events) >= EVENTS_PER_TICK

    def _listen_postgresql(self, engine: Engine, connection: Any) -> Any:
        """Wait a while for NOTIFYs on the process's one LISTEN connection (opened if needed); each names a game, its version and maybe its pushed sheet."""
        import psycopg

        if connection is None:
            url = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
            connection = psycopg.connect(url, autocommit=True, application_name=LISTENER_NAME)
            connection.execute(f"LISTEN {CHANGES_CHANNEL}")
            self._catch_up(_versions_on(connection, self._watched()))  # whatever happened while nobody listened
        for note in connection.notifies(timeout=max(min(NOTIFY_POLL_SECONDS, self.expire()), 0.001)):
            change = read_notice(note.payload)
            if change is not None:
                self.changed(change.game_id, change.version, change.shipped, sheet_follows=change.sheet_follows)
        self.expire()
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
