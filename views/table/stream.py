"""Every phone at the table sees a tap made on another at once, without asking for it.

A sheet keeps a server-sent-events stream open. When the game's history grows, the stream
pushes the re-rendered live part of the sheet, and htmx's SSE extension swaps it in: no
second request. The update is the same for every phone that opened the same address in the
same language, so it is rendered once per change and language, whoever asks first
(``live.Pushes``). Each event's id is the game's version, the number of its newest event:
history is append-only, so that number changes exactly when something happened, and a
browser that reconnects with ``Last-Event-ID`` gets the current sheet if it missed anything.
If rendering fails, the stream says "changed" instead and the sheet fetches itself, as before.

Streams wait on this process's one listener (``live.Hub``), which learns of changes from this
process's own taps at once and from other processes through the database. A stream ends after a
while, anywhere up to ``LIVE_STREAM_SECONDS``, so that streams opened together (by a server's
restart, say) do not all come back together, and the browser reconnects with ``Last-Event-ID``;
the reconnect looks the address up once and takes the game's version from the listener, so it
costs about what ``/healthz`` does. A quiet stream says something every ``LIVE_KEEPALIVE_SECONDS``,
within the idle time of common proxies. Each process caps its open streams, in all and per client
address; a refused stream gets 503 with Retry-After and the browser tries again.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator

from flask import Blueprint, Flask, Response, abort, current_app, make_response, render_template, request
from flask_babel import force_locale, gettext
from markupsafe import Markup
from sqlalchemy import func, select
from werkzeug.exceptions import HTTPException, ServiceUnavailable

from live import KEEPALIVE, Framing, Message, Pushes, StreamRefused, Update, event, hub_of
from models import Event, Folded, Game, Shipped, announce, db, folded
from views.pages.forms import is_whole
from views.pages.language import current_language
from views.pages.viewers import Viewer, shared_viewer
from views.table.addresses import current_game_at, open_to_read, opened_by
from views.table.sheets import live_part

bp = Blueprint("live", __name__)

SHORTEST_LIFE = 0.1
"""The shortest a stream lives, as a share of ``LIVE_STREAM_SECONDS``: lives are spread evenly above it."""
RETRY_MILLISECONDS = 500
RETRY = Message.of(f"retry: {RETRY_MILLISECONDS}\n\n")
RETIRED = Message.of(event("retired", name="retired"))
"""The last event of a stream whose address stopped working (new addresses were made): the phone says so at once."""


def _stored_version(game_id: int) -> int:
    """Return a game's version as stored (``Folded.version``, read without folding), ending the read at once.

    Ending the transaction matters: a reader that stayed in one would keep seeing the
    database as it was when it began.
    """
    newest = db.session.scalar(select(func.coalesce(func.max(Event.seq), 0)).where(Event.game_id == game_id))
    db.session.rollback()
    return int(newest or 0)


def _since() -> int | None:
    """Return the version the browser last saw: from a reconnect's Last-Event-ID, else the page's own."""
    for value in (request.headers.get("Last-Event-ID", ""), request.args.get("since", "")):
        if is_whole(value):
            return int(value)
    return None


def live_sheet(game: Game, viewer: Viewer, state: Folded) -> tuple[int, str, str]:
    """Render the live part of the sheet at ``state`` as every phone at the viewer's address shares it.

    Returns its version, the sheet, and the sheet as a pushed update. What belongs to one phone
    stays out (``Viewer.shared``): the form's CSRF token and the tap keys are left empty, and
    each phone fills in its own before the sheet is shown (static/js/app.js). It needs an app
    context, no request: a stream renders it with none.
    """
    with force_locale(viewer.language):
        sheet = live_part(game, viewer, state)
        return state.version, sheet, render_template("live/update.html", sheet=Markup(sheet))


def pushes_of(app: Flask) -> Pushes:
    """Return this process's rendered updates of ``app``: its listener's, which also keeps the updates that came with a change."""
    return hub_of(app).pushes


def publish(game: Game, viewer: Viewer, state: Folded) -> Update | None:
    """Render the sheet a stored change left, once, and announce the change with it: the tapper's answer and every phone's push.

    It runs after the change was committed, so no lock waits for the render. The update is the one
    every phone at the viewer's address and language shares (``Viewer.shared``); this process's
    streams take it from ``Pushes``, the other processes from the announcement (``models.announce``).
    A render that fails announces the change without its sheet: the tap is stored, and each phone
    fetches its sheet itself.
    """
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    shared = shared_viewer(viewer.address, editable=viewer.editable, language=viewer.language)
    try:
        update = pushes_of(app).update(shared.address, shared.language, state.version, lambda: live_sheet(game, shared, state))
    except Exception:  # the answer renders again and shows the error; the tap is stored all the same
        app.logger.exception("live: the sheet could not be rendered after the tap")
        announce(game.id, state.version, None)
        return None
    announce(game.id, update.version, Shipped(shared.address, shared.language, update.message.deflated))
    return update


def _looked_up(app: Flask, token: str, language: str) -> Callable[[], tuple[int, str, str]]:
    """Return how a stream renders the sheet at ``token``: the game looked up, folded and rendered in an app context of its own."""

    def render() -> tuple[int, str, str]:
        with app.app_context():
            game, editable = opened_by(token)
            return live_sheet(game, shared_viewer(token, editable=editable, language=language), folded(game))

    return render


def _update(app: Flask, token: str, language: str, at_least: int) -> Update | None:
    """Return the pushed update, a "changed" event if it could not be rendered, or None if the address is gone."""
    try:
        return pushes_of(app).update(token, language, at_least, _looked_up(app, token, language))
    except HTTPException:
        return None
    except Exception:  # the sheet's own request shows the error; this phone still learns of the change
        app.logger.exception("live: the sheet could not be rendered for a push")
        return _changed(app, token, language, at_least)


def _changed(app: Flask, token: str, language: str, at_least: int) -> Update:
    """Return a "changed" event: the page fetches its sheet itself."""
    return Update(at_least, "", Message.of(event(str(at_least), name="changed", event_id=at_least)))


def shared_sheet(game: Game, viewer: Viewer, state: Folded, rendered: Update | None = None) -> Response:
    """Answer a tap htmx sent with the sheet every phone at its address is pushed: one render (``rendered``, if the tap made it) serves the tapper and the table."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    shared = shared_viewer(viewer.address, editable=viewer.editable, language=viewer.language)
    update = rendered or pushes_of(app).update(viewer.address, viewer.language, state.version, lambda: live_sheet(game, shared, state))
    response = make_response(update.sheet if update.sheet is not None else live_sheet(game, shared, state)[1])
    response.vary.add("HX-Request")
    return response


