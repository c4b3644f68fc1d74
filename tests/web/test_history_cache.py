"""A process keeps the histories it read and what they add up to, and asks the database only for newer events:
still always the whole truth, each change played on from the table before it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import create_engine, insert, select

import models.event
import rules.history
from models import Event, Game, db, history_of
from tests.helpers import make_app, phone_of, start, tap


def app_on(database: Path) -> Flask:
    """Return a migrated app without CSRF checks on its own SQLite file."""
    return make_app(database, csrf=False)


def stored(app: Flask, token: str) -> list[tuple[int, str, dict[str, object]]]:
    """Return a game's history as this process reads it: (number, kind, payload) per event."""
    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.token == token))
        assert game is not None
        return [(event.seq, event.kind, dict(event.payload)) for event in history_of(game)]


def test_an_event_stored_by_another_process_joins_the_history_read_before(tmp_path: Path) -> None:
    app = app_on(tmp_path / "tischblock.db")
    client = phone_of(app)
    token = start(client, "auruxxx")
    tap(client, token, "pass", player="Anna", round="0")
    assert stored(app, token) == [(1, "pass", {"round": 0, "player": "Anna"})]
    other_process = create_engine(f"sqlite:///{tmp_path / 'tischblock.db'}")
    with other_process.begin() as connection:
        game_id = connection.scalar(select(Game.id).where(Game.token == token))
        connection.execute(
            insert(Event).values(game_id=game_id, seq=2, kind="pass", payload={"round": 0, "player": "Ben"}, idempotency_key="elsewhere")
        )
    other_process.dispose()
    assert stored(app, token) == [(1, "pass", {"round": 0, "player": "Anna"}), (2, "pass", {"round": 0, "player": "Ben"})]
    tap(client, token, "pass", player="Cleo", round="0")
    assert [seq for seq, _, _ in stored(app, token)] == [1, 2, 3]


def test_games_with_the_same_number_in_two_databases_keep_their_own_histories(tmp_path: Path) -> None:
    first, second = app_on(tmp_path / "first.db"), app_on(tmp_path / "second.db")
    tokens = []
    for app, player in ((first, "Anna"), (second, "Ben")):
        client = phone_of(app)
        tokens.append(start(client, "auruxxx"))
        tap(client, tokens[-1], "pass", player=player, round="0")
    assert stored(first, tokens[0]) == [(1, "pass", {"round": 0, "player": "Anna"})]
    assert stored(second, tokens[1]) == [(1, "pass", {"round": 0, "player": "Ben"})]


def test_a_change_is_played_on_from_the_table_before_it_and_only_an_undo_folds_the_whole_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tap is stepped on from the table its history added up to, and so is a change from another process when a
    sheet first shows it; showing the sheet again folds nothing; an undo folds the whole history once."""
    app = app_on(tmp_path / "tischblock.db")
    client = phone_of(app)
    token = start(client, "auruxxx")
    folds: list[int] = []
    real_fold = rules.history.fold

    def counted(setup: Any, events: Any) -> Any:
        folds.append(len(events))
        return real_fold(setup, events)

    monkeypatch.setattr(models.event, "fold", counted)
    monkeypatch.setattr(rules.history, "fold", counted)
    tap(client, token, "pass", player="Anna", round="0")
    for _ in range(3):
        assert client.get(f"/g/{token}").status_code == 200
    assert [count for count in folds if count] == []
    other_process = create_engine(f"sqlite:///{tmp_path / 'tischblock.db'}")
    with other_process.begin() as connection:
        game_id = connection.scalar(select(Game.id).where(Game.token == token))
        connection.execute(
            insert(Event).values(game_id=game_id, seq=2, kind="pass", payload={"round": 0, "player": "Ben"}, idempotency_key="elsewhere")
        )
    other_process.dispose()
    for _ in range(3):
        assert "box crossed" in client.get(f"/g/{token}").get_data(as_text=True)
    assert [count for count in folds if count] == []
    tap(client, token, "undo", event="2")
    assert [count for count in folds if count] == [3]
