"""A game's two addresses and its table's: which game a token opens, and whether it may change it.

The edit address (``Game.token``) lets a phone tap; the read-only address (``Game.read_token``)
only shows the live sheet; the table address (``CardTable.token``) opens whatever game runs at
the table. All are secrets, compared in constant time.
"""

from __future__ import annotations

import hmac

from flask import Blueprint, abort, g, request, url_for
from sqlalchemy import or_, select

from models import CardTable, Game, db

bp = Blueprint("addresses", __name__)

MAX_TOKEN_LENGTH = 64


def could_be_token(token: str) -> bool:
    """Return whether a string may be looked up as a token: 1 to 64 characters and no NUL (PostgreSQL refuses to compare one)."""
    return 0 < len(token) <= MAX_TOKEN_LENGTH and "\x00" not in token


def _find(token: str) -> tuple[Game, bool] | None:
    """Return the game a token opens and whether it may change it (edit address) or only look.

    The tokens are compared in constant time, so timing cannot tell how much of a guess was right.
    """
    if not could_be_token(token):
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
    if not could_be_token(token):
        return None
    found = db.session.scalar(select(CardTable).where(CardTable.token == token))
    if found is None or not hmac.compare_digest(found.token.encode(), token.encode()):
        return None
    return db.session.scalar(select(Game).where(Game.card_table_id == found.id).order_by(Game.id.desc()).limit(1))


def shown_on_tv(game: Game) -> CardTable | None:
    """Return the game's table when this read-only page is the table's TV (``tv=`` names the table address)."""
    named = request.args.get("tv", "")
    if editable() or not named or len(named) > MAX_TOKEN_LENGTH:
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
