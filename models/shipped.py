"""A change's pushed sheet, rendered once by the process that stored the change and carried with it to the others.

Every phone at an address is pushed the same update, so the worker that took a tap renders
it once (it answers the tap with it anyway) and the other workers and servers push those
bytes instead of rendering the sheet again. It travels with the change, in the transaction
that stores the change: on PostgreSQL inside the ``NOTIFY`` that announces it (if it fits in
the payload), on SQLite in a row beside the event, which the other processes' tick reads
together with the event. It is safe to take without checking: the sheet is rendered from
exactly the history that commit stores, and a version never changes once stored, so the
update for a game's version N is the same whoever renders it. Where it did not travel (a
plain form's tap, another language, a payload too big) a process renders it as before.
"""

from __future__ import annotations

import base64
import zlib
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ForeignKey, LargeBinary, String, bindparam, text
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, db

NOTIFY_PAYLOAD_LIMIT = 8000
"""The bytes PostgreSQL takes in one notification's payload (its default build refuses 8,000 and more)."""


@dataclass(frozen=True)
class Shipped:
    """The live part of one address's sheet in one language at a change's version, as a deflated server-sent event."""

    address: str
    language: str
    deflated: bytes
    """The event as one self-contained raw deflate segment (``live.Message.deflated``)."""

    def text(self) -> bytes:
        """Return the event itself, inflated."""
        return zlib.decompressobj(-zlib.MAX_WBITS).decompress(self.deflated)


class ShippedSheet(Base):
    """The pushed sheet of a game's newest change on SQLite: written with the change, read by the other processes' tick.

    A tick asks for it only where its version is the event's, and a phone that reconnects is
    sent the sheet as it is then, so nothing else needs it once the listeners read it. SQLite
    drops what no push can use (triggers of the migration ``eaef2158c398``): a game's older
    sheets when a newer one is stored, any sheet older than the latest thousand (a listener's
    tick), and the sheets of an edit address that new addresses replaced.
    """

    __tablename__ = "shipped_sheets"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    language: Mapped[str] = mapped_column(String(16), primary_key=True)
    version: Mapped[int]
    deflated: Mapped[bytes] = mapped_column(LargeBinary)


def _replacing() -> Any:
    """Return the statement that stores a game's newest pushed sheet, built once (building it costs more than running it).

    It is a Core statement on the table, not on the model: the session's ORM insert path would cost more than the statement.
    It replaces a row rather than updating it, so that every stored sheet gets the next row id: the latest sheets are
    the highest ids, which is how SQLite keeps only those.
    """
    columns = ("game_id", "address", "language", "version", "deflated")
    return (
        sqlite_insert(Base.metadata.tables[ShippedSheet.__tablename__])
        .prefix_with("OR REPLACE")
        .values({name: bindparam(name) for name in columns})
    )


_REPLACING = _replacing()


def ship_beside(game_id: int, version: int, shipped: Shipped) -> None:
    """Store the pushed sheet of ``version`` (SQLite) in a transaction of its own, replacing the one of the version before.

    The sheet is rendered after its change was committed, so it is stored on its own. Its commit
    need not reach the disk before the answer goes out: the sheet can always be rendered again
    from the events, so it is written without waiting for the disk (``synchronous=NORMAL`` for this
    one commit; the next change's commit flushes it along). The game's older ones go with it (a trigger).
    """
    row = {"game_id": game_id, "address": shipped.address, "language": shipped.language, "version": version, "deflated": shipped.deflated}
    db.session.execute(_UNHURRIED)
    try:
        db.session.execute(_REPLACING, row)
        db.session.commit()
    finally:
        db.session.rollback()
        db.session.execute(_FLUSHED)
        db.session.commit()


_UNHURRIED = text("PRAGMA synchronous=NORMAL")
_FLUSHED = text("PRAGMA synchronous=FULL")


def notice(game_id: int, version: int, shipped: Shipped | None, *, sheet_follows: bool = False) -> str:
    """Return the PostgreSQL notification of a change: "game:version", and the pushed sheet after it if it fits.

    A change whose sheet is rendered after its commit is first announced with ``sheet_follows``
    (":+"), then again with its sheet, so the listeners wait a moment for the sheet.

    >>> notice(7, 3, None), notice(7, 3, Shipped("tok", "de", b"x")), notice(7, 3, None, sheet_follows=True)
    ('7:3', '7:3:de:tok:eA==', '7:3:+')
    """
    short = f"{game_id}:{version}"
    if sheet_follows:
        return f"{short}:{SHEET_FOLLOWS}"
    if shipped is None:
        return short
    full = f"{short}:{shipped.language}:{shipped.address}:{base64.b64encode(shipped.deflated).decode()}"
    return full if len(full) < NOTIFY_PAYLOAD_LIMIT else short


SHEET_FOLLOWS = "+"


@dataclass(frozen=True)
class Notice:
    """A change as a notification tells it: the game, its version, the pushed sheet if it came along, and whether one follows."""

    game_id: int
    version: int
    shipped: Shipped | None = None
    sheet_follows: bool = False


def read_notice(payload: str) -> Notice | None:
    """Return the change a notification carries (None for a payload that is not one).

    >>> read_notice("7:3"), read_notice("7:3:+").sheet_follows, read_notice("nonsense")
    (Notice(game_id=7, version=3, shipped=None, sheet_follows=False), True, None)
    >>> read_notice("7:3:de:tok:eA==").shipped
    Shipped(address='tok', language='de', deflated=b'x')
    """
    game, _, rest = payload.partition(":")
    version, _, rest = rest.partition(":")
    if not (game.isdigit() and version.isdigit()):
        return None
    if not rest or rest == SHEET_FOLLOWS:
        return Notice(int(game), int(version), None, rest == SHEET_FOLLOWS)
    language, _, rest = rest.partition(":")
    address, _, data = rest.partition(":")
    try:
        deflated = base64.b64decode(data, validate=True)
    except ValueError:
        return Notice(int(game), int(version))
    return Notice(int(game), int(version), Shipped(address, language, deflated))
