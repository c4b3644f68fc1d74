"""give every table an address that outlives one game, and a game at most one rematch

Revision ID: a7d3c9e1f204
Revises: 5e8a1f3c7b20
Create Date: 2026-12-01 10:00:00

"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "a7d3c9e1f204"
down_revision = "5e8a1f3c7b20"
branch_labels = None
depends_on = None

FOREIGN_KEY = "fk_games_card_table_id_card_tables"


def upgrade() -> None:
    """Create the tables, put every chain of rematches at one table, and allow one rematch per game.

    Two rematches of one game, started before this migration, keep the earlier one as the
    rematch; the later one starts a table of its own. SQLite cannot add a NOT NULL column to
    a table with rows, so ``card_table_id`` is nullable in the schema; every game gets one
    here, and the app always sets it.
    """
    op.create_table(
        "card_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_card_tables")),
        sa.UniqueConstraint("token", name=op.f("uq_card_tables_token")),
    )
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        op.execute("ALTER TABLE games ADD COLUMN card_table_id INTEGER REFERENCES card_tables (id)")
    else:
        op.add_column("games", sa.Column("card_table_id", sa.Integer(), nullable=True))
        op.create_foreign_key(FOREIGN_KEY, "games", "card_tables", ["card_table_id"], ["id"])

    connection = op.get_bind()
    games = sa.table(
        "games",
        sa.column("id", sa.Integer),
        sa.column("previous_id", sa.Integer),
        sa.column("card_table_id", sa.Integer),
        sa.column("created_at", sa.DateTime),
    )
    tables = sa.table("card_tables", sa.column("id", sa.Integer), sa.column("token", sa.String), sa.column("created_at", sa.DateTime))
    rematched: set[int] = set()
    table_of: dict[int, int] = {}
    for game_id, previous_id, created_at in connection.execute(
        sa.select(games.c.id, games.c.previous_id, games.c.created_at).order_by(games.c.id)
    ).all():
        if previous_id is not None and previous_id in rematched:
            connection.execute(games.update().where(games.c.id == game_id).values(previous_id=None))
            previous_id = None
        if previous_id is not None and previous_id in table_of:
            rematched.add(previous_id)
            table_id = table_of[previous_id]
        else:
            table_id = connection.execute(
                tables.insert().values(token=secrets.token_urlsafe(24), created_at=created_at).returning(tables.c.id)
            ).scalar_one()
        table_of[game_id] = table_id
        connection.execute(games.update().where(games.c.id == game_id).values(card_table_id=table_id))

    op.create_index("ix_games_card_table_id", "games", ["card_table_id"])
    op.create_index("uq_games_previous_id", "games", ["previous_id"], unique=True)


def downgrade() -> None:
    """Drop the table addresses (rematch links stay, no longer unique)."""
    op.drop_index("uq_games_previous_id", table_name="games")
    op.drop_index("ix_games_card_table_id", table_name="games")
    with op.batch_alter_table("games") as batch:
        if op.get_bind().dialect.name != "sqlite":
            batch.drop_constraint(FOREIGN_KEY, type_="foreignkey")
        batch.drop_column("card_table_id")
    op.drop_table("card_tables")
