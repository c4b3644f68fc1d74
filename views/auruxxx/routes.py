"""The AURUXXX sheet's taps and forms: a pass cross, the Happy-Man figure, the round's end, a hand, a correction.

Each route turns a request into one event for the rules and answers with what the history
then adds up to; the keypad and the correction are the shared flows fed with this game's values.
"""

from __future__ import annotations

from flask import Blueprint, redirect, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from models import Game, folded
from rules.auruxxx import AURUXXX
from rules.auruxxx.score import GOLDEN12_IN_DECK
from rules.json_value import JSON
from views import corrections
from views.addresses import open_to_edit
from views.auruxxx.forms import HAND_KEYPAD, ROUND_CORRECTION, posted_round
from views.forms import is_whole, posted_player
from views.keypads import enter_hand
from views.render import game_page, go_to
from views.taps import after_tap, record_tap
from views.viewers import Viewer

bp = Blueprint("auruxxx", __name__)


@bp.post("/g/<token>/pass")
def pass_cross(token: str) -> Response:
    """Add a pass cross for a player in the current round."""
    game, viewer = open_to_edit(token, kind=AURUXXX.kind)
    player = posted_player(request.form, game.player_names)
    return after_tap(game, viewer, record_tap(game, viewer, "pass", {"round": posted_round(request.form), "player": player}))


@bp.post("/g/<token>/happy-man")
def hand_on_happy_man(token: str) -> Response:
    """Hand the Happy-Man figure to a player."""
    game, viewer = open_to_edit(token, kind=AURUXXX.kind)
    player = posted_player(request.form, game.player_names)
    return after_tap(game, viewer, record_tap(game, viewer, "happy_man", {"round": posted_round(request.form), "player": player}))


@bp.route("/g/<token>/finish", methods=["GET", "POST"])
def finish(token: str) -> Response:
    """Ask who ended the round and with how many Golden 12, then record it."""
    game, viewer = open_to_edit(token, kind=AURUXXX.kind)
    if request.method == "POST":
        golden12 = request.form.get("golden12", "")
        if not is_whole(golden12):
            return _finish_page(game, viewer, [gettext("Tap how many Golden 12 ended the round.")], 422)
        ended: dict[str, JSON] = {"round": posted_round(request.form), "player": posted_player(request.form, game.player_names), "golden12": int(golden12)}
        problems = record_tap(game, viewer, "finish", ended).problems
        if problems:
            return _finish_page(game, viewer, list(problems), 422)
        return go_to(url_for("games.sheet", token=game.token), viewer.fragment)
    return _finish_page(game, viewer, [], 200)


def _finish_page(game: Game, viewer: Viewer, problems: list[str], status: int) -> Response:
    """Render the who-ended-the-round form."""
    table = AURUXXX.typed(folded(game).table)
    if table.current is None:
        return redirect(url_for("games.sheet", token=game.token), code=303)
    return game_page(
        "auruxxx/finish.html",
        "finish",
        game,
        viewer,
        status=status,
        current=table.current,
        players=list(game.player_names),
        problems=problems,
        golden12_choices=range(1, GOLDEN12_IN_DECK + 1),
    )


@bp.route("/g/<token>/hand/<int:seat>", methods=["GET", "POST"])
def hand(token: str, seat: int) -> Response:
    """Enter a player's hand card by card (or as a counted total), then record it (``views.keypads``)."""
    return enter_hand(*open_to_edit(token, kind=AURUXXX.kind), seat, HAND_KEYPAD)


@bp.route("/g/<token>/rounds/<int:number>/correct", methods=["GET", "POST"])
def correct(token: str, number: int) -> Response:
    """Correct a finished round as a whole; everything after it is recomputed (``views.corrections``)."""
    return corrections.correct(*open_to_edit(token, kind=AURUXXX.kind), number, ROUND_CORRECTION)
