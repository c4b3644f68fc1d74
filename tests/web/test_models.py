"""Games, players and the append-only event history, down to the SQL level."""

import threading
from collections.abc import Iterator
from datetime import UTC
from pathlib import Path

import flask_migrate
import pytest
from flask import Flask
from sqlalchemy import delete, func, select, text, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from models import AppendOnlyError, Event, Game, Player, append_event, append_events, db, folded, stored_events
from rules.problems import Illegal
from tests.helpers import make_app

BEFORE_THE_REGISTRY = "7c4e2d91a5b3"
"""The last migration while a CHECK constraint listed the kinds of game."""


@pytest.fixture
def game(app: Flask) -> Iterator[Game]:
    """Yield a stored AURUXXX game with three players, inside an app context."""
    with app.app_context():
        game = Game(kind="auruxxx")
        game.players = [Player(seat=seat, name=name) for seat, name in enumerate(["Ada", "Bo", "Cem"])]
        db.session.add(game)
        db.session.commit()
        yield game


def test_migrations_match_the_models(app: Flask) -> None:
    with app.app_context():
        flask_migrate.check()


def test_game_defaults(game: Game) -> None:
    db.session.expire_all()
    stored = db.session.get(Game, game.id)
    assert stored is not None
    assert len(stored.token) >= 32
    assert stored.options == {}
    assert stored.created_at.tzinfo is not None
    assert stored.created_at.utcoffset() == UTC.utcoffset(None)


def test_tokens_differ_between_games(game: Game) -> None:
    other = Game(kind="12days", options={"variant": "8nights"})
    db.session.add(other)
    db.session.commit()
    assert other.token != game.token


def test_player_names_follow_the_seats(game: Game) -> None:
    db.session.add(Player(game=game, seat=3, name="Dana"))
    db.session.commit()
    db.session.expire_all()
    assert game.player_names == ("Ada", "Bo", "Cem", "Dana")


@pytest.mark.parametrize(
    ("seat", "name"),
    [(0, "Eve"), (3, "Ada"), (3, ""), (3, "x" * 41), (-1, "Eve")],
    ids=["seat taken", "name taken", "empty name", "name too long", "negative seat"],
)
def test_player_constraints(game: Game, seat: int, name: str) -> None:
    db.session.add(Player(game=game, seat=seat, name=name))
    with pytest.raises(IntegrityError):
        db.session.commit()
    db.session.rollback()


def test_unknown_game_kind_is_refused(app: Flask) -> None:
    """The registry knows the games: a kind none of them has never reaches the database."""
    with app.app_context():
        with pytest.raises(ValueError, match="no game is called 'skat'"):
            Game(kind="skat")
        assert db.session.scalar(select(func.count()).select_from(Game)) == 0


def test_events_are_numbered_per_game(game: Game) -> None:
    other = Game(kind="12days")
    other.players = [Player(seat=seat, name=name) for seat, name in enumerate(["Ada", "Bo", "Cem"])]
    db.session.add(other)
    db.session.commit()
    first = append_event(game, "pass", {"round": 0, "player": "Ada"}, idempotency_key="a")
    second = append_event(game, "pass", {"round": 0, "player": "Bo"}, idempotency_key="b", device="phone-1")
    elsewhere = append_event(other, "card", {"day": 0, "player": "Ada", "card": 3}, idempotency_key="a")
    assert (first.version, second.version, elsewhere.version) == (1, 2, 1)
    stored = db.session.scalars(select(Event).where(Event.game_id == game.id).order_by(Event.seq)).all()
    assert [event.seq for event in stored] == [1, 2]
    assert stored[1].device == "phone-1" and stored[0].device is None
    assert stored[1].created_at.tzinfo is not None


def test_a_retried_tap_counts_once(game: Game) -> None:
    first = append_event(game, "pass", {"round": 0, "player": "Ada"}, idempotency_key="tap-1")
    again = append_event(game, "pass", {"round": 0, "player": "Ada"}, idempotency_key="tap-1")
    assert again.history == first.history and again.version == 1
    assert db.session.scalar(select(db.func.count()).select_from(Event)) == 1


