"""let the game registry decide which kinds of game exist, not a CHECK constraint

Revision ID: 5e8a1f3c7b20
Revises: 7c4e2d91a5b3
Create Date: 2026-12-01 09:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "5e8a1f3c7b20"
down_revision = "7c4e2d91a5b3"
branch_labels = None
depends_on = None

CONSTRAINT = "ck_games_kind"
KINDS_OF_2026 = "kind IN ('auruxxx', '12days')"
"""The constraint as the first migration wrote it, for a downgrade."""


def upgrade() -> None:
    """Drop the CHECK on ``games.kind``: a new game registers itself in the rules, without a migration.

    SQLite cannot drop a constraint in place, so the table is rebuilt (batch mode, with foreign
    keys checked after the migrations: see ``env.py``).
    """
    if op.get_bind().dialect.name == "sqlite":
        with op.batch_alter_table("games", recreate="always") as batch:
            batch.drop_constraint(op.f(CONSTRAINT), type_="check")
    else:
        op.drop_constraint(op.f(CONSTRAINT), "games", type_="check")


def downgrade() -> None:
    """Put the CHECK back (refused while a game of another kind is stored)."""
    if op.get_bind().dialect.name == "sqlite":
        with op.batch_alter_table("games", recreate="always") as batch:
            batch.create_check_constraint("kind", sa.text(KINDS_OF_2026))
    else:
        op.create_check_constraint("kind", "games", sa.text(KINDS_OF_2026))
