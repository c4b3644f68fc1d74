"""The database handle and column types shared by every model."""

from datetime import UTC, datetime
from typing import Any

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import DateTime, Engine, MetaData, event
from sqlalchemy.engine.interfaces import Dialect
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
    """Apply per-connection settings the chosen database needs."""
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _set_sqlite_pragmas)
