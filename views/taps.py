"""Recording a tap: it counts once (idempotency keys), says which phone made it (the device cookie), and a refusal speaks the reader's language."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask import Blueprint, Response, abort, g, request, session
from flask_babel import gettext

from models import Game, KeyReusedError, StaleError, append_event
from rules.games import Table
from rules.history import TableEvent, part_changed_since
from rules.json_value import JSON
from views.forms import is_whole
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
    """Return the key the tapped form carried, so a resent tap is recognised and counted once.

    No page writes a NUL into a key, and PostgreSQL cannot store one: such a form is refused.
    """
    key = request.form.get("key", "")
    if "\x00" in key:
        abort(400)
    if not key or len(key) > MAX_KEY_LENGTH:
        return new_key()
    return key


def device() -> str | None:
    """Return this phone's id, kept in a cookie so the history can say which phone tapped."""
    value = request.cookies.get(DEVICE_COOKIE)
    return value if value and len(value) <= MAX_KEY_LENGTH and "\x00" not in value else None


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
    payload: Mapping[str, JSON],
    *,
    precondition: Callable[[Sequence[TableEvent]], None] | None = None,
    key: str | None = None,
) -> list[str]:
    """Append a tap to the game's history; return why it was refused, or nothing when it counts.

    A refusal about one player names them: the sheet has a column each, and a correction a
    field each. A form whose key already recorded a different change is refused too.
    ``precondition`` is handed to ``append_event``; its ``StaleError`` is left to the caller.
    ``key`` replaces the form's own key, for a tap that records several changes.
    """
    try:
        append_event(game, kind, payload, idempotency_key=key or tap_key(), device=device(), precondition=precondition)
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


def keypad_seen() -> int | None:
    """Return ``seen`` of a hand keypad: the newest change when it was opened (None from a form without one)."""
    posted = request.form.get("seen", "")
    return int(posted) if is_whole(posted) else None


def record_hand(
    game: Game, payload: Mapping[str, JSON], *, hand: Callable[[Table[Any]], object], seen: int | None
) -> tuple[list[str], int]:
    """Store a hand entered on a keypad opened at change ``seen``, with the version check of a correction.

    ``hand`` picks the player's hand out of the game. Returns no problems and 200 once it is
    stored; the rules' refusals and 422; or nothing and 409 when another phone saved this hand
    after the keypad opened: then keeping theirs or replacing it is the player's choice, never a
    silent overwrite.
    """
    setup = game.setup

    def unchanged(events: Sequence[TableEvent]) -> None:
        if seen is not None and part_changed_since(setup, events, seen, hand):
            raise StaleError(f"a hand changed after change {seen}")

    try:
        problems = record_tap(game, "hand", payload, precondition=unchanged)
    except StaleError:
        return [], 409
    return problems, 422 if problems else 200


KEYPAD_DRAFTS = 3
"""How many unsaved keypads one phone keeps (the newest), so a reload loses no tapped card."""


def draft_key(game: Game, seat: int, index: int | None = None) -> str:
    """Return the name under which this phone keeps the unsaved keypad of a seat (in a round)."""
    return f"{game.id}:{'' if index is None else index}:{seat}"


def keep_draft(key: str, draft: Mapping[str, Any]) -> None:
    """Keep what a keypad shows but nobody saved yet, in this phone's session."""
    drafts = {name: value for name, value in session.get("keypads", {}).items() if name != key}
    session["keypads"] = dict([*list(drafts.items())[-(KEYPAD_DRAFTS - 1):], (key, dict(draft))])


def draft_of(key: str) -> dict[str, Any] | None:
    """Return the unsaved keypad this phone kept under ``key``, if any."""
    draft = session.get("keypads", {}).get(key)
    return draft if isinstance(draft, dict) else None


def drop_draft(key: str) -> None:
    """Forget an unsaved keypad: it was saved, or its player kept what another phone saved."""
    drafts = session.get("keypads", {})
    if key in drafts:
        session["keypads"] = {name: value for name, value in drafts.items() if name != key}


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
