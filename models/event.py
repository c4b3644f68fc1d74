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
from weakref import WeakKeyDictionary

from blinker import Namespace
from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint, and_, event, insert, or_, select, text
from sqlalchemy.engine import Connection, Engine
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
TABLES_KEPT = 8
"""Versions of a game whose table stays kept: a tap made on a sheet up to that many changes old is checked without a fold."""
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
"""Sent by the database engine that stored a change, with ``game_id``, ``version`` and the pushed sheet ``shipped``
(or None), once it is committed and, for a tap, its sheet rendered: the live streams of this process learn of
the change without asking the database."""


class Recent(Generic[K, V]):
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

    def update(self, key: K, change: Callable[[V | None], V]) -> V:
        """Replace the value at ``key`` by what ``change`` makes of it, in one step no other request can come between."""
        with self._lock:
            value = change(self._values.get(key))
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)
            return value


GameKey = tuple[int, datetime]
"""A game as the caches know it: its id and the moment it was created, which no game of another database shares."""
Tables = tuple[tuple[int, Table[Any]], ...]
"""What a game's history added up to at its newest versions, oldest first: (version, table)."""


class Kept:
    """What one app keeps of the games its process read lately: their histories and the tables they added up to.

    History is append-only and an event never changes once stored, so what was read stays true:
    only events numbered after the newest one read can be new. Each change is played on from the
    table of the version before (``rules.history.step``), so a tap costs the same in a long game as
    in a new one; the tables of the last few versions stay, so a tap made on a sheet a few changes
    old is checked against the game as that sheet showed it without folding its history again.
    """

    def __init__(self, size: int = HISTORIES_KEPT) -> None:
        self.histories: Recent[GameKey, tuple[TableEvent, ...]] = Recent(size)
        self.tables: Recent[GameKey, Tables] = Recent(size)

    def keep(self, key: GameKey, version: int, table: Table[Any]) -> None:
        """Keep a game's table at ``version`` beside the newest ones (another request may have kept a newer one meanwhile)."""

        def kept_with(tables: Tables | None) -> Tables:
            known = tuple(pair for pair in tables or () if pair[0] != version)
            return tuple(sorted((*known, (version, table)), key=lambda pair: pair[0]))[-TABLES_KEPT:]

        self.tables.update(key, kept_with)

    def table_at(self, key: GameKey, version: int) -> Table[Any] | None:
        """Return a game's table at ``version`` if it is kept, else None."""
        return next((table for seq, table in self.tables.get(key) or () if seq == version), None)

    def newest(self, key: GameKey) -> tuple[int, Table[Any]] | None:
        """Return the newest version of a game kept, and its table."""
        tables = self.tables.get(key)
        return tables[-1] if tables else None


def kept() -> Kept:
    """Return what the current app keeps in this process: one ``Kept`` per database engine, so per app (made on first use,
    after the server forked its workers; an app built afresh, as a test may build one, keeps nothing yet)."""
    engine = db.engine
    found = _KEPT.get(engine)
    if found is None:
        with _CREATING:
            found = _KEPT.setdefault(engine, Kept())
    return found


_KEPT: WeakKeyDictionary[Engine, Kept] = WeakKeyDictionary()
_CREATING = threading.Lock()


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
    return list(_history_and_key(game, None)[0])


Recorded = tuple[int, str, Mapping[str, json_value.JSON]]
"""The change an idempotency key recorded: its number, kind and payload."""


def _history_and_key(game: Game, key: str | None) -> tuple[tuple[TableEvent, ...], Recorded | None]:
    """Return ``history_of(game)`` and, asked in the same statement, the change idempotency ``key`` recorded in it, if any."""
    cache_key = _key(game)
    histories = kept().histories
    known = histories.get(cache_key) or ()
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
    _keep_history(kept(), cache_key, events)
    return events, recorded


