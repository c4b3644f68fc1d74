"""The 12 Days score sheet: the days, the pot, the final hands and the totals."""

from __future__ import annotations

from flask import Blueprint, redirect, request, url_for
from werkzeug.wrappers import Response

from models import Game, table_of
from rules import record, twelve_days
from rules.history import TwelveDaysTable
from views.changes import earlier_games
from views.render import page_or_fragment
from views.table import new_key

bp = Blueprint("twelve_days", __name__)

TEMPLATE = "twelve_days/sheet.html"


def render(game: Game, *, problems: list[str] | None = None, status: int = 200) -> Response:
    """Return the sheet as a page, or only its interactive part for htmx."""
    table = table_of(game)
    assert isinstance(table, TwelveDaysTable)
    result = twelve_days.score_game(table.game)
    return page_or_fragment(
        TEMPLATE,
        "sheet",
        status=status,
        game=game,
        table=table,
        result=result,
        players=list(game.player_names),
        problems=problems or [],
        new_key=new_key,
        earlier=earlier_games(game),
        record_url=url_for("games.export", token=game.token),
        variant=table.game.variant,
        scored=record.scored(table.game)["result"],
    )


def after_tap(game: Game, problems: list[str]) -> Response:
    """Answer a tap: htmx gets the updated sheet; a plain form goes back to the page (or sees the refusal)."""
    if problems:
        return render(game, problems=problems, status=422)
    if request.headers.get("HX-Request") == "true":
        return render(game)
    return redirect(url_for("games.sheet", token=game.token), code=303)
