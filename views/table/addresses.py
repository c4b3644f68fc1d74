"""A game's two addresses and its table's: which game a token opens, and who is looking through it.

The edit address (``Game.token``) lets a phone tap; the read-only address (``Game.read_token``)
only shows the live sheet; the table address (``CardTable.token``) opens whatever game runs at
the table. All are secrets, compared in constant time. A game over and followed takes no more
changes on any address (``GameOver``), and an edit address retired by new addresses at its table
shows its own game only, handing out none of the table's newer addresses (``leads_on``). A request opens its game once, here,
and carries who is looking (``views.pages.viewers.Viewer``) to everything that renders.
"""

from __future__ import annotations

import hmac

from flask import abort, request, url_for
from flask_babel import gettext
from sqlalchemy import or_, select
from sqlalchemy.orm import joinedload
from werkzeug.exceptions import HTTPException

from models import CardTable, Game, db
from views.pages.language import current_language
from views.pages.render import wants_fragment
from views.pages.viewers import Viewer, device

MAX_TOKEN_LENGTH = 64


def could_be_token(token: str) -> bool:
    """Return whether a string may be looked up as a token: 1 to 64 characters and no NUL (PostgreSQL refuses to compare one)."""
    return 0 < len(token) <= MAX_TOKEN_LENGTH and "\x00" not in token


def _find(token: str) -> tuple[Game, bool] | None:
    """Return the game a token opens, its players and rematch loaded along, and whether it may change it (edit address).

    The tokens are compared in constant time, so timing cannot tell how much of a guess was right.
    """
    if not could_be_token(token):
        return None
    game = (
        db.session.scalars(
            select(Game)
            .options(joinedload(Game.players), joinedload(Game.rematch))
            .where(or_(Game.token == token, Game.read_token == token))
        )
        .unique()
        .one_or_none()
    )
    if game is None:
        return None
    if hmac.compare_digest(game.token.encode(), token.encode()):
        return game, True
    if game.read_token is not None and hmac.compare_digest(game.read_token.encode(), token.encode()):
        return game, False
    return None


class GameOver(HTTPException):
    """A change was asked of a game that is over and followed at its table: it is read-only on every address (409).

    ``views.table.games`` answers it with the game's sheet as it stands, which links to the running game.
    """

    code = 409

    def __init__(self, game: Game, viewer: Viewer) -> None:
        super().__init__()
        self.game = game
        self.viewer = viewer


def opened_by(token: str) -> tuple[Game, bool]:
    """Return the game an edit or read-only address opens and whether the page may change it; else a missing page.

    Only the edit address of a game still being played may: once the next game runs at the
    table, the one before is read-only on every address. It reads nothing of a request: a live
    stream's push looks its game up with it.
    """
    found = _find(token)
    if found is None:
        abort(404)
    game, edit_address = found
    return game, edit_address and game.rematch is None


def leads_on(game: Game, token: str) -> bool:
    """Return whether ``token`` may hand out the table's current addresses (its running game's edit address, its code).

    The edit address does, unless new addresses were made at the table after its game was
    followed (``Game.address_retired``): a replaced address must not fetch the new ones.
    """
    return hmac.compare_digest(game.token.encode(), token.encode()) and not game.address_retired


def open_to_edit(token: str, *, kind: str | None = None) -> tuple[Game, Viewer]:
    """Return the game behind an edit address and its viewer, for a change; anything else, a read-only address included, is a missing page.

    ``kind`` is given by a route of one game only: a 12 Days game has no AURUXXX round to finish.
    A game over and followed changes no more: ``GameOver`` (409) with its sheet.
    """
    game, viewer = open_to_lead(token)
    if kind is not None and game.kind != kind:
        abort(404)
    if not viewer.editable:
        raise GameOver(game, viewer)
    return game, viewer


def open_to_lead(token: str) -> tuple[Game, Viewer]:
    """Return the game behind an edit address and its viewer, for a page that hands out the table's addresses (joining,
    the table card, new addresses, the next game); else a missing page, or 403 from a retired address, saying why."""
    found = _find(token)
    if found is None or not found[1]:
        abort(404)
    game = found[0]
    if not leads_on(game, token):
        abort(
            403,
            description=gettext(
                "New addresses were made at this table after this game, so this address no longer leads to the table. "
                "Ask the table for the new code and scan it."
            ),
        )
    return game, _viewer(token, editable=game.rematch is None)


def open_to_read(token: str) -> tuple[Game, Viewer]:
    """Return the game behind an edit or a read-only address, and who looks through it: a phone that may tap, or one that only looks."""
    game, editable = opened_by(token)
    return game, _viewer(token, editable=editable, tv=None if editable else _tv_of(game))


def open_tv(token: str) -> tuple[Game, Viewer]:
    """Return the game running at the table a table address names, and the table's TV looking at it; else a missing page.

    The TV looks through the game's read-only address and follows the table (``Viewer.tv``).
    """
    game = current_game_at(token)
    if game is None or game.read_token is None:
        abort(404)
    return game, _viewer(game.read_token, editable=False, tv=token)


def _viewer(token: str, *, editable: bool, tv: str | None = None) -> Viewer:
    """Return who looks through ``token`` in this request: the one place that reads it from the request."""
    return Viewer(address=token, editable=editable, language=current_language(), tv=tv, fragment=wants_fragment(), phone=device())


def _tv_of(game: Game) -> str | None:
    """Return the table address when this read-only page is the table's TV (``tv=`` names it), else None."""
    named = request.args.get("tv", "")
    if not named or len(named) > MAX_TOKEN_LENGTH:
        return None
    found: CardTable | None = game.card_table
    return found.token if found is not None and hmac.compare_digest(found.token.encode(), named.encode()) else None


def running_at(game: Game) -> Game:
    """Return the game running at ``game``'s table now: its newest (``game`` itself while nothing follows it)."""
    newest = db.session.scalar(select(Game).where(Game.card_table_id == game.card_table_id).order_by(Game.id.desc()).limit(1))
    return newest or game


def current_game_at(token: str) -> Game | None:
    """Return the game running at the table a table address names (its newest game), or None."""
    if not could_be_token(token):
        return None
    found = db.session.scalar(select(CardTable).where(CardTable.token == token))
    if found is None or not hmac.compare_digest(found.token.encode(), token.encode()):
        return None
    return db.session.scalar(select(Game).where(Game.card_table_id == found.id).order_by(Game.id.desc()).limit(1))


def game_behind(token: str) -> Game | None:
    """Return the game an edit or read-only address opens, or None: for pages that only link back to it."""
    found = _find(token)
    return found[0] if found else None


def rules_url(kind: str, control: str = "", back: str | None = None) -> str:
    """Return a game's rule questions (about one control of the sheet, if named), with the way back to the sheet at ``back``."""
    return url_for("faq.game_page", game=kind, control=control or None, back=back)


def rules_context() -> dict[str, object]:
    """Give every page the header's rules link: the FAQ's start; a game's pages give their own game's instead."""
    return {"rules_home": url_for("faq.start")}
