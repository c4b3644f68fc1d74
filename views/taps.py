"""Recording a tap and answering it: it counts once (idempotency keys), says which phone made it (the device cookie),
a refusal speaks the reader's language, and the answer is the sheet the tap left."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from flask import Blueprint, Response, abort, redirect, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response as BaseResponse

from models import Folded, Game, KeyReusedError, append_events, folded
from rules.games import TableEvent
from rules.json_value import JSON
from rules.problems import Illegal, Problem
from views.live import shared_sheet
from views.sheets import render
from views.viewers import DEVICE_COOKIE, Viewer

bp = Blueprint("taps", __name__)

DEVICE_COOKIE_MAX_AGE = 2 * 365 * 24 * 60 * 60
MAX_KEY_LENGTH = 64


def tap_key() -> str:
    """Return the key the tapped form carried, so a resent tap is recognised and counted once (a fresh one if it carried none).

    No page writes a NUL into a key, and PostgreSQL cannot store one: such a form is refused.
    """
    key = request.form.get("key", "")
    if "\x00" in key:
        abort(400)
    if not key or len(key) > MAX_KEY_LENGTH:
        return uuid.uuid4().hex
    return key


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
    viewer: Viewer,
    kind: str,
    payload: Mapping[str, JSON],
    *,
    precondition: Callable[[Sequence[TableEvent]], None] | None = None,
) -> Tapped:
    """Append a tap to the game's history; return the game as it then stands, and why the tap was refused, if it was.

    The tap is stored as made by the viewer's phone. A refusal about one player names them: the
    sheet has a column each, and a correction a field each. A form whose key already recorded a
    different change is refused too.
    ``precondition`` is handed to ``append_event``; its ``StaleError`` is left to the caller.
    """
    return record_taps(game, viewer, [(kind, payload)], precondition=precondition)


def record_taps(
    game: Game,
    viewer: Viewer,
    changes: Sequence[tuple[str, Mapping[str, JSON]]],
    *,
    precondition: Callable[[Sequence[TableEvent]], None] | None = None,
) -> Tapped:
    """Append the changes one tap makes to the game's history at once, all or none; refusals as for ``record_tap``.

    Each change counts once under its own key, made from the key the form carried.
    """
    key = tap_key()
    keys = [key] if len(changes) == 1 else [f"{key[:50]}:{number}" for number in range(len(changes))]
    try:
        return Tapped(append_events(game, changes, idempotency_keys=keys, device=viewer.phone, precondition=precondition))
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
