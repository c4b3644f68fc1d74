"""The Pebbles score sheet: one button per player takes the round's pebble.

One module plays the part of a game's views package under ``views/``: its view model, its
routes and ``PEBBLES_SHEET``, its entry in ``views.sheets``; its templates are in ``templates/pebbles/``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from flask import Blueprint, abort, request
from werkzeug.wrappers import Response

from models import Game
from rules import points
from rules.games import JSON
from tests.pebbles import rules
from views.addresses import open_to_edit
from views.forms import is_whole
from views.scoreboard import Row, Scoreboard
from views.sheets import SheetView
from views.taps import after_tap, record_tap

bp = Blueprint("pebbles", __name__, template_folder="templates")


def setup_from_form(settings: Mapping[str, str]) -> dict[str, JSON]:
    """Return no options: Pebbles has none."""
    return {}


def no_dealer(first: int) -> dict[str, JSON]:
    """Return nothing to keep of the seating: nobody deals in this game."""
    return {}


def rematch(game: Game) -> dict[str, JSON]:
    """Return nothing a rematch keeps besides the players and options: nobody deals in this game."""
    return {}


def describe_event(kind: str, payload: Mapping[str, JSON]) -> str:
    """Return a change in words."""
    return f"Round {int(payload.get('round') or 0) + 1}: a pebble for {payload.get('player')}"


@dataclass(frozen=True, kw_only=True)
class Sheet:
    """What the Pebbles sheet shows: everyone's pebbles, the round being played, and the points as a scoreboard."""

    pebbles: Mapping[str, int]
    round_index: int | None
    """The round being played, or None once the game is over."""
    board: Scoreboard


def lay_out(game: Game, table: rules.PebblesTable) -> Sheet:
    """Return the pebbles so far, the open round, and the pebbles as points: one per round won."""
    played = table.game
    totals = {player: points.whole(count) for player, count in rules.pebbles(played).items()}
    best = max(totals.values())
    board = Scoreboard(
        kind=rules.KIND, stage="Round", caption="Pebbles after each round", players=game.player_names,
        rows=tuple(Row(str(number), {winner: points.whole(1)}) for number, winner in enumerate(played.winners, start=1)),
        totals=totals, winners=tuple(p for p in game.player_names if totals[p] == best) if len(played.winners) >= rules.ROUNDS else (),
        fewest_win=False,
    )
    over = len(played.winners) >= rules.ROUNDS
    return Sheet(pebbles=rules.pebbles(played), round_index=None if over else len(played.winners), board=board)


@bp.post("/g/<token>/pebble")
def take(token: str) -> Response:
    """Give the round's pebble to a player."""
    game, viewer = open_to_edit(token, kind=rules.KIND)
    player, round_index = request.form.get("player", ""), request.form.get("round", "")
    if player not in game.player_names or not is_whole(round_index):
        abort(400)
    return after_tap(game, viewer, record_tap(game, "win", {"round": int(round_index), "player": player}))


PEBBLES_SHEET: SheetView[rules.PebblesTable] = SheetView(
    rules=rules.PEBBLES,
    blueprint=bp,
    folder="pebbles",
    seats=rules.MAX_PLAYERS,
    setup_from_form=setup_from_form,
    seating=no_dealer,
    rematch=rematch,
    describe=describe_event,
    lay_out=lay_out,
)
"""The Pebbles sheet, as the shared pages know it."""
