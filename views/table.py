"""What every game screen shares: finding the game, recording a tap, and saying why one was refused."""

from __future__ import annotations

import hmac
import secrets
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from flask import Blueprint, Response, abort, g, request, session, url_for
from flask_babel import gettext
from sqlalchemy import or_, select

from models import CardTable, Game, KeyReusedError, StaleError, append_event, db
from rules.history import TableEvent, changed_since, hand_changed_since
from rules.problems import Illegal, Problem

bp = Blueprint("table", __name__)

DEVICE_COOKIE = "device"
DEVICE_COOKIE_MAX_AGE = 2 * 365 * 24 * 60 * 60
MAX_KEY_LENGTH = 64
RECENT_NAMES = 12
"""How many player names this device remembers from its recent games."""


def _find(token: str) -> tuple[Game, bool] | None:
    """Return the game a token opens and whether it may change it (edit address) or only look.

    The tokens are compared in constant time, so timing cannot tell how much of a guess was right.
    """
    if not token or len(token) > MAX_KEY_LENGTH:
        return None
    game = db.session.scalar(select(Game).where(or_(Game.token == token, Game.read_token == token)))
    if game is None:
        return None
    if hmac.compare_digest(game.token.encode(), token.encode()):
        return game, True
    if game.read_token is not None and hmac.compare_digest(game.read_token.encode(), token.encode()):
        return game, False
    return None


ROUTES_OF_ONE_KIND = {"auruxxx": "auruxxx", "twelve_days": "12days"}
"""Blueprints whose routes exist for one kind of game only, and that kind (``Game.kind``)."""


def game_or_404(token: str) -> Game:
    """Return the game behind an edit address; anything else, a read-only address included, is a missing page.

    So is a route of the other game: a 12 Days game has no AURUXXX round to finish.
    """
    found = _find(token)
    if found is None or not found[1]:
        abort(404)
    if ROUTES_OF_ONE_KIND.get(request.blueprint or "", found[0].kind) != found[0].kind:
        abort(404)
    g.editable = True
    g.game = found[0]
    return found[0]


def game_for_reading(token: str) -> Game:
    """Return the game behind an edit or a read-only address, noting which one it was."""
    found = _find(token)
    if found is None:
        abort(404)
    g.editable = found[1]
    g.game = found[0]
    return found[0]


def current_game_at(token: str) -> Game | None:
    """Return the game running at the table a table address names (its newest game), or None."""
    if not token or len(token) > MAX_KEY_LENGTH:
        return None
    found = db.session.scalar(select(CardTable).where(CardTable.token == token))
    if found is None or not hmac.compare_digest(found.token.encode(), token.encode()):
        return None
    return db.session.scalar(select(Game).where(Game.card_table_id == found.id).order_by(Game.id.desc()).limit(1))


def shown_on_tv(game: Game) -> CardTable | None:
    """Return the game's table when this read-only page is the table's TV (``tv=`` names the table address)."""
    named = request.args.get("tv", "")
    if editable() or not named or len(named) > MAX_KEY_LENGTH:
        return None
    found: CardTable | None = game.card_table
    return found if found is not None and hmac.compare_digest(found.token.encode(), named.encode()) else None


def game_behind(token: str) -> Game | None:
    """Return the game an edit or read-only address opens, or None: for pages that only link back to it."""
    found = _find(token)
    return found[0] if found else None


def address(game: Game) -> str:
    """Return the token this page was opened with: links from a read-only page must stay read-only."""
    opened = request.view_args.get("token") if request.view_args else None
    return opened if isinstance(opened, str) and opened in (game.token, game.read_token) else game.token


def editable() -> bool:
    """Return whether this request came through the edit address (and so may show controls)."""
    return bool(g.get("editable", False))


MAX_NUMBER_DIGITS = 9
"""No number a form sends has more digits than this; longer ones are not numbers of this app."""


def is_whole(value: str) -> bool:
    """Return whether a form value is a whole number that ``int`` reads: 1 to 9 ASCII digits.

    ``str.isdigit`` is not enough: it passes "²" and 10 000 digits, and ``int`` fails on both.
    """
    return value.isascii() and value.isdigit() and len(value) <= MAX_NUMBER_DIGITS


