"""give every game a read-only address, for a TV or onlookers

Revision ID: 7c4e2d91a5b3
Revises: 3b1f0c2a9e47
Create Date: 2026-11-30 05:30:00

"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "7c4e2d91a5b3"
down_revision = "3b1f0c2a9e47"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the read-only token, give existing games one, and keep tokens unique."""
    op.add_column("games", sa.Column("read_token", sa.String(length=64), nullable=True))
    games = sa.table("games", sa.column("id", sa.Integer), sa.column("read_token", sa.String))
    connection = op.get_bind()
    for (game_id,) in connection.execute(sa.select(games.c.id)).all():
        connection.execute(games.update().where(games.c.id == game_id).values(read_token=secrets.token_urlsafe(24)))
    op.create_index("ix_games_read_token", "games", ["read_token"], unique=True)


def downgrade() -> None:
    """Remove the read-only address."""
    op.drop_index("ix_games_read_token", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("read_token")
