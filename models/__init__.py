"""Persistence: games, players and their append-only event history."""

from models.base import configure_engine, db
from models.event import CHANGES_CHANNEL, AppendOnlyError, Event, Folded, KeyReusedError, StaleError, append_event, append_events, appended, folded, history_of, stored_events
from models.game import CardTable, Game, Player

__all__ = [
    "CHANGES_CHANNEL",
    "AppendOnlyError",
    "CardTable",
    "Event",
    "Folded",
    "KeyReusedError",
    "Game",
    "Player",
    "StaleError",
    "append_event",
    "append_events",
    "appended",
    "folded",
    "history_of",
    "stored_events",
    "configure_engine",
    "db",
]
