"""A finished game's result as a picture for the family's group chat, at the game's own address.

The picture is the sheet's final table and its chart, drawn as one SVG (the chart is the
sheet's own, ``views.table.chart``) and turned into a PNG on the server by librsvg's
``rsvg-convert``, within a time and a size limit. A phone shares the PNG through its share
sheet where it can share files, and downloads it otherwise (static/js/picture.js).
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass

from flask import Blueprint, Response, current_app, render_template
from flask_babel import format_date, gettext, to_user_timezone
from werkzeug.exceptions import ServiceUnavailable

from models import Game
from rules.evening import placings
from views.table.addresses import open_to_read
from views.table.chart import SHAPES, build_chart, marker_path
from views.table.result_links import played_of
from views.table.scoreboard import Scoreboard, headline, shown
from views.table.sheets import scoreboard

bp = Blueprint("result", __name__)

CARD_WIDTH = 540
"""The card's width in SVG units; the PNG has twice as many pixels, sharp on a phone."""
PNG_SCALE = 2
RENDER_SECONDS = 10
"""The longest ``rsvg-convert`` may take for one card (it takes well under a second)."""
MAX_PNG_BYTES = 4 * 1024 * 1024
"""A card is some 100 KB; anything far larger is a fault, not a picture."""


@dataclass(frozen=True)
class CardLine:
    """One player on the result card: place, marker, name and total."""

    place: int
    seat: int
    marker: str
    name: str
    total: str
    winner: bool


def card_svg(game: Game, board: Scoreboard) -> str:
    """Return the result card as SVG: the game, the headline, every player's place and total, and the chart."""
    places = placings(played_of(board))
    lines = sorted(
        (
            CardLine(
                place=places[player],
                seat=seat,
                marker=marker_path(SHAPES[seat % len(SHAPES)], 0, 0, 6),
                name=player,
                total=shown(board.totals[player]),
                winner=player in board.winners,
            )
            for seat, player in enumerate(board.players)
        ),
        key=lambda line: (line.place, line.seat),
    )
    chart = build_chart(board, title=board.caption)
    return render_template(
        "result/card.svg",
        width=CARD_WIDTH,
        title=game.title,
        headline=headline(board) if board.winners else gettext("The game is still running"),
        day=format_date(to_user_timezone(game.created_at), "long"),
        table=game.card_table.name,
        lines=lines,
        chart=chart,
        caption=board.caption,
    )


def rasterise(svg: str) -> bytes:
    """Return the SVG as a PNG of twice its size, drawn by ``rsvg-convert`` within the time and size limits."""
    refusal = ServiceUnavailable(
        description=gettext("The picture cannot be drawn right now. The result is on the sheet; try again in a moment.")
    )
    try:
        drawn = subprocess.run(
            ["rsvg-convert", "--format", "png", "--zoom", str(PNG_SCALE)],
            input=svg.encode(),
            capture_output=True,
            timeout=RENDER_SECONDS,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        current_app.logger.exception("result card: rsvg-convert failed")
        raise refusal from None
    if not drawn.stdout.startswith(b"\x89PNG") or len(drawn.stdout) > MAX_PNG_BYTES:
        current_app.logger.error("result card: rsvg-convert gave %d bytes that are no card", len(drawn.stdout))
        raise refusal
    return drawn.stdout


@bp.get("/g/<token>/result.png")
def picture(token: str) -> Response:
    """Return the result card as a PNG (a running game's says that it runs)."""
    game, _ = open_to_read(token)
    response = Response(rasterise(card_svg(game, scoreboard(game))), mimetype="image/png")
    response.headers["Content-Disposition"] = f'inline; filename="tischblock-{game.kind}-{game.created_at:%Y-%m-%d}.png"'
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response
