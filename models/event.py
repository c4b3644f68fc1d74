"""The append-only history of a game: every tap at the table becomes one event."""

import json
import random
import threading
import time
import uuid
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from blinker import Namespace
from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint, event, insert, or_, select, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Mapper, ORMExecuteState, Session, mapped_column

from models.base import Base, UTCDateTime, db, utc_now
from models.game import Game
from models.shipped import Shipped, notice, ship_beside
from rules import json_value
from rules.games import Table, TableEvent
from rules.history import check, fold, step
from rules.problems import Illegal

HISTORIES_KEPT = 4096
"""Games whose history (and folded table) a process keeps in memory: more than its phones have open at once
(10,000 open sheets are 2,000 games, and either worker may take a tap of any of them)."""
K = TypeVar("K")
V = TypeVar("V")
APPEND_ATTEMPTS = 30
"""How often ``append_event`` retries when another phone took the same number."""
BACKOFF_SECONDS = 0.002
"""First wait before a retry; it doubles with every clash, with jitter, up to 64 times."""


class AppendOnlyError(RuntimeError):
    """Raised when code tries to change or remove an event: corrections are new events."""


class StaleError(RuntimeError):
    """Raised by an ``append_event`` precondition: the history moved on in a way the tap did not see."""


class KeyReusedError(RuntimeError):
    """Raised when an idempotency key already recorded a different change: a resent tap must be the same tap."""


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
    payload: Mapped[dict[str, json_value.JSON]] = mapped_column(JSON)
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
    if (state.is_update or state.is_delete) and any(mapper.class_ is Event for mapper in state.all_mappers):
        raise AppendOnlyError("events are append-only: bulk update or delete refused")


def _same_change(
    recorded: tuple[int, str, Mapping[str, json_value.JSON]], game_id: int, key: str, kind: str, payload: Mapping[str, json_value.JSON]
) -> None:
    """Refuse a key that already recorded another change than this one; the payload is compared as it was stored, after a JSON round trip."""
    seq, stored_kind, stored_payload = recorded
    if (stored_kind, dict(stored_payload)) != (kind, json.loads(json.dumps(dict(payload)))):
        db.session.rollback()
        raise KeyReusedError(f"key {key!r} already recorded change {seq} of game {game_id}")


CHANGES_CHANNEL = "tischblock_games"
"""The PostgreSQL channel on which a game's id and new version are announced whenever its history grows."""


appended = Namespace().signal("appended")
"""Sent by the database engine that stored a tap, with ``game_id``, ``version`` and the pushed sheet
``shipped`` (or None), right after the commit: the live streams of this process learn of the tap
without asking the database."""


def _announce(game_id: int, version: int, shipped: Shipped | None) -> None:
    """Tell the other processes that a game reached ``version``, with its pushed sheet if one was rendered; delivered only if the insert commits.

    PostgreSQL: a notification to the listening sessions ("game:version", the sheet after it if it
    fits). SQLite: the other processes read the new event on their tick; the sheet waits beside it.
    """
    if db.session.get_bind().dialect.name == "postgresql":
        db.session.execute(
            text("SELECT pg_notify(:channel, :change)"), {"channel": CHANGES_CHANNEL, "change": notice(game_id, version, shipped)}
        )
    elif shipped is not None:
        ship_beside(game_id, version, shipped)


class _Recent(Generic[K, V]):
    """The values of the keys used most lately, at most ``size`` of them, safe to share between requests."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)


GameKey = tuple[int, datetime]
"""A game as the caches know it: its id and the moment it was created, which no game of another database shares."""

_HISTORIES: _Recent[GameKey, tuple[TableEvent, ...]] = _Recent(HISTORIES_KEPT)
"""The histories this process read lately. History is append-only and an event never changes once
stored, so what was read stays true: only events numbered after the newest one read can be new."""
_TABLES: _Recent[GameKey, tuple[int, Table[Any]]] = _Recent(HISTORIES_KEPT)
"""What each game's history added up to at the newest version this process saw: each change is
played on from it (``rules.history.step``), so a tap costs the same in a long game as in a new one."""


def _key(game: Game) -> GameKey:
    return (game.id, game.created_at)


_INSERTING = insert(Base.metadata.tables[Event.__tablename__])
"""The insert of a tap's events, built once; ``created_at`` comes from the column's default as it does through the session."""


def stored_events(game: Game) -> list[Event]:
    """Return a game's stored events in order, with when each was made: what its history page lists."""
    return list(db.session.scalars(select(Event).where(Event.game_id == game.id).order_by(Event.seq)))


