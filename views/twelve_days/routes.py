"""The 12 Days sheet's taps and forms: a revealed card, a Claus winner's gift, quick mode, a final hand, a correction.

Each route turns a request into events for the rules and answers with what the history then
adds up to; the keypad and the correction are the shared flows fed with this game's values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, request
from flask_babel import gettext
from werkzeug.wrappers import Response

from models import Game, folded
from rules.games import Table
from rules.json_value import JSON
from rules.twelve_days import TWELVE_DAYS
from rules.twelve_days.history import card_of, clearing, revealed_on
from views.table import (
    Tapped,
    after_tap,
    correct_finished,
    enter_hand,
    open_to_edit,
    posted_index,
    posted_player,
    record_move,
    record_tap,
    refused_fix,
    sent_before,
)
from views.twelve_days.forms import DAY_CORRECTION, FINAL_HAND_KEYPAD
from views.twelve_days.words import card_label, parse_card

bp = Blueprint("twelve_days", __name__)


def posted_day(form: Mapping[str, str], game: Game) -> int:
    """Return the day a form was filled in for (the rules refuse any but the open one)."""
    return posted_index(form, "day", TWELVE_DAYS.parse(game.setup).variant.days, gettext("Unknown day."))


@bp.post("/g/<token>/card")
def reveal_card(token: str) -> Response:
    """Record the card a player revealed today (the day resolves when the last card is in), unless another phone
    entered a different card for that player after the sheet this tap was made on: a second card replaces the first."""
    game, viewer = open_to_edit(token, kind=TWELVE_DAYS.kind)
    index = posted_day(request.form, game)
    player = posted_player(request.form, game.player_names)
    card = parse_card(request.form.get("card", ""))
    revealed: dict[str, JSON] = {"day": index, "player": player, "card": card}

    def theirs(table: Table[Any]) -> str:
        now = card_of(TWELVE_DAYS.typed(table), index, player)
        mine = card_label(card) if not isinstance(card, str) else card
        if now is None:
            return str(gettext("Another phone took back the card of %(name)s meanwhile. You tapped %(mine)s.", name=player, mine=mine))
        return str(
            gettext(
                "Another phone entered %(theirs)s for %(name)s meanwhile. You tapped %(mine)s.",
                theirs=card_label(now),
                name=player,
                mine=mine,
            )
        )

    moved = record_move(
        game, viewer, [("card", revealed)], moves=lambda table: card_of(TWELVE_DAYS.typed(table), index, player), theirs=theirs
    )
    asked = {f"card-{game.player_names.index(player)}": str(card)}
    fix = refused_fix(DAY_CORRECTION, moved.state, game.token, index, lambda table: asked) if moved.problems else None
    return after_tap(game, viewer, moved, fix=fix)


def _cards_changed(table: Table[Any]) -> str:
    """Return the words of the choice after today's cards changed on another phone before a gift or clearing them."""
    return str(gettext("Another phone changed today's cards meanwhile. Check them on the sheet first."))


@bp.post("/g/<token>/gift")
def give_day(token: str) -> Response:
    """Record whom a Claus winner gives the day card(s) to, unless the day's cards changed after the sheet this tap was made on."""
    game, viewer = open_to_edit(token, kind=TWELVE_DAYS.kind)
    index = posted_day(request.form, game)
    player = posted_player(request.form, game.player_names)
    given: dict[str, JSON] = {"day": index, "player": player}
    moved = record_move(
        game, viewer, [("gift", given)], moves=lambda table: revealed_on(TWELVE_DAYS.typed(table), index), theirs=_cards_changed
    )
    fix = refused_fix(DAY_CORRECTION, moved.state, game.token, index, lambda table: {"gift_to": player}) if moved.problems else None
    return after_tap(game, viewer, moved, fix=fix)


@bp.post("/g/<token>/clear-day")
def clear_day(token: str) -> Response:
    """Quick mode after cards were revealed: take today's cards back in one tap, as undos stored together in the history.

    Only the cards the sheet showed are taken back: if another phone revealed or changed one after
    the sheet this tap was made on, nothing is undone and the player chooses. A clear sent again
    after it counted answers the sheet as it is now, whatever was revealed since.
    """
    game, viewer = open_to_edit(token, kind=TWELVE_DAYS.kind)
    index = posted_day(request.form, game)
    now = folded(game)
    if sent_before(game):
        return after_tap(game, viewer, Tapped(now), refused_at="quick")
    table = TWELVE_DAYS.typed(now.table)
    if table.current is None or table.current.index != index:
        refused = Tapped(now, (gettext("Only the cards of the day being played can be cleared."),))
        return after_tap(game, viewer, refused, refused_at="quick")
    undos = clearing(now.history, index)
    if not undos:
        return after_tap(game, viewer, Tapped(now), refused_at="quick")
    cleared = record_move(game, viewer, undos, moves=lambda table: revealed_on(TWELVE_DAYS.typed(table), index), theirs=_cards_changed)
    return after_tap(game, viewer, cleared, refused_at="quick")


@bp.post("/g/<token>/taken")
def take_day(token: str) -> Response:
    """Quick mode: record only who took the day card(s), or that nobody did."""
    game, viewer = open_to_edit(token, kind=TWELVE_DAYS.kind)
    taker = request.form.get("player", "")
    taken: dict[str, JSON] = {
        "day": posted_day(request.form, game),
        "player": posted_player(request.form, game.player_names) if taker else None,
    }
    return after_tap(game, viewer, record_tap(game, viewer, "taken", taken))


@bp.route("/g/<token>/final-hand/<int:seat>", methods=["GET", "POST"])
def final_hand(token: str, seat: int) -> Response:
    """Enter a player's final hand as counts per value, then record it (``views.table.keypads``)."""
    return enter_hand(*open_to_edit(token, kind=TWELVE_DAYS.kind), seat, FINAL_HAND_KEYPAD)


@bp.route("/g/<token>/days/<int:number>/correct", methods=["GET", "POST"])
def correct_day(token: str, number: int) -> Response:
    """Correct a finished day; the pot and everything after it are worked out again (``views.table.corrections``)."""
    return correct_finished(*open_to_edit(token, kind=TWELVE_DAYS.kind), number, DAY_CORRECTION)