def test_changes_of_one_tap_are_stored_all_or_none(game: Game) -> None:
    """A tap that makes several changes (clearing a day's cards) stores them in one transaction, numbered in turn."""
    append_event(game, "pass", {"round": 0, "player": "Ada"}, idempotency_key="a")
    twice = [("undo", {"event": 1}), ("undo", {"event": 1})]
    with pytest.raises(Illegal, match="already undone"):
        append_events(game, twice, idempotency_keys=["b:0", "b:1"])
    assert db.session.scalar(select(func.count()).select_from(Event)) == 1
    both = append_events(game, [("pass", {"round": 0, "player": "Bo"}), ("undo", {"event": 1})], idempotency_keys=["c:0", "c:1"])
    assert both.version == 3 and [event.seq for event in both.history] == [1, 2, 3]
    assert both.table.current.passes == {"Bo": 1}


def test_phones_appending_at_once_get_distinct_numbers(app: Flask, game: Game) -> None:
    game_id = game.id

    def tap(phone: int) -> None:
        with app.app_context():
            table = db.session.get(Game, game_id)
            assert table is not None
            for n in range(10):
                holder = table.player_names[phone]
                append_event(table, "happy_man", {"round": 0, "player": holder}, idempotency_key=f"{phone}-{n}")
                shared = {"round": 0, "player": table.player_names[n % 3]}  # one tap, resent from every phone
                append_event(table, "happy_man", shared, idempotency_key=f"shared-{n}")

    phones = [threading.Thread(target=tap, args=(phone,)) for phone in range(3)]
    for thread in phones:
        thread.start()
    for thread in phones:
        thread.join()
    db.session.expire_all()
    seqs = db.session.scalars(select(Event.seq).where(Event.game_id == game_id)).all()
    assert sorted(seqs) == list(range(1, 41))


def test_phones_passing_at_once_never_get_past_three_crosses(app: Flask, game: Game) -> None:
    """Each tap is checked against the history it really follows, even when taps race."""
    game_id = game.id
    refused: list[str] = []

    def tap(phone: int) -> None:
        with app.app_context():
            table = db.session.get(Game, game_id)
            assert table is not None
            for n in range(3):
                try:
                    append_event(table, "pass", {"round": 0, "player": "Ada"}, idempotency_key=f"{phone}-{n}")
                except Illegal as illegal:
                    refused.append(str(illegal))

    phones = [threading.Thread(target=tap, args=(phone,)) for phone in range(3)]
    for thread in phones:
        thread.start()
    for thread in phones:
        thread.join()
    db.session.expire_all()
    assert len(db.session.scalars(select(Event).where(Event.game_id == game_id)).all()) == 3
    assert refused == ["rounds[0].passes.Ada: at most 3 passes per round (got 4)"] * 6


def test_an_illegal_tap_is_refused_and_nothing_is_written(game: Game) -> None:
    """The rules check every event before it is stored."""
    with pytest.raises(Illegal) as refusal:
        append_event(game, "finish", {"round": 0, "player": "Ada", "golden12": 6}, idempotency_key="a")
    assert str(refusal.value) == "rounds[0].golden12: the deck has only 5 Golden 12 (got 6)"
    assert stored_events(game) == []


def test_the_table_is_what_the_history_adds_up_to(game: Game) -> None:
    """Folding the stored events gives the sheet."""
    append_event(game, "finish", {"round": 0, "player": "Ada", "golden12": 2}, idempotency_key="a")
    append_event(game, "hand", {"round": 0, "player": "Bo", "hand": {"points": 7}}, idempotency_key="b")
    append_event(game, "hand", {"round": 0, "player": "Cem", "hand": {"numbers": [3]}}, idempotency_key="c")
    table = folded(game).table
    assert len(table.game.rounds) == 1 and table.current is not None and table.current.index == 1


def test_the_orm_refuses_to_change_an_event(game: Game) -> None:
    append_event(game, "pass", {"round": 0, "player": "Ada"}, idempotency_key="a")
    event = db.session.scalars(select(Event)).one()
    event.payload = {"n": 2}
    with pytest.raises(AppendOnlyError):
        db.session.commit()
    db.session.rollback()