def key_recorded(game: Game, keys: Sequence[str]) -> bool:
    """Return whether any of ``keys`` already recorded a change of the game: the tap that carries them was stored before."""
    found = select(Event.id).where(Event.game_id == game.id, Event.idempotency_key.in_(keys)).limit(1)
    return db.session.scalar(found) is not None


def history_of(game: Game) -> list[TableEvent]:
    """Return a game's stored events in order, in the shape the rules fold: those read before, and newer ones from the database."""
    return _history_and_key(game, None)[0]


def _history_and_key(game: Game, key: str | None) -> tuple[list[TableEvent], tuple[int, str, Mapping[str, json_value.JSON]] | None]:
    """Return ``history_of(game)`` and, asked in the same statement, the change idempotency ``key`` recorded in it, if any."""
    cache_key = _key(game)
    known = _HISTORIES.get(cache_key) or ()
    after = known[-1].seq if known else 0
    wanted = Event.seq > after if key is None else or_(Event.seq > after, Event.idempotency_key == key)
    rows = db.session.execute(
        select(Event.seq, Event.kind, Event.payload, Event.idempotency_key).where(Event.game_id == game.id, wanted).order_by(Event.seq)
    )
    newer: list[TableEvent] = []
    recorded = None
    for seq, kind, payload, stored_key in rows:
        if key is not None and stored_key == key:
            recorded = (seq, kind, payload)
        if seq > after:
            newer.append(TableEvent(seq, kind, payload))
    events = known + tuple(newer)
    if len(events) >= len(_HISTORIES.get(cache_key) or ()):
        _HISTORIES.put(cache_key, events)
    return list(events), recorded


def _table_at(game: Game, history: Sequence[TableEvent]) -> Table[Any]:
    """Return what ``history`` adds up to: kept, played on from the newest table kept, or folded whole if it must be."""
    key = _key(game)
    version = history[-1].seq if history else 0
    kept = _TABLES.get(key)
    if kept is not None and kept[0] == version:
        return kept[1]
    table: Table[Any] | None = None
    if kept is not None and kept[0] < version:
        table = kept[1]
        for event in history[bisect_right(history, kept[0], key=lambda event: event.seq) :]:
            table = step(table, event)
            if table is None:
                break
    if table is None:
        table = fold(game.setup, history)
    _keep(key, version, table)
    return table


def _keep(key: GameKey, version: int, table: Table[Any]) -> None:
    """Keep a game's table unless a newer one is kept already (another request may have moved on meanwhile)."""
    kept = _TABLES.get(key)
    if kept is None or kept[0] <= version:
        _TABLES.put(key, (version, table))


@dataclass(frozen=True)
class Folded:
    """A game's history at one version and what it adds up to: what its sheet is rendered from."""

    history: tuple[TableEvent, ...]
    table: Table[Any]

    @property
    def version(self) -> int:
        """Return the number of the newest event (0 for none): what live streams and forms compare against."""
        return self.history[-1].seq if self.history else 0


def folded(game: Game) -> Folded:
    """Return a game's history and what it adds up to, folding only what no request of this process folded yet."""
    history = tuple(history_of(game))
    return Folded(history, _table_at(game, history))


def add_first_events(game: Game, changes: Sequence[tuple[str, Mapping[str, json_value.JSON]]]) -> None:
    """Add a new game's first changes to the session once the rules accept them as one history.

    The caller commits them together with the game, so no game is ever stored without them
    (an import cut short leaves nothing behind). Nobody knows the game's address yet, so no
    other phone can be appending meanwhile. Raises ``Illegal`` when the rules refuse them.
    """
    events = [TableEvent(seq, kind, dict(payload)) for seq, (kind, payload) in enumerate(changes, start=1)]
    fold(game.setup, events)
    db.session.flush()
    db.session.add_all(
        Event(
            game_id=game.id,
            seq=event.seq,
            kind=event.kind,
            payload=dict(event.payload),
            idempotency_key=uuid.uuid4().hex,
        )
        for event in events
    )


