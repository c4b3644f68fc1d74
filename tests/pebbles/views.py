"""The Pebbles score sheet: one button per player takes the round's pebble; a keypad counts the stones in hand.

One module plays the part of a game's views package under ``views/``: its view model, its
routes, its keypad and correction values and ``PEBBLES_SHEET``, its entry in ``views.table.sheets``;
its templates are in ``templates/pebbles/``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, request
from werkzeug.wrappers import Response

from models import Game
from rules import points
from rules.json_value import JSON
from tests.pebbles import rules
from views.table import (
    Choice,
    Correction,
    Keypad,
    Option,
    Row,
    Scoreboard,
    SheetView,
    after_tap,
    correct_finished,
    counted_from_one,
    enter_hand,
    is_whole,
    open_to_edit,
    posted_index,
    posted_player,
    record_tap,
)

bp = Blueprint("pebbles", __name__, template_folder="templates")

OPTIONS = (Option("length", "Rounds", "How many rounds the table plays.", tuple(Choice(str(n), str(n)) for n in rules.LENGTHS), "2"),)


def setup_from_form(settings: Mapping[str, str]) -> dict[str, JSON]:
    """Return how many rounds the form chose."""
    return {"length": int(settings["length"])}


def no_dealer(first: int) -> dict[str, JSON]:
    """Return nothing to keep of the seating: nobody deals in this game."""
    return {}


def rematch(game: Game) -> dict[str, JSON]:
    """Return nothing a rematch keeps besides the players and options: nobody deals in this game."""
    return {}


def describe_event(game: Game, kind: str, payload: Mapping[str, JSON]) -> str:
    """Return a change in words."""
    if kind == "hand":
        return f"{payload.get('player')} holds {payload.get('stones')} stones"
    if kind == "correct_round":
        return f"Round {counted_from_one(payload, 'round')} corrected"
    return f"Round {counted_from_one(payload, 'round')}: a pebble for {payload.get('player')}"


@dataclass(frozen=True, kw_only=True)
class Sheet:
    """What the Pebbles sheet shows: everyone's points, the round being played, and the points as a scoreboard."""

    pebbles: Mapping[str, int]
    round_index: int | None
    """The round being played, or None once the game is over."""
    rounds: tuple[str, ...]
    """Who won each finished round."""
    board: Scoreboard


def lay_out(game: Game, table: rules.PebblesTable) -> Sheet:
    """Return the points so far, the open round, and the pebbles as a scoreboard: one per round won, then the stones."""
    played = table.game
    totals = {player: points.whole(count) for player, count in rules.pebbles(played).items()}
    best = max(totals.values())
    over = len(played.winners) >= played.length
    rows = [Row(str(number), {winner: points.whole(1)}) for number, winner in enumerate(played.winners, start=1)]
    if played.hands:
        rows.append(Row("Stones", {p: points.whole(stones) for p, stones in played.hands.items()}))
    board = Scoreboard(
        kind=rules.KIND,
        stage="Round",
        caption="Pebbles after each round",
        players=game.player_names,
        rows=tuple(rows),
        totals=totals,
        winners=tuple(p for p in game.player_names if totals[p] == best) if over else (),
        fewest_win=False,
    )
    return Sheet(pebbles=rules.pebbles(played), round_index=None if over else len(played.winners), rounds=played.winners, board=board)


@bp.post("/g/<token>/pebble")
def take(token: str) -> Response:
    """Give the round's pebble to a player."""
    game, viewer = open_to_edit(token, kind=rules.KIND)
    player = posted_player(request.form, game.player_names)
    won: dict[str, JSON] = {
        "round": posted_index(request.form, "round", rules.PEBBLES.parse(game.setup).length, "Unknown round."),
        "player": player,
    }
    return after_tap(game, viewer, record_tap(game, viewer, "win", won))


