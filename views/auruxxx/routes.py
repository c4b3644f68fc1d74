"""The AURUXXX sheet's taps and forms: a pass cross, the Happy-Man figure, the round's end, a hand, a correction.

Each route turns a request into one event for the rules and answers with what the history
then adds up to; the keypad and the correction are the shared flows fed with this game's values.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, request, url_for
from flask_babel import gettext, ngettext
from werkzeug.wrappers import Response

from models import Game, folded
from rules.auruxxx import AURUXXX
from rules.auruxxx.history import AuruxxxTable, finisher_in, holder_in
from rules.auruxxx.score import GOLDEN12_IN_DECK, MAX_PASSES
from rules.games import Table
from rules.json_value import JSON
from views.auruxxx.forms import HAND_KEYPAD, ROUND_CORRECTION, posted_round
from views.table import (
    Overtaken,
    Viewer,
    after_tap,
    correct_finished,
    enter_hand,
    game_page,
    go_to,
    is_whole,
    open_to_edit,
    posted_player,
    record_move,
    record_tap,
    refused_fix,
)

bp = Blueprint("auruxxx", __name__)


@bp.post("/g/<token>/pass")
def pass_cross(token: str) -> Response:
    """Add a pass cross for a player in the current round."""
    game, viewer = open_to_edit(token, kind=AURUXXX.kind)
    player = posted_player(request.form, game.player_names)
    index = posted_round(request.form)
    tapped = record_tap(game, viewer, "pass", {"round": index, "player": player})
    seat = game.player_names.index(player)

    def one_cross_more(table: AuruxxxTable) -> dict[str, str] | None:
        crosses = table.game.rounds[index].passes_of(player) + 1
        return {f"passes-{seat}": str(crosses)} if crosses <= MAX_PASSES else None

    return after_tap(
        game,
        viewer,
        tapped,
        fix=refused_fix(ROUND_CORRECTION, tapped.state, game.token, index, one_cross_more) if tapped.problems else None,
    )


@bp.post("/g/<token>/happy-man")
def hand_on_happy_man(token: str) -> Response:
    """Hand the Happy-Man figure to a player, unless another phone handed it on after the sheet this tap was made on."""
    game, viewer = open_to_edit(token, kind=AURUXXX.kind)
    player = posted_player(request.form, game.player_names)
    index = posted_round(request.form)

    def theirs(table: Table[Any]) -> str:
        holder = holder_in(AURUXXX.typed(table), index)
        if holder is None:
            return str(gettext("Another phone took the Happy-Man figure back meanwhile. You tapped %(name)s.", name=player))
        return str(
            gettext("Another phone handed the Happy-Man figure to %(holder)s meanwhile. You tapped %(name)s.", holder=holder, name=player)
        )

    tapped = record_move(
        game,
        viewer,
        [("happy_man", {"round": index, "player": player})],
        moves=lambda table: holder_in(AURUXXX.typed(table), index),
        theirs=theirs,
    )
    fix = refused_fix(ROUND_CORRECTION, tapped.state, game.token, index, lambda table: {"happy_man": player}) if tapped.problems else None
    return after_tap(game, viewer, tapped, fix=fix)


@bp.route("/g/<token>/finish", methods=["GET", "POST"])
def finish(token: str) -> Response:
    """Ask who ended the round and with how many Golden 12, then record it, unless another phone said so differently meanwhile."""
    game, viewer = open_to_edit(token, kind=AURUXXX.kind)
    if request.method == "POST":
        golden12 = request.form.get("golden12", "")
        if not is_whole(golden12):
            return _finish_page(game, viewer, [gettext("Tap how many Golden 12 ended the round.")], 422)
        index = posted_round(request.form)
        player = posted_player(request.form, game.player_names)
        ended: dict[str, JSON] = {"round": index, "player": player, "golden12": int(golden12)}
        tapped = record_move(
            game,
            viewer,
            [("finish", ended)],
            moves=lambda table: finisher_in(AURUXXX.typed(table), index),
            theirs=lambda table: _their_finish(AURUXXX.typed(table), index, player, int(golden12)),
        )
        if tapped.overtaken is not None:
            return _finish_page(game, viewer, [], 409, overtaken=tapped.overtaken, mine=(player, int(golden12)))
        if tapped.problems:
            return _finish_page(game, viewer, list(tapped.problems), 422, mine=(player, int(golden12)))
        return go_to(url_for("games.sheet", token=game.token), viewer.fragment)
    return _finish_page(game, viewer, [], 200)


def _their_finish(table: AuruxxxTable, index: int, player: str, golden12: int) -> str:
    """Return the words of the choice after another phone said meanwhile who ended the round: theirs and this phone's."""
    mine = ngettext("%(name)s with %(num)s Golden 12", "%(name)s with %(num)s Golden 12", golden12, name=player)
    ended = finisher_in(table, index)
    if ended is None:
        return str(gettext("Another phone took back who ended the round meanwhile. Yours: %(mine)s.", mine=mine))
    theirs = ngettext("%(name)s with %(num)s Golden 12", "%(name)s with %(num)s Golden 12", ended[1], name=ended[0])
    return str(gettext("Another phone said meanwhile who ended the round: %(theirs)s. Yours: %(mine)s.", theirs=theirs, mine=mine))


def _finish_page(
    game: Game, viewer: Viewer, problems: list[str], status: int, *, overtaken: Overtaken | None = None, mine: tuple[str, int] | None = None
) -> Response:
    """Render the who-ended-the-round form: as stored, or with what this phone chose (``mine``) after a refusal or beside theirs."""
    now = folded(game)
    table = AURUXXX.typed(now.table)
    if table.current is None:
        return redirect(url_for("games.sheet", token=game.token), code=303)
    return game_page(
        "auruxxx/finish.html",
        "finish",
        game,
        viewer,
        status=status,
        current=table.current,
        chosen=mine or (table.current.finisher, table.current.golden12 or 1),
        seen=overtaken.seen if overtaken is not None else now.version,
        overtaken=overtaken,
        players=list(game.player_names),
        problems=problems,
        golden12_choices=range(1, GOLDEN12_IN_DECK + 1),
    )


@bp.route("/g/<token>/hand/<int:seat>", methods=["GET", "POST"])
def hand(token: str, seat: int) -> Response:
    """Enter a player's hand card by card (or as a counted total), then record it (``views.table.keypads``)."""
    return enter_hand(*open_to_edit(token, kind=AURUXXX.kind), seat, HAND_KEYPAD)


@bp.route("/g/<token>/rounds/<int:number>/correct", methods=["GET", "POST"])
def correct(token: str, number: int) -> Response:
    """Correct a finished round as a whole; everything after it is recomputed (``views.table.corrections``)."""
    return correct_finished(*open_to_edit(token, kind=AURUXXX.kind), number, ROUND_CORRECTION)