def append_event(
    game: Game,
    kind: str,
    payload: Mapping[str, json_value.JSON],
    *,
    idempotency_key: str,
    device: str | None = None,
    precondition: Callable[[Sequence[TableEvent]], None] | None = None,
    ship: Callable[[Folded], Shipped | None] | None = None,
) -> Folded:
    """Record one tap at the end of a game's history, if the rules allow it, commit it, and return the game as it stands then.

    See ``append_events``, which this is for a single change.
    """
    return append_events(game, [(kind, payload)], idempotency_keys=[idempotency_key], device=device, precondition=precondition, ship=ship)


def append_events(
    game: Game,
    changes: Sequence[tuple[str, Mapping[str, json_value.JSON]]],
    *,
    idempotency_keys: Sequence[str],
    device: str | None = None,
    precondition: Callable[[Sequence[TableEvent]], None] | None = None,
    ship: Callable[[Folded], Shipped | None] | None = None,
) -> Folded:
    """Record taps at the end of a game's history in one transaction, if the rules allow them; return the game as it stands then.

    The taps are checked against the history they follow and stored with the next numbers,
    all of them or none; if another phone stored one of those numbers first, the unique
    (game, number) constraint refuses the insert and the taps are checked again against the
    longer history, so two taps never both pass a check that only one of them may pass.
    PostgreSQL also locks the game's row first, so there taps of one game queue instead of
    clashing (SQLite has no row locks: its statement would only cost a round trip). The events
    are written by one Core insert, not through the session's unit of work: nothing reads them
    back as objects, and the flush's bookkeeping cost more than the insert. Each change has its own idempotency key; a first key already recorded for this
    game stores nothing, so a retried tap counts once (the key is looked for by the statement
    that reads the new events: one round trip fewer per tap).
    Raises ``Illegal`` with the rules' problems when a tap is not allowed.
    ``precondition`` sees the history the taps would follow, inside the same guarded step as the
    rules' check, and raises (``StaleError``) to refuse them: a check made by the caller before the
    call could pass for two taps at once.
    Raises ``KeyReusedError`` when the key already recorded a different change of this game.
    ``ship`` renders the pushed sheet of the game as the taps leave it, before anything is
    written (on SQLite the write gate is taken by the first insert, so no other writer waits for
    the render); it is stored with the taps (``models.shipped``), so other processes need not
    render it again. On PostgreSQL the game's row stays locked meanwhile: taps of one game queue
    there anyway, and a render is CPU work during which a gevent worker runs nothing else.
    """
    game_id = game.id
    key = _key(game)
    setup = game.setup
    locking = db.session.get_bind().dialect.name == "postgresql"
    conflict: IntegrityError | None = None
    for attempt in range(APPEND_ATTEMPTS):
        if attempt:
            time.sleep(random.uniform(0, BACKOFF_SECONDS * 2 ** min(attempt, 6)))
        if locking:
            db.session.execute(select(Game.id).where(Game.id == game_id).with_for_update())
        events, recorded = _history_and_key(game, idempotency_keys[0])
        if recorded is not None:
            _same_change(recorded, game_id, idempotency_keys[0], *changes[0])
            db.session.commit()
            return Folded(tuple(events), _table_at(game, events))
        after = events[-1].seq if events else 0
        new = [TableEvent(after + number, kind, dict(payload)) for number, (kind, payload) in enumerate(changes, start=1)]
        try:
            if precondition is not None:
                precondition(events)
            table = check(setup, events, new, table=_table_at(game, events))
        except (Illegal, StaleError):
            db.session.rollback()
            raise
        state = Folded((*events, *new), table)
        shipped = ship(state) if ship is not None else None
        rows = [
            {
                "game_id": game_id,
                "seq": event.seq,
                "kind": event.kind,
                "payload": dict(event.payload),
                "device": device,
                "idempotency_key": tap,
            }
            for event, tap in zip(new, idempotency_keys, strict=True)
        ]
        try:
            db.session.execute(_INSERTING, rows)
            _announce(game_id, state.version, shipped)
            db.session.commit()
        except IntegrityError as error:
            db.session.rollback()
            conflict = error
            continue
        _keep(key, state.version, table)
        appended.send(db.session.get_bind(), game_id=game_id, version=state.version, shipped=shipped)
        return state
    raise RuntimeError(f"could not append to game {game_id} after {APPEND_ATTEMPTS} attempts") from conflict