def _keep_history(store: Kept, key: GameKey, history: tuple[TableEvent, ...]) -> None:
    """Keep a game's history unless a longer one is kept already (another request may have read on meanwhile)."""

    def longer(kept_now: tuple[TableEvent, ...] | None) -> tuple[TableEvent, ...]:
        return history if kept_now is None or len(history) >= len(kept_now) else kept_now

    store.histories.update(key, longer)


def _table_at(game: Game, history: Sequence[TableEvent]) -> Table[Any]:
    """Return what ``history`` adds up to: kept, played on from the newest table kept, or folded whole if it must be."""
    key = _key(game)
    store = kept()
    version = history[-1].seq if history else 0
    table = store.table_at(key, version)
    if table is not None:
        return table
    newest = store.newest(key)
    if newest is not None and newest[0] < version:
        table = newest[1]
        for event in history[bisect_right(history, newest[0], key=lambda event: event.seq) :]:
            table = step(table, event)
            if table is None:
                break
    if table is None:
        table = fold(game.setup, history)
    store.keep(key, version, table)
    return table


@dataclass(frozen=True)
class Folded:
    """A game's history at one version and what it adds up to: what its sheet is rendered from."""

    history: tuple[TableEvent, ...]
    table: Table[Any]

    @property
    def version(self) -> int:
        """Return the number of the newest event (0 for none): what live streams and forms compare against."""
        return self.history[-1].seq if self.history else 0


def folded_together(games: Sequence[Game]) -> list[Folded]:
    """Return ``folded`` of several games, their newer events read in one statement for all of them (an evening's earlier games)."""
    if not games:
        return []
    store = kept()
    known = {game.id: store.histories.get(_key(game)) or () for game in games}
    newer: dict[int, list[TableEvent]] = {game.id: [] for game in games}
    wanted = or_(*(and_(Event.game_id == game.id, Event.seq > (known[game.id][-1].seq if known[game.id] else 0)) for game in games))
    rows = db.session.execute(select(Event.game_id, Event.seq, Event.kind, Event.payload).where(wanted).order_by(Event.game_id, Event.seq))
    for game_id, seq, kind, payload in rows:
        newer[game_id].append(TableEvent(seq, kind, payload))
    states = []
    for game in games:
        history = known[game.id] + tuple(newer[game.id])
        _keep_history(store, _key(game), history)
        states.append(Folded(history, _table_at(game, history)))
    return states


def folded(game: Game) -> Folded:
    """Return a game's history and what it adds up to, folding only what no request of this process folded yet."""
    history = _history_and_key(game, None)[0]
    return Folded(history, _table_at(game, history))


class Before:
    """The game as a tap finds it, inside the guarded step that appends it: its history, what it adds up to, and how it stood earlier."""

    def __init__(self, game: Game, state: Folded) -> None:
        self._game = game
        self.state = state

    @property
    def history(self) -> tuple[TableEvent, ...]:
        return self.state.history

    @property
    def version(self) -> int:
        return self.state.version

    def table_at(self, version: int) -> Table[Any]:
        """Return what the history added up to after change ``version``: kept from the last few changes, else folded up to there.

        A phone's tap names the change its sheet was drawn at (``seen``), almost always one of the
        last few: comparing with the game as it stood then costs no fold.
        """
        if version >= self.version:
            return self.state.table
        table = kept().table_at(_key(self._game), version)
        if table is not None:
            return table
        return fold(self._game.setup, [event for event in self.history if event.seq <= version])


Precondition = Callable[[Before], None]
"""Sees the game a tap would follow, inside the guarded step that appends it, and raises (``StaleError``) to refuse the tap."""


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
    precondition: Precondition | None = None,
) -> Folded:
    """Record one change at the end of a game's history, if the rules allow it, commit it and announce it; return the game then.

    See ``append_events``, which this is for a single change whose sheet nobody renders.
    """
    return append_events(
        game, [(kind, payload)], idempotency_keys=[idempotency_key], device=device, precondition=precondition, sheet_follows=False
    )


