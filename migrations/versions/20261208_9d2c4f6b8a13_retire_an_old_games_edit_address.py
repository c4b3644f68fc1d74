"""note when an old game's edit address was retired by new addresses at its table, so it hands out nothing newer

Revision ID: 9d2c4f6b8a13
Revises: e5a2c8f41b93
Create Date: 2026-12-08 09:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "9d2c4f6b8a13"
down_revision = "e5a2c8f41b93"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the mark; every game stored so far keeps its edit address as it was."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("address_retired", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    """Drop the mark again."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("address_retired")
