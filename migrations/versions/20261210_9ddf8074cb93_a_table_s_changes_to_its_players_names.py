"""a table's changes to its players' names: "Anni" is Anna (merge) or no longer (unmerge), as a history

Revision ID: 9ddf8074cb93
Revises: eaef2158c398
Create Date: 2026-12-07 23:42:38

"""

import sqlalchemy as sa
from alembic import op

revision = "9ddf8074cb93"
down_revision = "eaef2158c398"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the table of name changes, found by the table they were made at."""
    op.create_table(
        "name_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("card_table_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("alias", sa.String(length=40), nullable=False),
        sa.Column("player", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("kind IN ('merge', 'unmerge')", name=op.f("ck_name_changes_kind")),
        sa.ForeignKeyConstraint(["card_table_id"], ["card_tables.id"], name=op.f("fk_name_changes_card_table_id_card_tables")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_name_changes")),
    )
    op.create_index(op.f("ix_name_changes_card_table_id"), "name_changes", ["card_table_id"], unique=False)


def downgrade() -> None:
    """Drop the name changes again."""
    op.drop_index(op.f("ix_name_changes_card_table_id"), table_name="name_changes")
    op.drop_table("name_changes")
