"""Who is looking at a game's page: one frozen value, made once per request or once per push, handed to whatever renders.

A page depends on who looks at it: through the edit address or the read-only one (a table's
TV is a read-only page that also shows the code to join), in which language, and whether it
is one phone's own page or the page every phone at that address shares (pushed live, or the
answer to a tap). Nothing that renders a sheet reads the request for these: a push has none.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from flask import request
from flask_wtf.csrf import generate_csrf

DEVICE_COOKIE = "device"
"""The cookie that names a phone, so the history can say which phone tapped (``views.table.taps`` gives it out)."""
MAX_DEVICE_LENGTH = 64


@dataclass(frozen=True, kw_only=True)
class Viewer:
    """Who is looking at a game, and how the page was asked for."""

    address: str
    """The token the page was opened with: its links stay on it, so a read-only page stays read-only."""
    editable: bool
    """Whether that is the edit address, so the page shows controls."""
    language: str
    tv: str | None = None
    """The table address, when this read-only page is the table's TV."""
    shared: bool = False
    """Whether every phone at the address gets this very page (pushed, or answering a tap): then it holds no phone's own keys."""
    fragment: bool = False
    """Whether htmx asked for the changing part of the page only."""
    phone: str | None = None
    """This phone's id (its device cookie), for what one phone sees of itself: who holds it."""

    def new_key(self) -> str:
        """Return a fresh idempotency key for a form; a shared page leaves it empty for each phone to fill in (static/js/app.js)."""
        return "" if self.shared else uuid.uuid4().hex

    def csrf_token(self) -> str:
        """Return this phone's CSRF token for a form; a shared page leaves it empty for each phone to fill in."""
        return "" if self.shared else str(generate_csrf())


def shared_viewer(address: str, *, editable: bool, language: str) -> Viewer:
    """Return who looks at the page every phone at ``address`` in ``language`` shares: the live part of the sheet."""
    return Viewer(address=address, editable=editable, language=language, shared=True, fragment=True)


def device() -> str | None:
    """Return the id of the phone that sent this request, kept in a cookie (None before it has one)."""
    value = request.cookies.get(DEVICE_COOKIE)
    return value if value and len(value) <= MAX_DEVICE_LENGTH and "\x00" not in value else None
