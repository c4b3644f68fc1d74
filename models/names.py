"""What a table said about its players' names: "Anni" is Anna (a merge), or no longer (an unmerge), kept as a history.

A change is only ever added, like a game's events: the statistics fold the table's changes in
order (``rules.statistics.merges_in_force``), so undoing a merge is one more change and the
history still says who merged what, and when.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, Connection, ForeignKey, String, event, func, select
from sqlalchemy.orm import Mapped, Mapper, mapped_column

from models.base import Base, UTCDateTime, db, utc_now
from models.event import AppendOnlyError
from models.game import NAME_MAX_LENGTH
from rules.statistics import NameChange


class NameChangeRow(Base):
    """One change a table made to which names count as one player."""

    __tablename__ = "name_changes"
    __table_args__ = (CheckConstraint("kind IN ('merge', 'unmerge')", name="kind"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    card_table_id: Mapped[int] = mapped_column(ForeignKey("card_tables.id"), index=True)
    kind: Mapped[str] = mapped_column(String(8))
    alias: Mapped[str] = mapped_column(String(NAME_MAX_LENGTH))
    """The name that counts as ``player`` (merge) or no longer does (unmerge)."""
    player: Mapped[str] = mapped_column(String(NAME_MAX_LENGTH))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utc_now)

    def __repr__(self) -> str:
        """Show the change, enough to read a failing test."""
        return f"<NameChangeRow {self.kind} {self.alias!r} -> {self.player!r}>"


@event.listens_for(NameChangeRow, "before_update")
def _refuse_update(mapper: Mapper[NameChangeRow], connection: Connection, target: NameChangeRow) -> None:
    """Keep the history of names as it was said: an undone merge is a new change."""
    raise AppendOnlyError(f"name changes are append-only: {target!r} cannot be changed")


@event.listens_for(NameChangeRow, "before_delete")
def _refuse_delete(mapper: Mapper[NameChangeRow], connection: Connection, target: NameChangeRow) -> None:
    """Keep the history of names as it was said."""
    raise AppendOnlyError(f"name changes are append-only: {target!r} cannot be deleted")


def name_changes_at(card_table_id: int) -> list[NameChange]:
    """Return every change a table made to its names, oldest first."""
    rows = db.session.scalars(select(NameChangeRow).where(NameChangeRow.card_table_id == card_table_id).order_by(NameChangeRow.id))
    return [NameChange("merge" if row.kind == "merge" else "unmerge", row.alias, row.player) for row in rows]


def last_name_change(card_table_id: int) -> int:
    """Return the number of a table's newest change to its names (0 for none): what figures computed before it are keyed by."""
    return int(
        db.session.scalar(select(func.coalesce(func.max(NameChangeRow.id), 0)).where(NameChangeRow.card_table_id == card_table_id)) or 0
    )


def add_name_change(card_table_id: int, change: NameChange) -> None:
    """Record a checked change to a table's names, and commit."""
    db.session.add(NameChangeRow(card_table_id=card_table_id, kind=change.kind, alias=change.alias, player=change.player))
    db.session.commit()
