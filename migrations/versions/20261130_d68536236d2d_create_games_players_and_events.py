"""create games, players and the append-only event history

Revision ID: d68536236d2d
Revises:
Create Date: 2026-11-30 04:34:48.519489

"""

import sqlalchemy as sa
from alembic import op

revision = "d68536236d2d"
down_revision = None
branch_labels = None
depends_on = None

APPEND_ONLY = "events are append-only"


def upgrade() -> None:
    """Create the three tables and the triggers that keep the history unchangeable."""
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("house_rules", sa.JSON(), nullable=False),
        sa.Column("first_dealer", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("kind IN ('auruxxx', '12days')", name=op.f("ck_games_kind")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sa.UniqueConstraint("token", name=op.f("uq_games_token")),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.CheckConstraint("length(name) BETWEEN 1 AND 40", name=op.f("ck_players_name")),
        sa.CheckConstraint("seat >= 0", name=op.f("ck_players_seat")),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_players_game_id_games")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("game_id", "name", name=op.f("uq_players_game_id_name")),
        sa.UniqueConstraint("game_id", "seat", name=op.f("uq_players_game_id_seat")),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("device", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("idempotency_key", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_events_game_id_games")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_events")),
        sa.UniqueConstraint("game_id", "idempotency_key", name=op.f("uq_events_game_id_idempotency_key")),
        sa.UniqueConstraint("game_id", "seq", name=op.f("uq_events_game_id_seq")),
    )

    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for action in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER events_refuse_{action.lower()} BEFORE {action} ON events BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END"
            )
    elif dialect == "postgresql":
        op.execute(
            f"CREATE FUNCTION events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '{APPEND_ONLY}'; END $$"
        )
        op.execute(
            "CREATE TRIGGER events_refuse_change BEFORE UPDATE OR DELETE ON events FOR EACH ROW EXECUTE FUNCTION events_refuse_change()"
        )
        op.execute(
            "CREATE TRIGGER events_refuse_truncate BEFORE TRUNCATE ON events FOR EACH STATEMENT EXECUTE FUNCTION events_refuse_change()"
        )
    else:
        raise NotImplementedError(f"no append-only triggers written for {dialect}")


def downgrade() -> None:
    """Drop the triggers and tables again (the history goes with them)."""
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS events_refuse_update")
        op.execute("DROP TRIGGER IF EXISTS events_refuse_delete")
    elif dialect == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS events_refuse_truncate ON events")
        op.execute("DROP TRIGGER IF EXISTS events_refuse_change ON events")
        op.execute("DROP FUNCTION IF EXISTS events_refuse_change()")
    op.drop_table("events")
    op.drop_table("players")
    op.drop_table("games")
