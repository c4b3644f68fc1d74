"""Who holds which phone at a table: a phone's "Ich bin Anna", kept per table so that every rematch keeps it.

A claim names a player of the table by name, or nobody (the phone is for everyone, or its
holder skipped the question). Claims are only ever added: a phone's newest claim counts,
and the older ones still say whose phone tapped earlier changes. A claim is no permission:
whatever a phone may do, its address allows.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, select
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, UTCDateTime, db, utc_now
from models.game import NAME_MAX_LENGTH

DEVICE_MAX_LENGTH = 64


class SeatClaim(Base):
    """One phone saying, at one table, who holds it from now on (``name``), or that nobody in particular does."""

    __tablename__ = "seat_claims"
    __table_args__ = (Index("ix_seat_claims_table_device", "card_table_id", "device"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    card_table_id: Mapped[int] = mapped_column(ForeignKey("card_tables.id"))
    device: Mapped[str] = mapped_column(String(DEVICE_MAX_LENGTH))
    """The phone's id from its device cookie (``views.pages.viewers.device``)."""
    name: Mapped[str | None] = mapped_column(String(NAME_MAX_LENGTH))
    """The player holding the phone, as the games at this table name them; None: the phone is for everyone."""
    claimed_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utc_now)

    def __repr__(self) -> str:
        """Show the claim without the phone's id."""
        return f"<SeatClaim table {self.card_table_id}: {self.name!r}>"


def claim_seat(card_table_id: int, device: str, name: str | None) -> None:
    """Record that a phone at a table is held by ``name`` from now on (None: by nobody in particular), and commit."""
    db.session.add(SeatClaim(card_table_id=card_table_id, device=device, name=name))
    db.session.commit()


def claims_at(card_table_id: int) -> Sequence[SeatClaim]:
    """Return every claim made at a table, oldest first: by the table's id, so the table's row need not be read."""
    return db.session.scalars(
        select(SeatClaim).where(SeatClaim.card_table_id == card_table_id).order_by(SeatClaim.claimed_at, SeatClaim.id)
    ).all()


def current_claims(claims: Sequence[SeatClaim]) -> dict[str, str | None]:
    """Return what each phone says now: its newest claim, by device (claims oldest first)."""
    return {claim.device: claim.name for claim in claims}


def holder_at(claims: Sequence[SeatClaim], device: str | None, moment: datetime) -> str | None:
    """Return who held a phone at a moment: its newest claim made by then (claims oldest first)."""
    holder = None
    for claim in claims:
        if claim.device == device and claim.claimed_at <= moment:
            holder = claim.name
    return holder
