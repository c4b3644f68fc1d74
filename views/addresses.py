"""A game's two addresses: which game a token opens, and whether it may change it.

The edit address (``Game.token``) lets a phone tap; the read-only address (``Game.read_token``)
only shows the live sheet. Both are secrets, compared in constant time.
"""

from __future__ import annotations

import hmac

from flask import Blueprint, abort, g, request
from sqlalchemy import or_, select

from models import Game, db

bp = Blueprint("addresses", __name__)

MAX_TOKEN_LENGTH = 64


def _find(token: str) -> tuple[Game, bool] | None:
    """Return the game a token opens and whether it may change it (edit address) or only look.

    The tokens are compared in constant time, so timing cannot tell how much of a guess was right.
    """
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    game = db.session.scalar(select(Game).where(or_(Game.token == token, Game.read_token == token)))
    if game is None:
        return None
    if hmac.compare_digest(game.token.encode(), token.encode()):
        return game, True
    if game.read_token is not None and hmac.compare_digest(game.read_token.encode(), token.encode()):
        return game, False
    return None


def game_or_404(token: str, *, kind: str | None = None) -> Game:
    """Return the game behind an edit address; anything else, a read-only address included, is a missing page.

    ``kind`` is given by a route of one game only: a 12 Days game has no AURUXXX round to finish.
    """
    found = _find(token)
    if found is None or not found[1]:
        abort(404)
    if kind is not None and found[0].kind != kind:
        abort(404)
    g.editable = True
    return found[0]


def game_for_reading(token: str) -> Game:
    """Return the game behind an edit or a read-only address, noting which one it was."""
    found = _find(token)
    if found is None:
        abort(404)
    g.editable = found[1]
    return found[0]


def address(game: Game) -> str:
    """Return the token this page was opened with: links from a read-only page must stay read-only."""
    opened = request.view_args.get("token") if request.view_args else None
    return opened if isinstance(opened, str) and opened in (game.token, game.read_token) else game.token


def editable() -> bool:
    """Return whether this request came through the edit address (and so may show controls)."""
    return bool(g.get("editable", False))


@bp.app_context_processor
def address_context() -> dict[str, object]:
    """Give templates the address the page was opened with and whether it may change the game."""
    return {"editable": editable(), "token": request.view_args.get("token") if request.view_args else None}
