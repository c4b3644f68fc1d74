"""The migration that gives tables their addresses, run on a database with games from before it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import flask_migrate
from sqlalchemy import text

from models import db
from tests.helpers import make_app

BEFORE = "5e8a1f3c7b20"
"""The last revision without table addresses."""


def test_every_chain_of_rematches_gets_one_table_and_a_game_keeps_one_rematch(tmp_path: Path) -> None:
    """Games 1 → 2 → 4 are one evening; 3 was a second rematch of 1 (allowed then): it keeps its game, at a table of its own."""
    app = make_app(tmp_path / "old.db")
    with app.app_context():
        flask_migrate.downgrade(revision=BEFORE)
        now = datetime.now(UTC)
        for game_id, previous in ((1, None), (2, 1), (3, 1), (4, 2), (5, None)):
            db.session.execute(
                text(
                    "INSERT INTO games (id, token, read_token, kind, variant, house_rules, first_dealer, created_at, previous_id)"
                    " VALUES (:id, :token, :read, 'auruxxx', 'standard', '{}', 0, :now, :previous)"
                ),
                {"id": game_id, "token": f"edit{game_id}", "read": f"read{game_id}", "now": now, "previous": previous},
            )
        db.session.commit()
        flask_migrate.upgrade()
        rows = dict(db.session.execute(text("SELECT id, card_table_id FROM games")).all())
        previous = dict(db.session.execute(text("SELECT id, previous_id FROM games")).all())
        tokens = db.session.execute(text("SELECT token FROM card_tables")).scalars().all()
    assert rows[1] == rows[2] == rows[4], "one evening, one table"
    assert len({rows[1], rows[3], rows[5]}) == 3
    assert previous == {1: None, 2: 1, 3: None, 4: 2, 5: None}
    assert len(tokens) == 3 and len(set(tokens)) == 3 and all(len(token) == 32 for token in tokens)
