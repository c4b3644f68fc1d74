"""Joining a table: its QR code, a table card to print, and new addresses on demand (the TV that follows the table is ``views.results.tv``).

A table's address leads to whatever game is running there: scanned mid-game it opens the
current game with edit rights, and after a rematch it opens the rematch.
"""

from __future__ import annotations

import uuid

from flask import Blueprint, abort, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from models import append_event, db, games_at
from models.game import NAME_MAX_LENGTH, new_token
from rules.history import NEW_ADDRESSES
from views.pages.limits import joining
from views.pages.qr import for_phones, qr_svg
from views.pages.render import game_page, go_to, wants_fragment
from views.table.addresses import current_game_at, open_to_lead, running_at
from views.table.seats import this_phone

bp = Blueprint("join", __name__)


@bp.get("/t/<token>")
@joining
def table(token: str) -> Response:
    """Open the table's current game at its edit address: the table card works all evening."""
    game = current_game_at(token)
    if game is None:
        abort(404)
    return go_to(url_for("games.sheet", token=game.token), wants_fragment())


@bp.get("/g/<token>/join")
@joining
def show(token: str) -> Response:
    """Show the table's QR code large, with the address written out, the TV's and the onlookers' addresses."""
    game, viewer = open_to_lead(token)
    address, network_host = for_phones(url_for("join.table", token=game.card_table.token, _external=True))
    watch, _ = for_phones(url_for("games.sheet", token=game.read_token, _external=True))
    tv_address, _ = for_phones(url_for("tv.show", token=game.card_table.token, _external=True))
    return game_page(
        "join/show.html",
        "join",
        game,
        viewer,
        network_host=network_host,
        address=address,
        watch_address=watch,
        tv_address=tv_address,
        qr=qr_svg(address),
        watch_qr=qr_svg(watch),
        seat=this_phone(game, viewer),
    )


@bp.route("/g/<token>/table-card", methods=["GET", "POST"])
@joining
def card(token: str) -> Response:
    """Show the table card to print (A6: the code, the table's name, one line on what to do); a form names the table."""
    game, viewer = open_to_lead(token)
    problems: list[str] = []
    status = 200
    if request.method == "POST":
        name = " ".join("".join(c for c in request.form.get("name", "") if c.isprintable() or c.isspace()).split())
        if len(name) > NAME_MAX_LENGTH:
            problems = [gettext("A table's name has at most %(n)s characters.", n=NAME_MAX_LENGTH)]
            status = 422
        else:
            game.card_table.name = name or None
            db.session.commit()
            return go_to(url_for("join.card", token=game.token), viewer.fragment)
    address, network_host = for_phones(url_for("join.table", token=game.card_table.token, _external=True))
    return game_page(
        "join/card.html",
        "card",
        game,
        viewer,
        status=status,
        name=game.card_table.name or " · ".join(game.player_names),
        named=game.card_table.name or "",
        address=address,
        network_host=network_host,
        qr=qr_svg(address),
        problems=problems,
    )


@bp.post("/g/<token>/new-address")
@joining
def new_address(token: str) -> Response:
    """Replace the running game's edit address and the table's address: the old ones stop working at once.

    Made from any game of the table, it is the table's running game that gets the new edit
    address (that is where an unwanted guest would tap); every older game's edit address is
    retired (``Game.address_retired``): it still shows its own game, read-only, and leads to
    nothing newer. Each game's history notes it, so every phone still on one hears of it live.
    """
    game, viewer = open_to_lead(token)
    running = running_at(game)
    running.token = new_token()
    game.card_table.token = new_token()
    retired = [earlier for earlier in games_at(game.card_table_id)[0] if earlier.id != running.id and not earlier.address_retired]
    for earlier in retired:
        earlier.address_retired = True
    db.session.commit()
    for noted in (running, *retired):
        append_event(noted, NEW_ADDRESSES, {}, idempotency_key=uuid.uuid4().hex)
    return go_to(url_for("join.show", token=running.token), viewer.fragment)
