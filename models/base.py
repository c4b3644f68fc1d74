"""The database handle and column types shared by every model, how SQLite is written to from evented workers, and how a dropped PostgreSQL connection is found."""

import fcntl
import os
import select
import sqlite3
import threading
import time
from datetime import UTC, datetime
from typing import Any

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import DateTime, Engine, MetaData, event
from sqlalchemy.engine.interfaces import Dialect
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.pool import ConnectionPoolEntry
from sqlalchemy.types import TypeDecorator

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Base of every model, with constraint names that migrations can refer to.

    Models subclass ``Base`` rather than ``db.Model``: both share one registry and one
    metadata, and type checkers understand ``Base``.
    """

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
"""Objects keep what they hold after a commit: a tap's answer renders the game it just looked up, without reading it again."""


class UTCDateTime(TypeDecorator[datetime]):
    """Store aware UTC datetimes and read them back aware, even from SQLite."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Refuse naive datetimes so no local time sneaks into the history."""
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime: pass a timezone-aware UTC datetime")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Attach UTC to values from backends that drop the zone (SQLite)."""
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


def utc_now() -> datetime:
    """Return the current moment as an aware UTC datetime (a column default)."""
    return datetime.now(UTC)


def _set_sqlite_pragmas(dbapi_connection: Any, connection_record: ConnectionPoolEntry) -> None:
    """Let readers and a writer work side by side and make SQLite check foreign keys."""
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
    finally:
        cursor.close()


def configure_engine(engine: Engine) -> None:
    """Apply per-connection settings the chosen database needs; SQLite's connections pass the write gate, PostgreSQL's are looked at before use."""
    if engine.dialect.name == "sqlite":
        event.listen(engine, "do_connect", _gated)
        event.listen(engine, "connect", _set_sqlite_pragmas)
    elif engine.dialect.name == "postgresql":
        event.listen(engine, "checkout", _alive_or_replaced(engine.dialect))


def _alive_or_replaced(dialect: Dialect) -> Any:
    """Return the pool's check of a PostgreSQL connection it hands out: replaced (``DisconnectionError``) if the server dropped it.

    An idle pooled connection has nothing to read: the server speaks only when asked. A server
    that shuts down or ends the session (a restart, ``pg_terminate_backend``, an idle timeout)
    says so on the socket and closes it, so the socket turns readable (or hung up). Only then is the
    connection asked ``SELECT 1``, as ``pool_pre_ping`` would ask every time, and replaced if
    that fails; the pool then hands out another (it tries three). A look at the socket (``poll``) costs a
    system call, the ping a round trip and its Python on every request.
    """

    def checkout(dbapi_connection: Any, record: ConnectionPoolEntry, proxy: Any) -> None:
        try:
            socket = select.poll()  # not select.select: a worker holding thousands of streams has descriptors past its limit of 1,024
            socket.register(dbapi_connection.fileno(), select.POLLIN)
            if socket.poll(0):
                dialect.do_ping(dbapi_connection)
        except Exception as error:  # closed, or the server's goodbye: whatever it was, this connection is done
            raise DisconnectionError("the server closed this pooled connection") from error

    return checkout


def _gated(dialect: Dialect, record: ConnectionPoolEntry, cargs: Any, cparams: dict[str, Any]) -> None:
    """Open SQLite connections as ``GatedConnection``s (the driver's ``factory``), unless the app chose another."""
    cparams.setdefault("factory", GatedConnection)


WRITE_STATEMENTS = ("INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER")
GATE_FIRST_WAIT = 0.0005
"""First pause before a writer looks again whether another process's write has ended; it doubles up to ``GATE_LONGEST_WAIT``."""
GATE_LONGEST_WAIT = 0.01


