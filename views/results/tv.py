"""The table's TV: the game running at the table, large, with the code to join, following every rematch; between two games the
last result and the evening's standings.

It is opened at the table address (``/t/<token>/tv``) and shows the running game's read-only
sheet, so a TV never holds edit rights; its live stream only says that the game changed, and the
page fetches itself (``views.table.stream``).
"""

from __future__ import annotations

from flask import Blueprint, url_for
from werkzeug.wrappers import Response as BaseResponse

from models import Game, folded
from views.pages.limits import joining
from views.pages.qr import for_phones, qr_svg
from views.pages.render import go_to, page_or_fragment
from views.pages.viewers import Viewer
from views.results.evening import evening_around, result_lines
from views.table.addresses import open_tv
from views.table.chart import build_chart
from views.table.result_links import played_of
from views.table.scoreboard import headline
from views.table.sheets import between_games, scoreboard

bp = Blueprint("tv", __name__)


@bp.get("/t/<token>/tv")
@joining
def show(token: str) -> BaseResponse:
    """Show the table's current game read-only for a big screen, with the code to join, following every rematch.

    Between two games (one is over, the next not started) it shows the evening's standings.
    """
    game, viewer = open_tv(token)
    if between_games(game):
        return tv_between_games(game, viewer)
    return go_to(url_for("games.sheet", token=viewer.address, tv=viewer.tv), viewer.fragment)


def tv_between_games(game: Game, viewer: Viewer) -> BaseResponse:
    """Show the table's TV between two games: the last result large, the evening's standings, and the code to join.

    ``viewer`` is the TV: the game's read-only address, with the table address it follows (``Viewer.tv``).
    """
    table_token = viewer.tv or ""
    join_address = for_phones(url_for("join.table", token=table_token, _external=True))[0]
    state = folded(game)
    board = scoreboard(game, state)
    return page_or_fragment(
        "evening/tv.html",
        "evening",
        viewer.fragment,
        game=game,
        evening=evening_around(game, editable=viewer.editable),
        board=board,
        last=result_lines(played_of(board)),
        headline=headline(board),
        chart=build_chart(board, title=board.caption),
        version=state.version,
        table_token=table_token,
        join_qr=qr_svg(join_address),
    )
