"""The games of one table, in the order they were started, with when each last changed: what an evening is cut from."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select

from models.base import db
from models.event import Event
from models.game import Game
from rules.evening import Span


def games_at(card_table_id: int) -> tuple[list[Game], list[Span]]:
    """Return a table's games, oldest first, and when each began and last changed (its newest event, else its start)."""
    newest = select(Event.game_id, func.max(Event.created_at).label("last_change")).group_by(Event.game_id).subquery()
    rows = db.session.execute(
        select(Game, newest.c.last_change)
        .outerjoin(newest, newest.c.game_id == Game.id)
        .where(Game.card_table_id == card_table_id)
        .order_by(Game.id)
    ).all()
    games = [game for game, _ in rows]
    spans = [Span(game.created_at, last or game.created_at) for game, last in rows]
    return games, spans


def last_change(game: Game) -> datetime:
    """Return when anything last happened in a game: its newest event, else its start."""
    newest = db.session.scalar(select(func.max(Event.created_at)).where(Event.game_id == game.id))
    return newest or game.created_at
