"""The append-only history of a game: every tap at the table becomes one event."""

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint, event, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Mapper, ORMExecuteState, Session, mapped_column
from sqlalchemy.engine import Connection

from models.base import Base, UTCDateTime, db, utc_now
from models.game import Game

APPEND_ATTEMPTS = 5
"""How often ``append_event`` retries when another phone took the same number."""


class AppendOnlyError(RuntimeError):
    """Raised when code tries to change or remove an event: corrections are new events."""


class Event(Base):
    """Something that happened at the table, numbered per game and never changed.

    The unique index on (game_id, seq) also serves every lookup by game.
    """

    __tablename__ = "events"
    __table_args__ = (
        UniqueConstraint("game_id", "seq"),
        UniqueConstraint("game_id", "idempotency_key"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seq: Mapped[int]
    kind: Mapped[str] = mapped_column(String(32))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    device: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utc_now)
    idempotency_key: Mapped[str] = mapped_column(String(64))

    def __repr__(self) -> str:
        """Show position and kind, enough to read a failing test."""
        return f"<Event {self.game_id}#{self.seq} {self.kind}>"


@event.listens_for(Event, "before_update")
def _refuse_update(mapper: Mapper[Event], connection: Connection, target: Event) -> None:
    """Stop the ORM from rewriting history."""
    raise AppendOnlyError(f"events are append-only: {target!r} cannot be changed")


@event.listens_for(Event, "before_delete")
def _refuse_delete(mapper: Mapper[Event], connection: Connection, target: Event) -> None:
    """Stop the ORM from erasing history."""
    raise AppendOnlyError(f"events are append-only: {target!r} cannot be deleted")


@event.listens_for(Session, "do_orm_execute")
def _refuse_bulk_change(state: ORMExecuteState) -> None:
    """Stop bulk ``update(Event)`` and ``delete(Event)`` statements as well."""
    if (state.is_update or state.is_delete) and any(
        mapper.class_ is Event for mapper in state.all_mappers
    ):
        raise AppendOnlyError("events are append-only: bulk update or delete refused")


def _find(game_id: int, idempotency_key: str) -> Event | None:
    """Return the event a retried tap already recorded, if any."""
    return db.session.scalar(
        select(Event).where(
            Event.game_id == game_id, Event.idempotency_key == idempotency_key
        )
    )


def append_event(
    game: Game,
    kind: str,
    payload: Mapping[str, Any],
    *,
    idempotency_key: str,
    device: str | None = None,
) -> Event:
    """Record one event at the end of a game's history and commit it.

    The next number is computed inside the INSERT, so SQLite hands them out without
    gaps or clashes. A key already recorded for this game returns the earlier event
    unchanged, so a retried tap counts once. When two phones still collide (the same
    key at once, or the same number on PostgreSQL), the loser rolls back, discarding
    anything else pending in the session, and tries again.
    """
    game_id = game.id
    conflict: IntegrityError | None = None
    for _ in range(APPEND_ATTEMPTS):
        existing = _find(game_id, idempotency_key)
        if existing is not None:
            return existing
        next_seq = (
            select(func.coalesce(func.max(Event.seq), 0) + 1)
            .where(Event.game_id == game_id)
            .scalar_subquery()
        )
        recorded = Event(
            game_id=game_id,
            seq=next_seq,
            kind=kind,
            payload=dict(payload),
            device=device,
            idempotency_key=idempotency_key,
        )
        db.session.add(recorded)
        try:
            db.session.commit()
        except IntegrityError as error:
            db.session.rollback()
            conflict = error
            continue
        return recorded
    raise RuntimeError(
        f"could not append to game {game_id} after {APPEND_ATTEMPTS} attempts"
    ) from conflict
