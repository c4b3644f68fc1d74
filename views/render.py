"""One decision, made in one place: answer with the whole page or only the piece htmx asked for."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from flask import make_response, redirect, render_template, request, url_for
from jinja2_fragments.flask import render_block
from werkzeug.wrappers import Response

from models import Game
from views.addresses import address, editable, shown_on_tv
from views.changes import earlier_games, rematch_of
from views.chart import build_chart
from views.qr import for_phones, qr_svg
from views.scoreboard import Scoreboard, share_text
from views.taps import new_key


def wants_fragment() -> bool:
    """Return whether htmx asked for part of a page (a history restore wants the whole page)."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-History-Restore-Request") != "true"


def page_or_fragment(template: str, block: str, *, status: int = 200, **context: Any) -> Response:
    """Render ``block`` of ``template`` for htmx, the full page otherwise; caches keep them apart."""
    body = render_block(template, block, **context) if wants_fragment() else render_template(template, **context)
    response = make_response(body, status)
    response.vary.add("HX-Request")
    return response


def go_to(url: str) -> Response:
    """Send the browser to another page after a form: a plain redirect, or a full navigation for htmx.

    htmx would follow a redirect and swap the new page into the form's place; asking it to
    navigate instead gives the new page its own address, as after a normal form.
    """
    if request.headers.get("HX-Request") == "true":
        response = Response(status=204)
        response.headers["HX-Redirect"] = url
        return response
    return redirect(url, code=303)


def answer_tap(problems: Sequence[str], show: Callable[..., Response], sheet_url: str) -> Response:
    """Answer a tap on a sheet: the refusal on the sheet, the updated sheet for htmx, else back to the page.

    ``show`` renders the sheet (it takes ``problems`` and ``status``) for a refusal. A stored
    tap gets the sheet the other phones are pushed, rendered once for all of them; a plain
    form is redirected so that reloading the page does not send the tap again.
    """
    if problems:
        return show(problems=problems, status=422)
    if request.headers.get("HX-Request") == "true":
        from views.live import shared_sheet  # the live sheet is rendered through the game views, which import this module

        return shared_sheet()
    return redirect(sheet_url, code=303)


def render_sheet(
    template: str, game: Game, board: Scoreboard, /, *, problems: Sequence[str] = (), status: int = 200, **context: Any
) -> Response:
    """Render a game's sheet (page or ``#sheet`` fragment) with what every sheet shows besides its own layout.

    That is: the refusals of the last tap, fresh idempotency keys, the table's earlier games,
    the record's and the CSV's addresses (reached by the same token the page was opened
    with), the score chart, once the game is over the result to share, and once a rematch
    runs the way to it, with the same rights this page has.
    """
    successor = rematch_of(game)
    tv = shown_on_tv(game)
    join_address = for_phones(url_for("join.table", token=tv.token, _external=True))[0] if tv else None
    return page_or_fragment(
        template,
        "sheet",
        status=status,
        problems=list(problems),
        new_key=new_key,
        earlier=earlier_games(game),
        record_url=url_for("games.export", token=address(game)),
        csv_url=url_for("games.csv_export", token=address(game)),
        chart=build_chart(board, title=board.caption),
        caption=board.caption,
        share=share_text(board) if board.winners else "",
        share_url=url_for("games.sheet", token=game.read_token, _external=True),
        rematch_url=url_for("games.sheet", token=successor.token if editable() else successor.read_token) if successor else None,
        refresh_url=url_for("games.sheet", token=address(game), tv=tv.token if tv else None),
        join_address=join_address,
        join_qr=qr_svg(join_address) if join_address else None,
        game=game,
        **context,
    )
