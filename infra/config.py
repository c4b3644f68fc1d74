"""Settings from environment variables, with defaults that work out of the box."""

import os
import secrets
import tempfile
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

LANGUAGES = ("de", "en")
"""Languages the interface is translated into, the default first."""


class Config:
    """Production defaults; every value can be overridden by an environment variable."""

    SECRET_KEY: str | None = os.environ.get("SECRET_KEY")
    SQLALCHEMY_DATABASE_URI: str | None = os.environ.get("DATABASE_URL")
    BABEL_DEFAULT_LOCALE = os.environ.get("BABEL_DEFAULT_LOCALE", LANGUAGES[0])
    BABEL_DEFAULT_TIMEZONE = os.environ.get("BABEL_DEFAULT_TIMEZONE", "Europe/Berlin")
    LANGUAGES = LANGUAGES
    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"
    SESSION_COOKIE_SECURE = os.environ.get("SESSION_COOKIE_SECURE", "") == "1"
    WTF_CSRF_TIME_LIMIT = None
    """A form's CSRF token lasts as long as the session it is bound to: a sheet left open all evening still taps."""
    MAX_CONTENT_LENGTH = 512 * 1024
    """No request of this app is anywhere near this large; a bigger one is refused before it is read."""
    RATELIMIT_STORAGE_URI = os.environ.get("RATELIMIT_STORAGE_URI") or "memory://"
    """Where rate limits are counted: in this process by default, e.g. ``redis://host:6379/0`` to share them."""
    RATELIMIT_STRATEGY = "moving-window"
    """A limit of N a minute counts any 60 seconds: a fixed window would let twice N through across its edge, and a
    count that restarts at the edge of the clock's minute lets a burst of N + 1 pass now and then."""
    RATELIMIT_ENABLED = True
    """Whether the rate limits apply; tests switch them off (``TestConfig``) except where they prove one."""
    RATELIMIT_HEADERS_ENABLED = False
    """Off: Flask-Limiter would put its window's reset as ``Retry-After`` on every answer of a limited route, over the
    app's own on a 503; a refusal (429) says when to try again by itself (``views.pages.limits.retry_after``)."""
    LIVE_STREAM_SECONDS = float(os.environ.get("LIVE_STREAM_SECONDS", "600"))
    """The longest one live stream stays open before the browser reconnects; each lives a share of it
    drawn at random (views/live.py), so 10,000 phones reconnect about 30 times a second, never in a herd."""
    LIVE_KEEPALIVE_SECONDS = float(os.environ.get("LIVE_KEEPALIVE_SECONDS", "30"))
    """How often a quiet stream says something: within the idle timeouts of common proxies (60 s and more)."""
    LIVE_TICK_SECONDS = float(os.environ.get("LIVE_TICK_SECONDS", "0.025"))
    """How often a process asks SQLite for the events stored since its last look (live/hub.py)."""
    LIVE_STREAMS_PER_PROCESS = int(os.environ.get("LIVE_STREAMS_PER_PROCESS", "8000"))
    """Open live streams one server process holds; one more is answered 503 with Retry-After.
    Two workers hold 10,000 open sheets even when one of them took more than its half."""
    LIVE_STREAMS_PER_ADDRESS = int(os.environ.get("LIVE_STREAMS_PER_ADDRESS", "100"))
    """Open live streams one client address may hold in one process: a café's shared address, not a loop."""
    LIVE_RETRY_AFTER_SECONDS = int(os.environ.get("LIVE_RETRY_AFTER_SECONDS", "10"))
    """What a refused stream is told to wait before it tries again."""
    EVENING_IDLE_HOURS = float(os.environ.get("EVENING_IDLE_HOURS", "6"))
    """Hours a table may stay idle and still be the same evening: the next game after a longer pause begins a new one."""
    TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", "0"))
    """Reverse proxies in front of the app whose X-Forwarded-* headers are believed (0: none, the default)."""
    COMPRESS_MIMETYPES = (
        "text/html",
        "text/css",
        "text/javascript",
        "application/javascript",
        "application/json",
        "application/manifest+json",
        "image/svg+xml",
    )
    """What Flask-Compress compresses: pages, fragments, records, styles and scripts, never ``text/event-stream``."""


class TestConfig(Config):
    """Isolated settings for tests: a throwaway database and a fixed, public key."""

    TESTING = True
    SECRET_KEY = "test-only-key"
    SQLALCHEMY_DATABASE_URI = "sqlite://"
    RATELIMIT_ENABLED = False


POOL_SIZE = int(os.environ.get("DATABASE_POOL_SIZE", "10"))
"""PostgreSQL connections each server process keeps open (``DATABASE_POOL_SIZE``)."""
POOL_OVERFLOW = int(os.environ.get("DATABASE_POOL_OVERFLOW", "10"))
"""Further PostgreSQL connections a busy process may open for a moment (``DATABASE_POOL_OVERFLOW``)."""
POOL_RECYCLE_SECONDS = 1800
"""Age after which a pooled PostgreSQL connection is replaced before use: shorter than common idle timeouts of firewalls."""


def apply_engine_defaults(config: MutableMapping[str, Any]) -> None:
    """Keep the values of SQL statements out of database errors; on PostgreSQL, also size and check the connection pool.

    A query's values are tokens and keys, and an error's message ends up in a log
    (``hide_parameters``). Evented workers have many requests waiting on the database at
    once (``pool_size``, ``max_overflow``). After a database restart every pooled connection
    is dead; the server said so on its socket as it went, so each connection is looked at
    before use without a round trip and replaced if it was told anything
    (``models.base.configure_engine``): a restart costs no request an error, and a tap no
    ``SELECT 1`` per checkout (``pool_pre_ping``). A connection older than ``POOL_RECYCLE_SECONDS``
    is replaced before use, for what silently drops an idle connection on the way (a firewall,
    NAT), which no socket shows.
    """
    options = dict(config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
    options.setdefault("hide_parameters", True)
    if str(config.get("SQLALCHEMY_DATABASE_URI") or "").startswith("postgresql"):
        options.setdefault("pool_size", POOL_SIZE)
        options.setdefault("max_overflow", POOL_OVERFLOW)
        options.setdefault("pool_recycle", POOL_RECYCLE_SECONDS)
    config["SQLALCHEMY_ENGINE_OPTIONS"] = options


def apply_instance_defaults(config: MutableMapping[str, Any], instance_path: str) -> None:
    """Fill in the settings whose defaults live in the instance folder."""
    if not config.get("SECRET_KEY"):
        config["SECRET_KEY"] = instance_secret_key(Path(instance_path) / "secret_key")
    if not config.get("SQLALCHEMY_DATABASE_URI"):
        config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{Path(instance_path) / 'tischblock.db'}"


def instance_secret_key(path: Path) -> str:
    """Return the key stored at ``path``, creating it on first start.

    The key is written to a temporary file and linked into place, so several workers
    starting at once all end up with the same key.
    """
    if not path.exists():
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False) as draft:
            draft.write(secrets.token_urlsafe(48))
        try:
            os.chmod(draft.name, 0o600)
            os.link(draft.name, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(draft.name)
    return path.read_text().strip()
