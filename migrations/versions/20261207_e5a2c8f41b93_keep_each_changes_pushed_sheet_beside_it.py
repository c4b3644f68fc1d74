"""keep each change's pushed sheet beside it, so other processes push it without rendering it again

Revision ID: e5a2c8f41b93
Revises: 4b9e6d2a7c15
Create Date: 2026-12-07 10:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "e5a2c8f41b93"
down_revision = "4b9e6d2a7c15"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table of pushed sheets: the newest per game, address and language (only SQLite fills it)."""
    op.create_table(
        "shipped_sheets",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("language", sa.String(length=16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("deflated", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_shipped_sheets_game_id_games")),
        sa.PrimaryKeyConstraint("game_id", "address", "language", name=op.f("pk_shipped_sheets")),
    )


def downgrade() -> None:
    """Drop the pushed sheets: they are a cache, every process renders what it misses."""
    op.drop_table("shipped_sheets")
