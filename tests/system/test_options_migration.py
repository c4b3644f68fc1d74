"""The migration that keeps a game's options in one JSON column, run on SQLite and PostgreSQL databases with games from before it."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import flask_migrate
import pytest
import sqlalchemy as sa
from sqlalchemy import create_engine, select, text

from models import Game, db
from testbed.servers import sqlite_url
from tests.helpers import make_app
from tests.system.conftest import BACKENDS

BEFORE = "c41e8b7d2f90"
"""The last revision with a column per option."""
OLD_GAMES = sa.table(
    "games",
    sa.column("id", sa.Integer),
    sa.column("token", sa.String),
    sa.column("read_token", sa.String),
    sa.column("kind", sa.String),
    sa.column("variant", sa.String),
    sa.column("house_rules", sa.JSON),
    sa.column("first_dealer", sa.Integer),
    sa.column("created_at", sa.DateTime(timezone=True)),
)
"""The games table as that revision holds it: written without the models, which have moved on since."""
NUMBERS = itertools.count()


@pytest.fixture(params=BACKENDS)
def empty_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Yield the URL of an empty database of each kind: an SQLite file, or a fresh database in the session's PostgreSQL."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path / "old.db")
        return
    cluster: str = request.getfixturevalue("postgres_url")
    name = f"options_migration_{next(NUMBERS)}"
    admin = create_engine(cluster, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {name}"))
    try:
        yield cluster.rpartition("/")[0] + f"/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f"DROP DATABASE {name} WITH (FORCE)"))
        admin.dispose()


def test_options_move_into_one_column_and_back(empty_database: str) -> None:
    """Each game keeps the options its kind used; a downgrade gives every option its column back."""
    app = make_app(empty_database, migrate=False)
    house_rules = {"golden12_in_hand": 25, "two_in_hand": 2, "halving": "penalty", "rounding": "floor"}
    old = [
        {"id": 1, "kind": "auruxxx", "variant": "standard", "house_rules": house_rules, "first_dealer": 2},
        {"id": 2, "kind": "12days", "variant": "8nights", "house_rules": {}, "first_dealer": 0},
        {"id": 3, "kind": "auruxxx", "variant": "standard", "house_rules": {}, "first_dealer": 0},
    ]
    with app.app_context():
        flask_migrate.upgrade(revision=BEFORE)
        now = datetime.now(UTC)
        for game in old:
            db.session.execute(OLD_GAMES.insert().values(**game, token=f"edit{game['id']}", read_token=f"read{game['id']}", created_at=now))
        db.session.commit()

        flask_migrate.upgrade()
        options = {game.id: game.options for game in db.session.scalars(select(Game).order_by(Game.id))}
        assert options == {
            1: {"house_rules": house_rules, "first_dealer": 2},
            2: {"variant": "8nights"},
            3: {"house_rules": {}, "first_dealer": 0},
        }
        columns = {column["name"] for column in sa.inspect(db.engine).get_columns("games")}
        assert "options" in columns and not columns & {"variant", "house_rules", "first_dealer"}
        db.session.remove()

        flask_migrate.downgrade(revision=BEFORE)
        rows = (
            db.session.execute(
                select(OLD_GAMES.c.id, OLD_GAMES.c.kind, OLD_GAMES.c.variant, OLD_GAMES.c.house_rules, OLD_GAMES.c.first_dealer).order_by(
                    OLD_GAMES.c.id
                )
            )
            .mappings()
            .all()
        )
        assert [dict(row) for row in rows] == old
        db.session.remove()
        db.engine.dispose()
