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
    RATELIMIT_HEADERS_ENABLED = True
    """Flask-Limiter says on a limited route how many requests are left and, once refused, when to try again (``Retry-After``)."""
    LIVE_STREAM_SECONDS = float(os.environ.get("LIVE_STREAM_SECONDS", "25"))
    """How long one live stream stays open before the browser reconnects (views/live.py)."""


class TestConfig(Config):
    """Isolated settings for tests: a throwaway database and a fixed, public key."""

    TESTING = True
    SECRET_KEY = "test-only-key"
    SQLALCHEMY_DATABASE_URI = "sqlite://"
    RATELIMIT_ENABLED = False
    """Tests that prove a limit switch it on for their own app."""


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