def is_integer(value: str) -> bool:
    """Return whether a form value is a whole number with an optional minus sign (one, not "--5")."""
    return is_whole(value[1:] if value.startswith("-") else value)


def new_key() -> str:
    """Return a fresh idempotency key for a form about to be shown."""
    return uuid.uuid4().hex


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


def form_seen() -> int:
    """Return ``seen`` of a correction form: the number of the newest change it was filled in from.

    Without it nobody can tell whether someone else changed the round or day meanwhile, so
    such a form is refused (400) before anything is stored.
    """
    posted = request.form.get("seen", "")
    if not is_whole(posted):
        abort(400, description=gettext(
            "This correction does not say which state of the game it was made from. Open the correction again and save it."
        ))
    return int(posted)


def record_correction(
    game: Game, kind: str, payload: Mapping[str, Any], *, index: int, seen: int, stale: str
) -> tuple[list[str], int]:
    """Store a correction of finished round or day ``index``, made on a form filled in at change ``seen``.

    Returns no problems and 200 once it is stored; the rules' refusals and 422; or the
    message ``stale`` and 409 when that round or day changed after the form was filled in:
    saving it would silently overwrite someone else's fix. The rules decide what "changed"
    means (``changed_since``), inside the guarded step that appends.
    """
    setup = game.setup

    def unchanged(events: Sequence[TableEvent]) -> None:
        if changed_since(setup, events, index, seen):
            raise StaleError(f"{kind} {index + 1} changed after change {seen}")

    try:
        problems = record_tap(game, kind, payload, precondition=unchanged)
    except StaleError:
        return [stale], 409
    return problems, 422 if problems else 200


def keypad_seen() -> int | None:
    """Return ``seen`` of a hand keypad: the newest change when it was opened (None from a form without one)."""
    posted = request.form.get("seen", "")
    return int(posted) if is_whole(posted) else None


def record_hand(
    game: Game, payload: Mapping[str, Any], *, player: str, index: int | None, seen: int | None
) -> tuple[list[str], int]:
    """Store a hand entered on a keypad opened at change ``seen``, with the version check of a correction.

    Returns no problems and 200 once it is stored; the rules' refusals and 422; or nothing
    and 409 when another phone saved this player's hand after the keypad opened: then
    keeping theirs or replacing it is the player's choice, never a silent overwrite.
    """
    setup = game.setup

    def unchanged(events: Sequence[TableEvent]) -> None:
        if seen is not None and hand_changed_since(setup, events, player, index, seen):
            raise StaleError(f"the hand of {player} changed after change {seen}")

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


def subject(place: str, players: Sequence[str]) -> str | None:
    """Return the player a problem's place is about ("rounds[0].hands.Ben.points" is about Ben), if any."""
    named = [name for name in players if f".{name}." in f"{place}." or place.endswith(f"[{name}]")]
    return max(named, key=len) if named else None


def record_tap(
    game: Game,
    kind: str,
    payload: Mapping[str, Any],
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


def remember_names(names: Iterable[str]) -> None:
    """Keep the names of a new game's players, most recent first, to offer them next time."""
    recent = [name for name in session.get("recent_names", []) if isinstance(name, str)]
    fresh = list(names)
    session["recent_names"] = (fresh + [name for name in recent if name not in fresh])[:RECENT_NAMES]


def recent_names() -> list[str]:
    """Return the player names this device used in its recent games."""
    return [name for name in session.get("recent_names", []) if isinstance(name, str)]


@bp.app_template_global()
def rules_url(kind: str, control: str = "") -> str:
    """Return a game's rule questions (about one control of the sheet, if named) with the way back to this page's game."""
    opened = request.view_args.get("token") if request.view_args else None
    return url_for("faq.game_page", game=kind, control=control or None, back=opened if isinstance(opened, str) else None)


@bp.app_context_processor
def address_context() -> dict[str, object]:
    """Give templates the address the page was opened with, whether it may change the game, and its rules."""
    game = g.get("game")
    return {
        "editable": editable(),
        "token": request.view_args.get("token") if request.view_args else None,
        "rules_home": rules_url(game.kind) if isinstance(game, Game) else url_for("faq.start"),
    }


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
