"""My seat: a phone says who holds it ("Ich bin Anna"), once per table, so every rematch knows it.

The answer is kept on the server per table and phone (the device cookie, ``views.pages.viewers``):
one tap on a name, changeable at any time, or skipped, and then the phone is for everyone,
as a single phone passed round the table always was. Two phones may say the same name (a
couple sharing a hand); the page says so. A seat is no permission: only an edit address
asks the question, and the seat changes nothing that address did not already allow.

Whatever a sheet shows for one phone stays out of the sheet every phone is pushed: the seat
reaches a page's own render as ``my_seat`` (the seat's position in the game, or None), and
the page carries it outside the pushed part (``data-my-seat``).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from models import Game, claim_seat, claims_at, current_claims
from rules.record import same_name_key
from views.pages.render import game_page, go_to
from views.pages.viewers import Viewer
from views.table.addresses import open_to_lead

bp = Blueprint("seats", __name__)

AFTER_CHOOSING = ("sheet", "join")
"""Where a phone goes once it said who holds it: back to the sheet, or to the join page it was asked on."""


@dataclass(frozen=True)
class Choice:
    """One name the question offers, and whether another phone already says it."""

    name: str
    elsewhere: bool


@dataclass(frozen=True, kw_only=True)
class Seat:
    """What this phone says about who holds it at this game's table."""

    name: str | None
    """The player holding the phone; None when it is for everyone or the question was never answered."""
    index: int | None
    """The player's position in this game, or None (no seat, or a name this game does not seat)."""
    answered: bool
    """Whether the phone answered at this table (a name, or "for everyone")."""
    shared: bool
    """Whether another phone at the table says the same name."""
    choices: tuple[Choice, ...]


def seat_of(game: Game, phone: str | None) -> Seat:
    """Return what a phone says at a game's table, with the names it may choose from."""
    claims = current_claims(claims_at(game.card_table_id))
    mine = claims.get(phone) if phone is not None else None
    others = {same_name_key(name) for holder, name in claims.items() if holder != phone and name is not None}
    keys = [same_name_key(name) for name in game.player_names]
    index = keys.index(same_name_key(mine)) if mine is not None and same_name_key(mine) in keys else None
    return Seat(
        name=game.player_names[index] if index is not None else mine,
        index=index,
        answered=phone is not None and phone in claims,
        shared=mine is not None and same_name_key(mine) in others,
        choices=tuple(Choice(name, same_name_key(name) in others) for name in game.player_names),
    )


def this_phone(game: Game, viewer: Viewer) -> Seat | None:
    """Return this phone's seat for a page of its own, or None where seats do not show.

    A page every phone shares (a pushed sheet) shows no seat, nor does a read-only page or a TV.
    """
    if viewer.shared or not viewer.editable or viewer.tv is not None:
        return None
    return seat_of(game, viewer.phone)


@bp.route("/g/<token>/me", methods=["GET", "POST"])
def choose(token: str) -> Response:
    """Ask who holds this phone (one tap on a name, or "for everyone"), and remember the answer at this table."""
    game, viewer = open_to_lead(token)
    then = request.values.get("then", "sheet")
    then = then if then in AFTER_CHOOSING else "sheet"
    problems: list[str] = []
    if request.method == "POST":
        phone = viewer.phone
        name = request.form.get("name", "")
        seated = {same_name_key(player): player for player in game.player_names}
        if phone is None:
            problems = [gettext("This phone keeps no cookies, so it cannot remember who holds it. The sheet works all the same.")]
        elif name and same_name_key(name) not in seated:
            problems = [gettext("Nobody of that name plays at this table. Tap one of the names.")]
        else:
            claim_seat(game.card_table_id, phone, seated[same_name_key(name)] if name else None)
            return go_to(url_for("join.show" if then == "join" else "games.sheet", token=game.token), viewer.fragment)
    return game_page(
        "seats/choose.html",
        "choose",
        game,
        viewer,
        status=422 if problems else 200,
        then=then,
        problems=problems,
        seat=this_phone(game, viewer),
    )