class WriteGate:
    """One writer at a time on an SQLite file, among the threads or greenlets of a process and the processes of the machine.

    SQLite lets one connection write at a time and makes the others wait inside the driver,
    in C, where a gevent worker cannot switch to another greenlet: every open sheet of that
    worker would stop until the write ended. Writers wait here instead, before the write
    begins: on a lock of the process (gevent's own once the worker patched ``threading``),
    then on an ``flock`` of a file beside the database shared by every process, asked for
    without blocking and, while another process writes, asked again after a short
    ``time.sleep`` (gevent's, which lets the other greenlets run). A write only ever starts
    when no writer of this app holds the database, so SQLite's own busy wait is left for
    writers from outside the app (a migration, the sqlite3 shell).
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._file: tuple[int, int] | None = None
        """The lock file as (process id, descriptor): a forked worker opens its own, or its flock would be its parent's."""

    def _descriptor(self) -> int:
        if self._file is None or self._file[0] != os.getpid():
            self._file = (os.getpid(), os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600))
        return self._file[1]

    def acquire(self) -> None:
        """Wait, yielding to other greenlets, until this caller is the only writer of the database."""
        self._lock.acquire()
        try:
            descriptor = self._descriptor()
            pause = GATE_FIRST_WAIT
            while True:
                try:
                    fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return
                except BlockingIOError:
                    time.sleep(pause)
                    pause = min(pause * 2, GATE_LONGEST_WAIT)
        except BaseException:
            self._lock.release()
            raise

    def release(self) -> None:
        """Let the next writer in."""
        try:
            fcntl.flock(self._descriptor(), fcntl.LOCK_UN)
        finally:
            self._lock.release()


_GATES: dict[str, WriteGate] = {}
_GATES_LOCK = threading.Lock()


def write_gate(database: str) -> WriteGate:
    """Return the one gate of a database file in this process."""
    path = os.path.abspath(database) + "-writer"
    with _GATES_LOCK:
        return _GATES.setdefault(path, WriteGate(path))


def _is_write(statement: str) -> bool:
    return statement.lstrip().upper().startswith(WRITE_STATEMENTS)


class GatedCursor(sqlite3.Cursor):
    """A cursor that passes its connection's write gate before a statement that writes outside a transaction."""

    def execute(self, sql: str, parameters: Any = (), /) -> "GatedCursor":
        """Run a statement, passing the gate first if it begins a write."""
        connection = self.connection
        assert isinstance(connection, GatedConnection)
        with connection.writing(sql):
            super().execute(sql, parameters)
        return self

    def executemany(self, sql: str, parameters: Any, /) -> "GatedCursor":
        """Run a statement for many rows, passing the gate first if it begins a write."""
        connection = self.connection
        assert isinstance(connection, GatedConnection)
        with connection.writing(sql):
            super().executemany(sql, parameters)
        return self


class GatedConnection(sqlite3.Connection):
    """An SQLite connection that holds its file's ``WriteGate`` from its first write until the commit or rollback.

    The driver begins a transaction itself right before the first write (``INSERT`` and the
    like), so that is where the gate is taken; reads never take it (WAL lets them run beside
    a writer). An in-memory database has no other writer and no gate.
    """

    def __init__(self, database: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(database, *args, **kwargs)
        name = os.fsdecode(database) if isinstance(database, (str, bytes, os.PathLike)) else ""
        in_memory = not name or name == ":memory:" or name.startswith("file::memory:") or "mode=memory" in name
        self.gate = None if in_memory else write_gate(name)
        self.holding = False

    def cursor(self, factory: Any = GatedCursor) -> Any:
        """Return a cursor that passes the gate before it writes."""
        return super().cursor(factory)

    def writing(self, sql: str) -> "_Writing":
        """Return what to run a statement inside: it passes the gate if the statement starts a write."""
        return _Writing(self, self.gate is not None and not self.holding and not self.in_transaction and _is_write(sql))

    def _release(self) -> None:
        if self.holding and self.gate is not None:
            self.holding = False
            self.gate.release()

    def commit(self) -> None:
        """Commit, then let the next writer in."""
        try:
            super().commit()
        finally:
            self._release()

    def rollback(self) -> None:
        """Roll back, then let the next writer in."""
        try:
            super().rollback()
        finally:
            self._release()

    def close(self) -> None:
        """Close, letting the next writer in if a write was left open."""
        try:
            super().close()
        finally:
            self._release()


class _Writing:
    """Holds a connection's gate around a statement that begins a write; lets go at once if no transaction stayed open."""

    def __init__(self, connection: GatedConnection, gated: bool) -> None:
        self.connection = connection
        self.gated = gated

    def __enter__(self) -> None:
        if self.gated:
            assert self.connection.gate is not None
            self.connection.gate.acquire()
            self.connection.holding = True

    def __exit__(self, *exc: object) -> None:
        if self.gated and not self.connection.in_transaction:
            self.connection._release()
