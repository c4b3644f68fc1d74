"""Where a finished game's result goes from a phone: into BG Stats by one tap, and as a picture for the family's group chat.

A finished sheet offers both links (``views.results.picture`` draws the picture). BG Stats' ids
for the game and its players are keyed hashes of the game's row and the players' names: stable,
so BG Stats remembers how they were matched, and telling nothing about any address of the game.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from flask import current_app, url_for
from flask_babel import to_user_timezone

from models import Game, last_change
from rules import bgstats
from rules.evening import Played
from rules.games import find_game
from rules.json_value import JSON
from rules.record import same_name_key
from views.table.scoreboard import Scoreboard

ID_LENGTH = 24
"""Hex digits of a BG Stats id: 96 bits of a keyed hash."""


def played_of(board: Scoreboard) -> Played:
    """Return a game's scoreboard as the standings and BG Stats read it."""
    return Played(players=board.players, totals=board.totals, winners=board.winners, fewest_win=board.fewest_win)


def _keyed(purpose: str, value: str) -> str:
    """Return a stable id for ``value`` that only this server can make: an HMAC with the app's secret key."""
    key = str(current_app.secret_key).encode()
    return hmac.new(key, f"bgstats:{purpose}:{value}".encode(), hashlib.sha256).hexdigest()[:ID_LENGTH]


def bgstats_play(game: Game, board: Scoreboard) -> dict[str, JSON]:
    """Return a finished game as BG Stats' play JSON: name, who won, when, how long, and stable ids."""
    rules = find_game(game.kind)
    started = game.created_at
    minutes = round((last_change(game) - started).total_seconds() / 60)
    return bgstats.play(
        name=game.title,
        played=played_of(board),
        started=to_user_timezone(started).replace(tzinfo=None),
        minutes=minutes,
        start_player=rules.first_player(game.first_dealer, len(board.players)),
        game_id=_keyed("game", str(game.id)),
        player_ids={player: _keyed("player", same_name_key(player)) for player in board.players},
    )


@dataclass(frozen=True)
class ResultLinks:
    """Where a finished game's result goes from a phone: into BG Stats, and as a picture."""

    bgstats: str
    picture: str
    picture_name: str


def result_links_for(game: Game, board: Scoreboard) -> ResultLinks | None:
    """Return the ways to send on a finished game's result, or None while it is running."""
    if not board.winners:
        return None
    return ResultLinks(
        bgstats=bgstats.link(bgstats_play(game, board)),
        picture=url_for("result.picture", token=game.read_token),
        picture_name=f"tischblock-{game.kind}-{game.created_at:%Y-%m-%d}.png",
    )
