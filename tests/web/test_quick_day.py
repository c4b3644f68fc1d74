"""12 Days quick mode explains itself: revealed cards are cleared in one tap, recorded as undos, then the taker is noted."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import select

from models import Event, Game, db, folded
from tests.helpers import EN, PhoneClient, start, tap


def kinds(app: Flask, token: str) -> list[str]:
    """Return the kinds of a game's events, in order."""
    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.token == token))
        assert game is not None
        return list(db.session.scalars(select(Event.kind).where(Event.game_id == game.id).order_by(Event.seq)))


def test_revealed_cards_are_cleared_in_one_tap_then_the_taker_is_noted(plain_app: Flask, phone: PhoneClient) -> None:
    token = start(phone, "12days", variant="standard")
    tap(phone, token, "card", day="0", player="Anna", card="3")
    tap(phone, token, "card", day="0", player="Ben", card="5")
    page = phone.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    assert "2 cards are already revealed today" in page and "Clear today's cards" in page
    assert "/taken" not in page, "the taker buttons wait until the cards are cleared"
    tap(phone, token, "clear-day", day="0", key="clear-1")
    assert kinds(plain_app, token) == ["card", "card", "undo", "undo"]
    tap(phone, token, "clear-day", day="0", key="clear-1")
    assert kinds(plain_app, token) == ["card", "card", "undo", "undo"], "a resent tap counts once"
    page = phone.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    assert "/taken" in page and "already revealed" not in page
    tap(phone, token, "taken", day="0", player="Cleo")
    with plain_app.app_context():
        game = db.session.scalar(select(Game).where(Game.token == token))
        assert game is not None
        assert folded(game).table.game.days[0].taken_by == "Cleo"  # type: ignore[union-attr]


def test_only_the_open_days_cards_can_be_cleared(plain_app: Flask, phone: PhoneClient) -> None:
    token = start(phone, "12days", variant="standard")
    tap(phone, token, "taken", day="0", player="Anna")
    response = phone.post(f"/g/{token}/clear-day", data={"day": "0"}, headers=EN)
    assert response.status_code == 422
    assert "Only the cards of the day being played can be cleared." in response.get_data(as_text=True)
    assert kinds(plain_app, token) == ["taken"]
