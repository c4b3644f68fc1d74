"""Recording a tap: it counts once (idempotency keys), says which phone made it (the device cookie), and a refusal speaks the reader's language."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask import Blueprint, Response, g, request
from flask_babel import gettext

from models import Game, KeyReusedError, append_event
from rules.history import TableEvent
from rules.problems import Illegal, Problem

bp = Blueprint("taps", __name__)

DEVICE_COOKIE = "device"
DEVICE_COOKIE_MAX_AGE = 2 * 365 * 24 * 60 * 60
MAX_KEY_LENGTH = 64


def new_key() -> str:
    """Return a fresh idempotency key for a form about to be shown.

    A sheet shared by every phone (pushed, or answering a tap) carries none: each phone fills in its own (static/js/app.js).
    """
    return "" if g.get("shared_page") else uuid.uuid4().hex


def tap_key() -> str:
    """Return the key the tapped form carried, so a resent tap is recognised and counted once."""
    key = request.form.get("key", "")
    if not key or len(key) > MAX_KEY_LENGTH:
        return new_key()
    return key


def device() -> str | None:
    """Return this phone's id, kept in a cookie so the history can say which phone tapped."""
    value = request.cookies.get(DEVICE_COOKIE)
    return value if value and len(value) <= MAX_KEY_LENGTH else None


def say(problem: Problem) -> str:
    """Return a problem in the reader's language (the rules speak English; the catalogs translate)."""
    return str(gettext(problem.template)).format(**problem.params)


def subject(place: str, players: Sequence[str]) -> str | None:
    """Return the player a problem's place is about ("rounds[0].hands.Ben.points" is about Ben), if any.

    >>> subject("rounds[0].hands.Ben.points", ["Ben", "Benno"]), subject("days[2]", ["A"])
    ('Ben', None)
    """
    named = [name for name in players if f".{name}." in f"{place}." or place.endswith(f"[{name}]")]
    return max(named, key=len) if named else None


def record_tap(
    game: Game,
    kind: str,
    payload: Mapping[str, Any],
    *,
    precondition: Callable[[Sequence[TableEvent]], None] | None = None,
) -> list[str]:
    """Append a tap to the game's history; return why it was refused, or nothing when it counts.

    A refusal about one player names them: the sheet has a column each, and a correction a
    field each. A form whose key already recorded a different change is refused too.
    ``precondition`` is handed to ``append_event``; its ``StaleError`` is left to the caller.
    """
    try:
        append_event(game, kind, payload, idempotency_key=tap_key(), device=device(), precondition=precondition)
    except KeyReusedError:
        return [gettext("This form was already sent once with other entries. Reload the page and enter it again.")]
    except Illegal as illegal:
        players = game.player_names
        refusals = []
        for problem in illegal.problems:
            who = subject(problem.place, players)
            refusals.append(f"{who}: {say(problem)}" if who else say(problem))
        return refusals
    return []


@bp.after_app_request
def give_device_an_id(response: Response) -> Response:
    """Give a phone its id on its first visit."""
    if request.cookies.get(DEVICE_COOKIE) is None and response.mimetype == "text/html":
        response.set_cookie(
            DEVICE_COOKIE,
            secrets.token_urlsafe(12),
            max_age=DEVICE_COOKIE_MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure,
        )
    return response
