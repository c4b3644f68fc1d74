"""let a phone say who holds it at a table, so the history names whose phone tapped

Revision ID: c41e8b7d2f90
Revises: a7d3c9e1f204
Create Date: 2026-12-05 10:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "c41e8b7d2f90"
down_revision = "a7d3c9e1f204"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table of seat claims: per table and phone, who holds it from when on."""
    op.create_table(
        "seat_claims",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("card_table_id", sa.Integer(), nullable=False),
        sa.Column("device", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["card_table_id"], ["card_tables.id"], name=op.f("fk_seat_claims_card_table_id_card_tables")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seat_claims")),
    )
    op.create_index("ix_seat_claims_table_device", "seat_claims", ["card_table_id", "device"])


def downgrade() -> None:
    """Drop the seat claims; the games and their histories stay as they were."""
    op.drop_index("ix_seat_claims_table_device", table_name="seat_claims")
    op.drop_table("seat_claims")
