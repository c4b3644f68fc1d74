"""What every game has: its new-game page, its sheet's address, undo, a rematch and its history.

Nothing here knows a game by name: the rules registry (``rules.games``) and the sheet views
(``views.table.sheets``) answer for the game at hand. Starting a game is ``views.table.starting``; its
record in and out, ``views.results.records``.
"""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response as BaseResponse

from models import Before, StaleError
from rules.history import UNDO, superseded
from views.pages.forms import is_whole
from views.pages.limits import creating
from views.pages.render import game_context, go_to, wants_fragment
from views.table.addresses import GameOver, open_to_edit, open_to_lead, open_to_read, running_at
from views.table.sheets import SHEETS, between_games, describe_history, render, sheet_of
from views.table.starting import NewGameForm, answer_new_game_form, create_game, new_game_page, start_after
from views.table.taps import after_tap, record_tap

bp = Blueprint("games", __name__)


@bp.route("/new/<kind>", methods=["GET", "POST"])
@creating
def new(kind: str) -> BaseResponse | tuple[str, int]:
    """Show the new-game form, rearrange it on a button press, or start the game."""
    if kind not in SHEETS:
        abort(404)
    if request.method == "GET":
        return new_game_page(NewGameForm.empty(kind))
    form = NewGameForm.submitted(kind)
    return answer_new_game_form(form, lambda setup, dealer: create_game(setup, kept=form.views.seating(dealer)), fragment=wants_fragment())


@bp.get("/g/<token>")
def sheet(token: str) -> BaseResponse:
    """Show the game's score sheet (without controls at the read-only address).

    A table's TV moves on by itself once the game is over (to the evening's standings) and
    once a rematch runs: it opens whatever the table shows now.
    """
    game, viewer = open_to_read(token)
    if viewer.tv is not None and (game.rematch is not None or between_games(game)):
        return go_to(url_for("tv.show", token=viewer.tv), viewer.fragment)
    return render(game, viewer)


@bp.post("/g/<token>/undo")
def undo(token: str) -> BaseResponse:
    """Take back the change the button named, as a new event, while it is still the last one.

    The button names the change the phone saw last; if another phone added a change
    meanwhile, undoing the named one would skip it (409), and undoing "whatever is last
    now" would take back a change nobody at this phone saw.
    """
    game, viewer = open_to_edit(token)
    target = request.form.get("event", "")
    if not is_whole(target):
        unnamed = gettext("This undo does not say which change it takes back. Tap undo on the sheet again.")
        return render(game, viewer, problems=[unnamed], status=422)

    def still_last(before: Before) -> None:
        if superseded(before.history, int(target)):
            raise StaleError(f"change {target} is no longer the last one")

    try:
        tapped = record_tap(game, viewer, UNDO, {"event": int(target)}, precondition=still_last)
    except StaleError:
        stale = gettext(
            "Someone else changed the game meanwhile, so that was no longer the last change. Nothing was undone; this is the sheet now."
        )
        return render(game, viewer, problems=[stale], status=409)
    return after_tap(game, viewer, tapped)


@bp.post("/g/<token>/rematch")
@creating
def rematch(token: str) -> BaseResponse:
    """Start a new game with the same players and options, or join the one another phone started; the deal moves on."""
    game, viewer = open_to_lead(token)
    start_after(game, game.setup, kept=sheet_of(game.kind).rematch(game))
    return go_to(url_for("games.sheet", token=running_at(game).token), viewer.fragment)


@bp.app_errorhandler(GameOver)
def game_over(over: GameOver) -> BaseResponse:
    """Refuse a change to a game that is over and followed: its sheet as it stands, read-only, with the way to the running game."""
    refusal = gettext("This game is over and the next one is running at this table: nothing here changes any more.")
    return render(over.game, over.viewer, problems=[refusal], status=409)


@bp.get("/g/<token>/history")
def history(token: str) -> str:
    """List every change made to the game, undone ones struck through."""
    game, viewer = open_to_read(token)
    return render_template("games/history.html", **game_context(game, viewer), entries=describe_history(game))
