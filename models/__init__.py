"""Persistence: games, players and their append-only event history."""

from models.base import configure_engine, db
from models.event import (
    CHANGES_CHANNEL,
    AppendOnlyError,
    Before,
    Event,
    Folded,
    KeyReusedError,
    Precondition,
    Recent,
    StaleError,
    announce,
    append_event,
    append_events,
    appended,
    folded,
    folded_together,
    history_of,
    key_recorded,
    stored_events,
)
from models.game import CardTable, Game, Player
from models.names import NameChangeRow, add_name_change, last_name_change, name_changes_at
from models.seat import SeatClaim, claim_seat, claims_at, current_claims, holder_at
from models.shipped import Shipped, ShippedSheet
from models.table import games_at, last_change

__all__ = [
    "CHANGES_CHANNEL",
    "AppendOnlyError",
    "Before",
    "CardTable",
    "Event",
    "Folded",
    "Game",
    "KeyReusedError",
    "NameChangeRow",
    "Player",
    "Precondition",
    "Recent",
    "SeatClaim",
    "Shipped",
    "ShippedSheet",
    "StaleError",
    "add_name_change",
    "announce",
    "append_event",
    "append_events",
    "appended",
    "claim_seat",
    "claims_at",
    "configure_engine",
    "current_claims",
    "db",
    "folded",
    "folded_together",
    "games_at",
    "history_of",
    "holder_at",
    "key_recorded",
    "last_change",
    "last_name_change",
    "name_changes_at",
    "stored_events",
]