# --- The stones keypad ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Stones:
    """What the keypad shows: how many stones the hand holds."""

    count: int = 0

    def pressed(self, action: str) -> Stones:
        """Return the keypad after one stone more or less."""
        if action == "more":
            return Stones(min(rules.MAX_STONES, self.count + 1))
        if action == "less":
            return Stones(max(0, self.count - 1))
        return self

    def draft(self) -> dict[str, JSON]:
        """Return what a phone keeps of an unsaved keypad."""
        return {"stones": self.count}


def _posted_stones(form: Mapping[str, str], table: rules.PebblesTable) -> tuple[Stones, list[str]]:
    """Return the count the form carries; anything but a count from 0 to 9 is refused."""
    value = form.get("stones", "0")
    if not is_whole(value) or int(value) > rules.MAX_STONES:
        return Stones(), [f"{value} is no number of stones."]
    return Stones(int(value)), []


def _kept_stones(draft: Mapping[str, Any], table: rules.PebblesTable) -> Stones:
    """Return the keypad as this phone kept it unsaved."""
    kept = draft.get("stones")
    return Stones(kept) if isinstance(kept, int) and 0 <= kept <= rules.MAX_STONES else Stones()


STONES_KEYPAD: Keypad[rules.PebblesTable, Stones] = Keypad(
    rules=rules.PEBBLES,
    template="pebbles/hand.html",
    opens=lambda table, player: True,
    position=lambda table: None,
    stored=lambda table, player: Stones(table.game.hands.get(player, 0)),
    kept=_kept_stones,
    posted=_posted_stones,
    written=lambda entry, action, player, form: ({"player": player, "stones": entry.count}, []),
    part=lambda table, player, form: table.game.hands.get(player),
    theirs=lambda table, entry, player, action, form: f"Another phone saved {table.game.hands.get(player, 0)} stones for {player}.",
    held=lambda table, player, form: f"{table.game.hands[player]} stones" if player in table.game.hands else None,
    shown=lambda entry, table, action: {"stones": entry.count, "most": rules.MAX_STONES},
)
"""The stones keypad: one more, one less, save."""


@bp.route("/g/<token>/stones/<int:seat>", methods=["GET", "POST"])
def stones(token: str, seat: int) -> Response:
    """Count a player's stones in hand on the keypad (``views.table.keypads``)."""
    return enter_hand(*open_to_edit(token, kind=rules.KIND), seat, STONES_KEYPAD)


# --- Correcting a finished round -----------------------------------------------------------------


ROUND_CORRECTION: Correction[rules.PebblesTable, str] = Correction(
    rules=rules.PEBBLES,
    event="correct_round",
    position="round",
    template="pebbles/correct.html",
    changed_meanwhile=lambda: "Someone else changed this round meanwhile.",
    stored=lambda table, index: table.game.winners[index],
    read_form=lambda form, game, table, index: ({"winner": form.get("winner", "")}, form.get("winner", ""), []),
    offers=lambda table, index: {},
    endpoint="pebbles.correct",
    fix_text=lambda number: f"Correct round {number} with it",
    prefilled=lambda stored, asked, table: asked["winner"] if asked.get("winner") in table.game.players else stored,
)
"""A finished round corrected: who won it."""


@bp.route("/g/<token>/pebbles/<int:number>/correct", methods=["GET", "POST"])
def correct(token: str, number: int) -> Response:
    """Correct who won a finished round (``views.table.corrections``); every game's routes share one address space."""
    return correct_finished(*open_to_edit(token, kind=rules.KIND), number, ROUND_CORRECTION)


PEBBLES_SHEET: SheetView[rules.PebblesTable] = SheetView(
    rules=rules.PEBBLES,
    blueprint=bp,
    folder="pebbles",
    seats=rules.MAX_PLAYERS,
    options=OPTIONS,
    setup_from_form=setup_from_form,
    seating=no_dealer,
    rematch=rematch,
    describe=describe_event,
    lay_out=lay_out,
)
"""The Pebbles sheet, as the shared pages know it."""