def test_the_orm_refuses_to_delete_an_event(game: Game) -> None:
    append_event(game, "pass", {"round": 0, "player": "Ada"}, idempotency_key="a")
    event = db.session.scalars(select(Event)).one()
    db.session.delete(event)
    with pytest.raises(AppendOnlyError):
        db.session.commit()
    db.session.rollback()


def test_the_orm_refuses_bulk_changes(game: Game) -> None:
    append_event(game, "pass", {"round": 0, "player": "Ada"}, idempotency_key="a")
    with pytest.raises(AppendOnlyError):
        db.session.execute(update(Event).values(kind="undo"))
    with pytest.raises(AppendOnlyError):
        db.session.execute(delete(Event))


@pytest.mark.parametrize(
    "statement",
    ["UPDATE events SET kind = 'undo'", "DELETE FROM events"],
    ids=["update", "delete"],
)
def test_the_database_refuses_to_change_history(game: Game, statement: str) -> None:
    append_event(game, "pass", {"round": 0, "player": "Ada"}, idempotency_key="a")
    with pytest.raises(DBAPIError, match="events are append-only"):
        db.session.execute(text(statement))
    db.session.rollback()
    assert db.session.scalar(text("SELECT kind FROM events")) == "pass"


def test_sqlite_runs_in_wal_mode_with_foreign_keys(app: Flask) -> None:
    with app.app_context():
        assert db.session.scalar(text("PRAGMA journal_mode")) == "wal"
        assert db.session.scalar(text("PRAGMA foreign_keys")) == 1
        db.session.add(Player(game_id=999, seat=0, name="Nobody"))
        with pytest.raises(IntegrityError):
            db.session.commit()


def test_dropping_the_kind_check_keeps_every_game_and_reference(tmp_path: Path) -> None:
    """SQLite rebuilds the games table to drop the CHECK on ``kind``: rows, links and foreign keys survive."""
    app = make_app(tmp_path / "old.db", migrate=False)
    with app.app_context():
        flask_migrate.upgrade(revision=BEFORE_THE_REGISTRY)
        # Rows as that schema holds them: written in SQL, as the models have moved on since.
        for game_id, previous in ((1, None), (2, 1)):
            db.session.execute(
                text(
                    "INSERT INTO games (id, token, read_token, kind, variant, house_rules, first_dealer, created_at, previous_id)"
                    " VALUES (:id, :token, :read, 'auruxxx', 'standard', '{}', 0, '2026-11-30', :previous)"
                ),
                {"id": game_id, "token": f"edit-{game_id}", "read": f"read-{game_id}", "previous": previous},
            )
            for seat, name in enumerate(["Ada", "Bo"]):
                db.session.execute(
                    text("INSERT INTO players (game_id, seat, name) VALUES (:game, :seat, :name)"),
                    {"game": game_id, "seat": seat, "name": name},
                )
        db.session.execute(
            text(
                "INSERT INTO events (game_id, seq, kind, payload, created_at, idempotency_key)"
                " VALUES (1, 1, 'pass', '{\"round\": 0, \"player\": \"Ada\"}', '2026-11-30', 'a')"
            )
        )
        db.session.commit()
        tokens = ("edit-1", "read-1", "edit-2")
        db.session.remove()

        flask_migrate.upgrade()

        kept, kept_rematch = db.session.scalars(select(Game).order_by(Game.id)).all()
        assert (kept.token, kept.read_token, kept_rematch.token) == tokens
        assert kept_rematch.previous_id == kept.id
        assert kept.player_names == ("Ada", "Bo") and [e.kind for e in stored_events(kept)] == ["pass"]
        assert (
            db.session.execute(
                text("INSERT INTO games (token, kind, options, created_at) VALUES ('t', 'any kind', '{}', '2026-12-01')")
            ).rowcount
            == 1
        )
        db.session.rollback()
        assert db.session.scalar(text("PRAGMA foreign_keys")) == 1
        db.session.add(Player(game_id=999, seat=0, name="Nobody"))
        with pytest.raises(IntegrityError):
            db.session.commit()
