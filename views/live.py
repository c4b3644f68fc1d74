"""Every phone at the table sees a tap made on another within a second, without reloading.

A sheet keeps a server-sent-events stream open; when the game's history grows, the stream
says so and htmx fetches the new sheet. The version of a game is the number of its newest
event: history is append-only, so that number changes exactly when something happened.
The signal travels through the database, so it works with any number of server processes:
PostgreSQL pushes it with LISTEN/NOTIFY, SQLite is asked a cheap question a few times a
second. A stream ends after a while and the browser reconnects with the last version it
saw, which also catches up after a dropped connection (and works where a proxy will not
keep a connection open: then it is polling).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, request, stream_with_context
from sqlalchemy import func, select

from models import CHANGES_CHANNEL, Event, Game, db
from views.addresses import game_for_reading
from views.forms import is_whole

bp = Blueprint("live", __name__)

STREAM_SECONDS = 25.0
"""How long one stream stays open before the browser reconnects."""
CHECK_SECONDS = 0.25
"""How often SQLite is asked whether a game changed."""
KEEPALIVE_SECONDS = 10.0
RETRY_MILLISECONDS = 500


def version(game_id: int) -> int:
    """Return the number of a game's newest event (0 for none), ending the read at once.

    Ending the transaction matters: a reader that stayed in one would keep seeing the
    database as it was when it began.
    """
    newest = db.session.scalar(select(func.coalesce(func.max(Event.seq), 0)).where(Event.game_id == game_id))
    db.session.rollback()
    return int(newest or 0)


def _message(current: int) -> str:
    """Return one server-sent event saying which version a game has reached."""
    return f"id: {current}\nevent: changed\ndata: {current}\n\n"


def _since() -> int | None:
    """Return the version the browser last saw: from a reconnect's Last-Event-ID, else the page's own."""
    for value in (request.headers.get("Last-Event-ID", ""), request.args.get("since", "")):
        if is_whole(value):
            return int(value)
    return None


class _Listener:
    """Waits for a game's change: PostgreSQL NOTIFY where available, else a short sleep between checks."""

    def __init__(self) -> None:
        self.connection: Any = None
        if db.engine.dialect.name == "postgresql":
            import psycopg

            url = db.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
            self.connection = psycopg.connect(url, autocommit=True)
            self.connection.execute(f"LISTEN {CHANGES_CHANNEL}")

    def wait(self, seconds: float, game_id: int) -> None:
        """Return when this game may have changed, or after ``seconds``."""
        if self.connection is None:
            time.sleep(min(seconds, CHECK_SECONDS))
            return
        for note in self.connection.notifies(timeout=seconds, stop_after=1):
            if note.payload == str(game_id):
                return

    def close(self) -> None:
        """Stop listening."""
        if self.connection is not None:
            self.connection.close()


def stream(game_id: int, since: int | None, seconds: float) -> Iterator[str]:
    """Yield an event whenever the game's version moves on, for ``seconds``, then end."""
    listener = _Listener()
    try:
        yield f"retry: {RETRY_MILLISECONDS}\n\n"
        seen = version(game_id)
        if since is not None and since != seen:
            yield _message(seen)
        deadline = time.monotonic() + seconds
        quiet_since = time.monotonic()
        while (left := deadline - time.monotonic()) > 0:
            listener.wait(min(left, KEEPALIVE_SECONDS), game_id)
            current = version(game_id)
            if current != seen:
                seen = current
                quiet_since = time.monotonic()
                yield _message(current)
            elif time.monotonic() - quiet_since >= KEEPALIVE_SECONDS:
                quiet_since = time.monotonic()
                yield ": still here\n\n"
    finally:
        listener.close()
        db.session.remove()


@bp.get("/g/<token>/live")
def changes(token: str) -> Response:
    """Stream "changed" events for a game to a sheet (edit or read-only address alike)."""
    game: Game = game_for_reading(token)
    seconds = float(current_app.config.get("LIVE_STREAM_SECONDS", STREAM_SECONDS))
    response = Response(stream_with_context(stream(game.id, _since(), seconds)), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response

