"""link a rematch to its previous game, so a table's evening can be listed

Revision ID: 3b1f0c2a9e47
Revises: d68536236d2d
Create Date: 2026-11-30 05:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "3b1f0c2a9e47"
down_revision = "d68536236d2d"
branch_labels = None
depends_on = None

FOREIGN_KEY = "fk_games_previous_id_games"


def upgrade() -> None:
    """Add the nullable link from a game to the one it is a rematch of.

    SQLite cannot add a constraint to an existing table but accepts a new column with a
    REFERENCES clause, which keeps the table and its rows in place instead of copying it.
    """
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE games ADD COLUMN previous_id INTEGER REFERENCES games (id)")
    else:
        op.add_column("games", sa.Column("previous_id", sa.Integer(), nullable=True))
        op.create_foreign_key(FOREIGN_KEY, "games", "games", ["previous_id"], ["id"])


def downgrade() -> None:
    """Drop the link again."""
    with op.batch_alter_table("games") as batch:
        if op.get_bind().dialect.name != "sqlite":
            batch.drop_constraint(FOREIGN_KEY, type_="foreignkey")
        batch.drop_column("previous_id")
