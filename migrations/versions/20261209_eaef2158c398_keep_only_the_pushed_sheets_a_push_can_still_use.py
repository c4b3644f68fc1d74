"""keep only the pushed sheets a push can still use: a game's newest, the table's latest thousand, none of a replaced address

Revision ID: eaef2158c398
Revises: 9d2c4f6b8a13
Create Date: 2026-12-09 09:00:00

"""

from alembic import op

revision = "eaef2158c398"
down_revision = "9d2c4f6b8a13"
branch_labels = None
depends_on = None

SHEETS_KEPT = 1000
"""The sheets of the changes stored lately that stay: as many changes as a listener reads in one tick (live/hub.py)."""


def upgrade() -> None:
    """Let SQLite itself drop each pushed sheet once no push can use it; PostgreSQL keeps none (they travel in NOTIFY).

    A sheet is read by the other processes' listeners with its change, a tick after it was
    stored, and a listener takes only the newest change of each game it reads: so a game's
    older sheets go as a newer one is stored, and any sheet older than the latest
    ``SHEETS_KEPT`` (``INSERT OR REPLACE`` gives each stored sheet the next row id). A
    listener further behind renders the sheet itself, as a reconnecting phone's always is.
    The sheets of an edit address go when new addresses replace it. Those kept so far go now:
    they are a cache, and every process renders what it misses.
    """
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute("DELETE FROM shipped_sheets")
    op.execute(
        f"""
        CREATE TRIGGER shipped_sheets_keep_what_a_push_can_use AFTER INSERT ON shipped_sheets
        BEGIN
            DELETE FROM shipped_sheets WHERE game_id = NEW.game_id AND version < NEW.version;
            DELETE FROM shipped_sheets WHERE rowid <= NEW.rowid - {SHEETS_KEPT};
        END
        """
    )
    op.execute(
        """
        CREATE TRIGGER shipped_sheets_forget_a_replaced_address AFTER UPDATE OF token ON games
        BEGIN
            DELETE FROM shipped_sheets WHERE game_id = OLD.id AND address = OLD.token;
        END
        """
    )


def downgrade() -> None:
    """Keep every game's sheets again until the next change replaces them."""
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute("DROP TRIGGER IF EXISTS shipped_sheets_forget_a_replaced_address")
    op.execute("DROP TRIGGER IF EXISTS shipped_sheets_keep_what_a_push_can_use")
