"""keep a game's options in one JSON column, so that a game's options are its own business

Revision ID: 4b9e6d2a7c15
Revises: c41e8b7d2f90
Create Date: 2026-12-06 09:00:00

"""

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "4b9e6d2a7c15"
down_revision = "c41e8b7d2f90"
branch_labels = None
depends_on = None

OPTIONS_OF_2026: dict[str, tuple[str, ...]] = {"auruxxx": ("house_rules", "first_dealer"), "12days": ("variant",)}
"""Which of the old columns each kind of game used, when there were columns: the others held their defaults."""
DEFAULTS = {"variant": "standard", "house_rules": {}, "first_dealer": 0}
"""What the old columns held for a game that did not use them."""


def _games(*columns: Any) -> sa.TableClause:
    """Return the games table as this migration reads and writes it."""
    return sa.table("games", sa.column("id", sa.Integer), sa.column("kind", sa.String), *columns)


def upgrade() -> None:
    """Move every game's variant, house rules and first dealer into ``options``, then drop their columns."""
    op.add_column("games", sa.Column("options", sa.JSON(), nullable=False, server_default="{}"))
    old = _games(
        sa.column("variant", sa.String),
        sa.column("house_rules", sa.JSON),
        sa.column("first_dealer", sa.Integer),
        sa.column("options", sa.JSON),
    )
    connection = op.get_bind()
    rows = connection.execute(sa.select(old.c.id, old.c.kind, old.c.variant, old.c.house_rules, old.c.first_dealer)).all()
    for game_id, kind, variant, house_rules, first_dealer in rows:
        stored = {"variant": variant, "house_rules": house_rules, "first_dealer": first_dealer}
        options = {name: stored[name] for name in OPTIONS_OF_2026.get(kind, ())}
        connection.execute(old.update().where(old.c.id == game_id).values(options=options))
    with op.batch_alter_table("games") as batch:
        batch.alter_column("options", server_default=None)
        batch.drop_column("variant")
        batch.drop_column("house_rules")
        batch.drop_column("first_dealer")


def downgrade() -> None:
    """Give the options their columns back (options no column held are dropped)."""
    op.add_column("games", sa.Column("variant", sa.String(length=32), nullable=False, server_default=DEFAULTS["variant"]))
    op.add_column("games", sa.Column("house_rules", sa.JSON(), nullable=False, server_default="{}"))
    op.add_column("games", sa.Column("first_dealer", sa.Integer(), nullable=False, server_default="0"))
    new = _games(
        sa.column("options", sa.JSON),
        sa.column("variant", sa.String),
        sa.column("house_rules", sa.JSON),
        sa.column("first_dealer", sa.Integer),
    )
    connection = op.get_bind()
    for game_id, options in connection.execute(sa.select(new.c.id, new.c.options)).all():
        columns = {name: options.get(name, default) for name, default in DEFAULTS.items()}
        connection.execute(new.update().where(new.c.id == game_id).values(**columns))
    with op.batch_alter_table("games") as batch:
        for name in DEFAULTS:
            batch.alter_column(name, server_default=None)
        batch.drop_column("options")