def append_events(
    game: Game,
    changes: Sequence[tuple[str, Mapping[str, json_value.JSON]]],
    *,
    idempotency_keys: Sequence[str],
    device: str | None = None,
    precondition: Precondition | None = None,
    sheet_follows: bool = True,
) -> Folded:
    """Record changes at the end of a game's history in one transaction, if the rules allow them; return the game as it stands then.

    The history is read once (with the change the first key recorded, if any: a resent tap
    stores nothing and counts once) and the changes are checked against it, in memory, before
    anything is written. Then one insert stores them with the next numbers, and the commit
    follows: that insert is all the database locks. If another phone stored one of those numbers
    first, the unique (game, number) constraint refuses it and the changes are checked again
    against the longer history, so two taps never both pass a check that only one of them may pass.
    Raises ``Illegal`` with the rules' problems when a change is not allowed.
    ``precondition`` sees the game the changes would follow, inside the same guarded step as the
    rules' check, and raises (``StaleError``) to refuse them: a check made by the caller before the
    call could pass for two taps at once.
    Raises ``KeyReusedError`` when the key already recorded a different change of this game.

    With ``sheet_follows`` the caller renders the pushed sheet of the new version after the commit
    and announces the change with it (``announce``); otherwise the change is announced here, at
    once. On PostgreSQL the commit's notification says which (``SHEET_FOLLOWS``), so the other
    processes wait a moment for the sheet instead of rendering it themselves; on SQLite their tick
    waits for the sheet stored beside the event (``live.hub``).
    """
    game_id = game.id
    key = _key(game)
    setup = game.setup
    postgresql = db.session.get_bind().dialect.name == "postgresql"
    conflict: IntegrityError | None = None
    for attempt in range(APPEND_ATTEMPTS):
        if attempt:
            time.sleep(random.uniform(0, BACKOFF_SECONDS * 2 ** min(attempt, 6)))
        events, recorded = _history_and_key(game, idempotency_keys[0])
        if recorded is not None:
            _same_change(recorded, game_id, idempotency_keys[0], *changes[0])
            db.session.rollback()
            return Folded(events, _table_at(game, events))
        before = Folded(events, _table_at(game, events))
        after = before.version
        new = [TableEvent(after + number, kind, dict(payload)) for number, (kind, payload) in enumerate(changes, start=1)]
        try:
            if precondition is not None:
                precondition(Before(game, before))
            table = check(setup, events, new, table=before.table)
        except (Illegal, StaleError):
            db.session.rollback()
            raise
        state = Folded((*events, *new), table)
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
            if postgresql:
                change = notice(game_id, state.version, None, sheet_follows=sheet_follows)
                db.session.execute(_NOTIFYING, {"channel": CHANGES_CHANNEL, "change": change})
            db.session.commit()
        except IntegrityError as error:
            db.session.rollback()
            conflict = error
            continue
        kept().keep(key, state.version, table)
        if not sheet_follows:
            appended.send(db.session.get_bind(), game_id=game_id, version=state.version, shipped=None)
        return state
    raise RuntimeError(f"could not append to game {game_id} after {APPEND_ATTEMPTS} attempts") from conflict


_NOTIFYING = text("SELECT pg_notify(:channel, :change)")


def announce(game_id: int, version: int, shipped: Shipped | None) -> None:
    """Tell every process that a game reached ``version``, with the sheet its phones are pushed if one was rendered.

    This process's streams hear of it at once (``appended``, the sheet left out: whoever rendered
    it here keeps it for them, ``live.Pushes``). The others: on PostgreSQL a
    notification to the listening sessions carries it ("game:version", the sheet after it if it
    fits), sent on its own, outside any transaction; on SQLite their tick reads the new event and
    the sheet stored beside it, in a short transaction of its own.
    """
    appended.send(db.session.get_bind(), game_id=game_id, version=version, shipped=None)
    if db.session.get_bind().dialect.name == "postgresql":
        connection = db.session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
        connection.execute(_NOTIFYING, {"channel": CHANGES_CHANNEL, "change": notice(game_id, version, shipped)})
        db.session.rollback()
    elif shipped is not None:
        ship_beside(game_id, version, shipped)