def _on_tv(table: str) -> Callable[[Flask, str, str, int], Update | None]:
    """Return how a TV's stream answers a change: "changed", so the page fetches itself, or None once its table address was replaced."""

    def changed(app: Flask, token: str, language: str, at_least: int) -> Update | None:
        with app.app_context():
            replaced = current_game_at(table) is None
        return None if replaced else _changed(app, token, language, at_least)

    return changed


def messages(
    app: Flask, game_id: int, token: str, language: str, seen: int, since: int | None, seconds: float, *, tv: str | None = None
) -> Iterator[Message]:
    """Yield a stream's events: the sheet whenever the game moves past what the phone shows, for ``seconds``.

    A TV's stream (``tv``, the table address it follows) only says that the game changed, and
    the page fetches itself: a TV's page depends on its table address (the code to join,
    following a rematch), which the shared push for the read-only address does not carry.
    Either stream ends with "retired" when its address stops working: the phone's edit
    address, or the TV's table address, replaced by new addresses.
    """
    update_of = _update if tv is None else _on_tv(tv)
    hub = hub_of(app)
    keepalive = float(app.config["LIVE_KEEPALIVE_SECONDS"])
    yield RETRY
    with hub.watching(game_id, seen):
        sent = since
        if since is not None and since != seen:
            update = update_of(app, token, language, seen)
            if update is None:
                yield RETIRED
                return
            yield update.message
            sent, seen = update.version, max(seen, update.version)
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            newer = hub.wait(game_id, seen, min(left, keepalive))
            if newer is None:
                if deadline - time.monotonic() > 0:
                    yield KEEPALIVE
                continue
            update = update_of(app, token, language, newer)
            if update is None:
                yield RETIRED
                return
            seen = max(newer, update.version)
            if update.version != sent:
                sent = update.version
                yield update.message


def lifetime(app: Flask) -> float:
    """Return how long a new stream stays open: spread evenly up to ``LIVE_STREAM_SECONDS``, so reconnects never come in a herd."""
    longest = float(app.config["LIVE_STREAM_SECONDS"])
    return random.uniform(SHORTEST_LIFE * longest, longest)


@bp.get("/g/<token>/live")
def changes(token: str) -> Response:
    """Stream a game's sheet to a phone whenever it changes (edit or read-only address alike)."""
    game_id = open_to_read(token)[0].id
    tv = request.args.get("tv") or None
    if tv is not None and current_game_at(tv) is None:
        abort(404)  # the TV's table address was replaced: its page says so, rather than show a dead code
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    hub = hub_of(app)
    address = request.remote_addr or "unknown"
    try:
        hub.admit(address)
    except StreamRefused:
        raise ServiceUnavailable(
            description=gettext("Too many open sheets right now; this one catches up in a moment."),
            retry_after=int(app.config["LIVE_RETRY_AFTER_SECONDS"]),
        ) from None
    try:
        known = hub.version_of(game_id)
        seen = _stored_version(game_id) if known is None else known
        seconds = lifetime(app)
        language = current_language()
        framing = Framing(gzipped=request.accept_encodings["gzip"] > 0)
        body = framing.stream(messages(app, game_id, token, language, seen, _since(), seconds, tv=tv))
        response = Response(body, mimetype="text/event-stream")
    except BaseException:
        hub.leave(address)
        raise
    response.call_on_close(lambda: hub.leave(address))
    if framing.gzipped:
        response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response
