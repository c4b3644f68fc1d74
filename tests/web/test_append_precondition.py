"""``append_event``'s precondition is checked against the history the tap really follows."""

from collections.abc import Iterator

import pytest
from flask import Flask
from sqlalchemy import func, select

from models import Before, Event, Game, Player, StaleError, append_event, db


@pytest.fixture
def game(app: Flask) -> Iterator[Game]:
    with app.app_context():
        game = Game(kind="auruxxx")
        game.players = [Player(seat=seat, name=name) for seat, name in enumerate(["Ada", "Bo"])]
        db.session.add(game)
        db.session.commit()
        yield game


def test_a_refusing_precondition_stores_nothing_and_a_passing_one_stores(game: Game) -> None:
    append_event(game, "pass", {"round": 0, "player": "Ada"}, idempotency_key="one")
    seen: list[int] = []

    def moved_on(before: Before) -> None:
        seen.append(len(before.history))
        raise StaleError("changed meanwhile")

    with pytest.raises(StaleError):
        append_event(game, "pass", {"round": 0, "player": "Bo"}, idempotency_key="two", precondition=moved_on)
    assert seen == [1]
    assert db.session.scalar(select(func.count()).select_from(Event)) == 1

    append_event(game, "pass", {"round": 0, "player": "Bo"}, idempotency_key="three", precondition=lambda before: None)
    assert db.session.scalar(select(func.count()).select_from(Event)) == 2
