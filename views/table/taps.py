"""Recording a tap and answering it: it counts once (idempotency keys), says which phone made it (the device cookie),
a refusal speaks the reader's language, and the answer is the sheet the tap left."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import Response, abort, redirect, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response as BaseResponse

from live import Update
from models import Before, Folded, Game, KeyReusedError, Precondition, StaleError, append_events, folded, key_recorded
from rules.games import Table
from rules.json_value import JSON
from rules.problems import Illegal, Problem
from views.pages.forms import is_whole
from views.pages.viewers import DEVICE_COOKIE, Viewer
from views.table.sheets import Fix, Overtaken, render
from views.table.stream import publish, shared_sheet

DEVICE_COOKIE_MAX_AGE = 2 * 365 * 24 * 60 * 60
MAX_KEY_LENGTH = 64


def tap_key() -> str:
    """Return the key the tapped form carried, so a resent tap is recognised and counted once.

    Every tap form carries one (``Viewer.new_key``; on a page every phone shares, the phone's
    script fills it in). A fresh key in place of a missing or unusable one would count a resent
    tap twice, so a form without one, with one too long to store, or with a NUL (PostgreSQL
    cannot store one) is refused (400) before anything is stored.
    """
    key = request.form.get("key", "")
    if not key or len(key) > MAX_KEY_LENGTH or "\x00" in key:
        abort(
            400,
            description=gettext(
                "This tap carries no usable key, so sending it again could count it twice. Reload the sheet and tap again."
            ),
        )
    return key


def change_key(key: str, number: int) -> str:
    """Return the key of the ``number``-th change of a tap that makes several at once, made from the key its form carried.

    >>> change_key("k1", 0), change_key("k" * 64, 2)[-4:]
    ('k1:0', 'kk:2')
    """
    return f"{key[:50]}:{number}"


def sent_before(game: Game) -> bool:
    """Return whether this tap's key already recorded its changes: the phone sent it again, its answer having got lost.

    A tap whose changes are worked out from the game as it stands (clearing the day's cards)
    may work out other changes when it is sent again after another phone's tap; its key
    alone says that it counted.
    """
    key = tap_key()
    return key_recorded(game, [key, change_key(key, 0)])


def posted_seen(version: int | None = None) -> int:
    """Return ``seen`` of a form that moves something in the game: the number of the newest change it was made on.

    Without it nobody can tell whether another phone moved the same thing meanwhile, and a
    number beyond the game's newest change (``version``, or the history ``unmoved_since`` sees)
    names a state the game never had: either is refused (400) before anything is stored.
    """
    posted = request.form.get("seen", "")
    if not is_whole(posted):
        abort(400, description=gettext("This form does not say which state of the game it was made on. Reload the sheet and try again."))
    if version is not None:
        _refuse_a_state_that_never_was(int(posted), version)
    return int(posted)


def _refuse_a_state_that_never_was(seen: int, version: int) -> None:
    if seen > version:
        abort(400, description=gettext("This form names a state of the game that never was. Reload the sheet and try again."))


def unmoved_since(seen: int, part: Callable[[Table[Any]], object]) -> Precondition:
    """Return a precondition refusing a tap (``StaleError``) when what it moves (``part`` of the game) changed after change ``seen``.

    It runs inside the guarded step that appends, so two phones moving the same thing from the
    same state cannot both pass. The game as the tap's sheet showed it is one of the last few
    kept (``Before.table_at``), so the check folds nothing; changes to anything else leave the tap
    valid, and with none at all since ``seen`` there is nothing to compare.
    """

    def unmoved(before: Before) -> None:
        _refuse_a_state_that_never_was(seen, before.version)
        if before.version > seen and part(before.table_at(seen)) != part(before.state.table):
            raise StaleError(f"moved after change {seen}")

    return unmoved


def say(problem: Problem) -> str:
    """Return a problem in the reader's language (the rules speak English; the catalogs translate)."""
    return str(gettext(problem.template)).format(**problem.params)


def as_sentence(text: str) -> str:
    """Return a refusal standing on its own as a sentence: the rules word a problem as a line of a record's check, from a small letter.

    >>> as_sentence("round 1 is finished; round 2 is being played")
    'Round 1 is finished; round 2 is being played'
    """
    return text[:1].upper() + text[1:]


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
    rendered: Update | None = None
    """The sheet every phone at the address is pushed, as the tap rendered it once it was stored."""
    overtaken: Overtaken | None = None
    """Set when another phone moved the same thing meanwhile: nothing was stored, the player chooses."""


def record_tap(
    game: Game,
    viewer: Viewer,
    kind: str,
    payload: Mapping[str, JSON],
    *,
    precondition: Precondition | None = None,
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
    precondition: Precondition | None = None,
) -> Tapped:
    """Append the changes one tap makes to the game's history at once, all or none; refusals as for ``record_tap``.

    Each change counts once under its own key, made from the key the form carried. Once stored,
    the sheet it leaves is rendered and announced (``publish``): its answer, and every phone's push.
    """
    key = tap_key()
    keys = [key] if len(changes) == 1 else [change_key(key, number) for number in range(len(changes))]
    try:
        state = append_events(game, changes, idempotency_keys=keys, device=viewer.phone, precondition=precondition)
        return Tapped(state, rendered=publish(game, viewer, state))
    except KeyReusedError:
        refusals = [gettext("This form was already sent once with other entries. Reload the page and enter it again.")]
    except Illegal as illegal:
        players = game.player_names
        refusals = []
        for problem in illegal.problems:
            who = subject(problem.place, players)
            refusals.append(f"{who}: {say(problem)}" if who else as_sentence(say(problem)))
    return Tapped(folded(game), tuple(refusals))


def record_move(
    game: Game,
    viewer: Viewer,
    changes: Sequence[tuple[str, Mapping[str, JSON]]],
    *,
    moves: Callable[[Table[Any]], object],
    theirs: Callable[[Table[Any]], str],
) -> Tapped:
    """Record a tap that moves something (the figure, a revealed card) rather than adds, made on the change its form saw (``seen``).

    If another phone moved the same thing (``moves`` picks it from the game) after that, nothing
    is stored: the tap comes back overtaken, with ``theirs``, the words of the choice, for the game
    as it stands now. A late tap never replays an old intent over a newer one unasked.
    """
    seen = posted_seen()
    try:
        return record_taps(game, viewer, changes, precondition=unmoved_since(seen, moves))
    except StaleError:
        now = folded(game)
        fields = tuple((name, value) for name, value in request.form.items(multi=True) if name not in ("csrf_token", "key", "seen"))
        return Tapped(now, overtaken=Overtaken(theirs(now.table), request.path, fields, now.version))


def after_tap(game: Game, viewer: Viewer, tapped: Tapped, *, refused_at: str = "", fix: Fix | None = None) -> BaseResponse:
    """Answer a tap on a sheet: the refusal or the choice after another phone's move on this phone's sheet, the sheet every phone
    is pushed for htmx, else back to the page.

    A plain form is redirected, so that reloading the page does not send the tap again.
    ``refused_at`` names the control the tap came from, for the sheet to keep it open on a refusal;
    ``fix`` is shown with the refusal, a way to make the tap count after all.
    """
    if tapped.overtaken is not None:
        return render(game, viewer, tapped.state, overtaken=tapped.overtaken, status=409, refused_at=refused_at)
    if tapped.problems:
        return render(game, viewer, tapped.state, problems=tapped.problems, status=422, refused_at=refused_at, fix=fix)
    if viewer.fragment:
        return shared_sheet(game, viewer, tapped.state, tapped.rendered)
    return redirect(url_for("games.sheet", token=game.token), code=303)


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
