"""The result card as a PNG, at the game's own address: to share in a group chat or keep (``views.result`` draws it)."""

from __future__ import annotations

from flask import Blueprint, Response

from views.addresses import open_to_read
from views.result import card_svg, rasterise
from views.sheets import scoreboard

bp = Blueprint("result", __name__)


@bp.get("/g/<token>/result.png")
def picture(token: str) -> Response:
    """Return the result card as a PNG (a running game's says that it runs)."""
    game, _ = open_to_read(token)
    response = Response(rasterise(card_svg(game, scoreboard(game))), mimetype="image/png")
    response.headers["Content-Disposition"] = f'inline; filename="tischblock-{game.kind}-{game.created_at:%Y-%m-%d}.png"'
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response
