"""Recording a tap and answering it: it counts once (idempotency keys), says which phone made it (the device cookie),
a refusal speaks the reader's language, and the answer is the sheet the tap left."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, redirect, request, session, url_for
from werkzeug.wrappers import Response as BaseResponse
from flask_babel import gettext

from models import Folded, Game, KeyReusedError, StaleError, append_event, folded
from rules.games import Table
from rules.history import TableEvent, part_changed_since
from rules.problems import Illegal, Problem
from views.forms import is_whole
from views.live import shared_sheet
from views.sheets import render
from views.viewers import Viewer

bp = Blueprint("taps", __name__)

DEVICE_COOKIE = "device"
DEVICE_COOKIE_MAX_AGE = 2 * 365 * 24 * 60 * 60
MAX_KEY_LENGTH = 64


def tap_key() -> str:
    """Return the key the tapped form carried, so a resent tap is recognised and counted once (a fresh one if it carried none)."""
    key = request.form.get("key", "")
    if not key or len(key) > MAX_KEY_LENGTH:
        return uuid.uuid4().hex
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


@dataclass(frozen=True)
class Tapped:
    """What a tap came to: the game as it stands after it, and why it was refused (nothing when it counts)."""

    state: Folded
    problems: tuple[str, ...] = ()


def record_tap(
    game: Game,
    kind: str,
    payload: Mapping[str, Any],
    *,
    precondition: Callable[[Sequence[TableEvent]], None] | None = None,
    key: str | None = None,
) -> Tapped:
    """Append a tap to the game's history; return the game as it then stands, and why the tap was refused, if it was.

    A refusal about one player names them: the sheet has a column each, and a correction a
    field each. A form whose key already recorded a different change is refused too.
    ``precondition`` is handed to ``append_event``; its ``StaleError`` is left to the caller.
    ``key`` replaces the form's own key, for a tap that records several changes.
    """
    try:
        return Tapped(append_event(game, kind, payload, idempotency_key=key or tap_key(), device=device(), precondition=precondition))
    except KeyReusedError:
        refusals = [gettext("This form was already sent once with other entries. Reload the page and enter it again.")]
    except Illegal as illegal:
        players = game.player_names
        refusals = []
        for problem in illegal.problems:
            who = subject(problem.place, players)
            refusals.append(f"{who}: {say(problem)}" if who else say(problem))
    return Tapped(folded(game), tuple(refusals))


def after_tap(game: Game, viewer: Viewer, tapped: Tapped, *, refused_at: str = "") -> BaseResponse:
    """Answer a tap on a sheet: the refusal on this phone's sheet, the sheet every phone is pushed for htmx, else back to the page.

    A plain form is redirected, so that reloading the page does not send the tap again.
    ``refused_at`` names the control the tap came from, for the sheet to keep it open on a refusal.
    """
    if tapped.problems:
        return render(game, viewer, tapped.state, problems=tapped.problems, status=422, refused_at=refused_at)
    if viewer.fragment:
        return shared_sheet(game, viewer, tapped.state)
    return redirect(url_for("games.sheet", token=game.token), code=303)


def keypad_seen() -> int | None:
    """Return ``seen`` of a hand keypad: the newest change when it was opened (None from a form without one)."""
    posted = request.form.get("seen", "")
    return int(posted) if is_whole(posted) else None


def record_hand(
    game: Game, payload: Mapping[str, Any], *, hand: Callable[[Table[Any]], object], seen: int | None
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
        problems = record_tap(game, "hand", payload, precondition=unchanged).problems
    except StaleError:
        return [], 409
    return list(problems), 422 if problems else 200


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
