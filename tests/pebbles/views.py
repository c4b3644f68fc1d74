"""The Pebbles score sheet: one button per player takes the round's pebble.

One module plays the part of a game's view module under ``views/``: its routes and the
module-level names of ``views.sheets.SheetView``; its templates are in ``templates/pebbles/``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial

from flask import Blueprint, abort, request, url_for
from werkzeug.wrappers import Response

from models import Game, history_of
from rules import points
from rules.history import fold
from rules.json_value import JSON
from tests.pebbles import rules
from views.addresses import game_or_404
from views.changes import counted_from_one, undo_offer
from views.corrections import newest
from views.forms import is_whole
from views.render import answer_tap, render_sheet
from views.scoreboard import Row, Scoreboard
from views.sheets import Option
from views.taps import record_tap

KIND = rules.KIND
FOLDER = "pebbles"
SEATS = rules.MAX_PLAYERS
OPTIONS: tuple[Option, ...] = ()

bp = Blueprint("pebbles", __name__, template_folder="templates")


def setup_from_form(settings: Mapping[str, str]) -> dict[str, JSON]:
    """Return no options: Pebbles has none."""
    return {}


def rematch(game: Game) -> int:
    """Return the same first seat: Pebbles has no dealer."""
    return game.first_dealer


def describe_event(kind: str, payload: Mapping[str, JSON]) -> str:
    """Return a change in words."""
    return f"Round {counted_from_one(payload, 'round')}: a pebble for {payload.get('player')}"


def scoreboard(game: Game) -> Scoreboard:
    """Return the pebbles as points: one per round won."""
    table = fold(game.setup, history_of(game))
    assert isinstance(table, rules.PebblesTable)
    played = table.game
    totals = {player: points.whole(count) for player, count in rules.pebbles(played).items()}
    best = max(totals.values())
    return Scoreboard(
        kind=KIND, stage="Round", caption="Pebbles after each round", players=game.player_names,
        rows=tuple(Row(str(number), {winner: points.whole(1)}) for number, winner in enumerate(played.winners, start=1)),
        totals=totals, winners=tuple(p for p in game.player_names if totals[p] == best) if len(played.winners) >= rules.ROUNDS else (),
        fewest_win=False,
    )


def render(game: Game, *, problems: Sequence[str] = (), status: int = 200) -> Response:
    """Return the sheet: the pebbles so far and a button per player while a round is open."""
    history = history_of(game)
    table = fold(game.setup, history)
    assert isinstance(table, rules.PebblesTable)
    played = table.game
    return render_sheet(
        "pebbles/sheet.html", game, scoreboard(game), problems=problems, status=status, version=newest(history),
        players=list(game.player_names), pebbles=rules.pebbles(played), undo=undo_offer(game, history),
        round_index=len(played.winners) if len(played.winners) < rules.ROUNDS else None,
    )


def after_tap(game: Game, problems: Sequence[str]) -> Response:
    """Answer a tap on the sheet."""
    return answer_tap(problems, partial(render, game), url_for("games.sheet", token=game.token))


@bp.post("/g/<token>/pebble")
def take(token: str) -> Response:
    """Give the round's pebble to a player."""
    game = game_or_404(token, kind=KIND)
    player, round_index = request.form.get("player", ""), request.form.get("round", "")
    if player not in game.player_names or not is_whole(round_index):
        abort(400)
    return after_tap(game, record_tap(game, "win", {"round": int(round_index), "player": player}))
