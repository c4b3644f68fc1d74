"""The 12 Days sheet's taps and forms: a revealed card, a Claus winner's gift, quick mode, a final hand, a correction.

Each route turns a request into events for the rules and answers with what the history then
adds up to; the keypad and the correction are the shared flows fed with this game's values.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask import Blueprint, request
from flask_babel import gettext
from werkzeug.wrappers import Response

from models import Game, folded
from rules.json_value import JSON
from rules.twelve_days import TWELVE_DAYS
from rules.twelve_days.history import clearing
from views import corrections
from views.addresses import open_to_edit
from views.forms import posted_index, posted_player
from views.keypads import enter_hand
from views.taps import Tapped, after_tap, record_tap, record_taps
from views.twelve_days.forms import DAY_CORRECTION, FINAL_HAND_KEYPAD
from views.twelve_days.sheet import parse_card

bp = Blueprint("twelve_days", __name__)


def posted_day(form: Mapping[str, str], game: Game) -> int:
    """Return the day a form was filled in for (the rules refuse any but the open one)."""
    return posted_index(form, "day", TWELVE_DAYS.parse(game.setup).variant.days, gettext("Unknown day."))


@bp.post("/g/<token>/card")
def reveal_card(token: str) -> Response:
    """Record the card a player revealed today; the day resolves when the last card is in."""
    game, viewer = open_to_edit(token, kind=TWELVE_DAYS.kind)
    revealed: dict[str, JSON] = {
        "day": posted_day(request.form, game),
        "player": posted_player(request.form, game.player_names),
        "card": parse_card(request.form.get("card", "")),
    }
    return after_tap(game, viewer, record_tap(game, viewer, "card", revealed))


@bp.post("/g/<token>/gift")
def give_day(token: str) -> Response:
    """Record whom a Claus winner gives the day card(s) to."""
    game, viewer = open_to_edit(token, kind=TWELVE_DAYS.kind)
    given: dict[str, JSON] = {"day": posted_day(request.form, game), "player": posted_player(request.form, game.player_names)}
    return after_tap(game, viewer, record_tap(game, viewer, "gift", given))


@bp.post("/g/<token>/clear-day")
def clear_day(token: str) -> Response:
    """Quick mode after cards were revealed: take today's cards back in one tap, as undos stored together in the history."""
    game, viewer = open_to_edit(token, kind=TWELVE_DAYS.kind)
    index = posted_day(request.form, game)
    now = folded(game)
    table = TWELVE_DAYS.typed(now.table)
    if table.current is None or table.current.index != index:
        refused = Tapped(now, (gettext("Only the cards of the day being played can be cleared."),))
        return after_tap(game, viewer, refused, refused_at="quick")
    undos = clearing(now.history, index)
    return after_tap(game, viewer, record_taps(game, viewer, undos) if undos else Tapped(now), refused_at="quick")


@bp.post("/g/<token>/taken")
def take_day(token: str) -> Response:
    """Quick mode: record only who took the day card(s), or that nobody did."""
    game, viewer = open_to_edit(token, kind=TWELVE_DAYS.kind)
    taker = request.form.get("player", "")
    taken: dict[str, JSON] = {"day": posted_day(request.form, game), "player": posted_player(request.form, game.player_names) if taker else None}
    return after_tap(game, viewer, record_tap(game, viewer, "taken", taken))


@bp.route("/g/<token>/final-hand/<int:seat>", methods=["GET", "POST"])
def final_hand(token: str, seat: int) -> Response:
    """Enter a player's final hand as counts per value, then record it (``views.keypads``)."""
    return enter_hand(*open_to_edit(token, kind=TWELVE_DAYS.kind), seat, FINAL_HAND_KEYPAD)


@bp.route("/g/<token>/days/<int:number>/correct", methods=["GET", "POST"])
def correct_day(token: str, number: int) -> Response:
    """Correct a finished day; the pot and everything after it are worked out again (``views.corrections``)."""
    return corrections.correct(*open_to_edit(token, kind=TWELVE_DAYS.kind), number, DAY_CORRECTION)
