"""A finished game as a play for Board Game Stats (BG Stats), the play logger many players keep.

BG Stats opens ``https://app.bgstatsapp.com/createPlay.html?data=<data>`` with its import
dialog, where ``<data>`` is a URL-encoded JSON play: the game (its name, whether the
highest score wins, whether it keeps points at all, and an id the source app keeps stable),
the play's date and length, its location, and per player the name, score, rank, whether
they won and whether they started, each with a stable id of the source app. BG Stats
remembers how the user matched those ids to its own games and players, so a second import
needs no matching. The ids are whatever the caller makes them; they must never reveal an
address of the game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from urllib.parse import quote

from rules import points
from rules.evening import Played, placings
from rules.json_value import JSON

CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html"
LOCATION = "Tischblock"
"""Where the play took place, as BG Stats lists it: the app that scored it."""


def play(
    *,
    name: str,
    played: Played,
    started: datetime,
    minutes: int,
    start_player: int | None,
    game_id: str,
    player_ids: Mapping[str, str],
) -> dict[str, JSON]:
    """Return a finished game as BG Stats' play JSON, field by field as its documentation lists them.

    ``started`` is the local time the game began, ``start_player`` the seat that played
    first (None when everyone plays at once), ``player_ids`` a stable id per player's name.

    >>> result = Played(players=("Anna", "Ben"), totals={"Anna": 17, "Ben": 40}, winners=("Anna",), fewest_win=True)
    >>> p = play(name="AURUXXX", played=result, started=datetime(2026, 12, 5, 19, 4, 30), minutes=41,
    ...          start_player=1, game_id="g1", player_ids={"Anna": "p1", "Ben": "p2"})
    >>> p["game"], p["playDate"], p["players"][0]
    ({'name': 'AURUXXX', 'highestWins': False, 'noPoints': False, 'sourceGameId': 'g1'}, '2026-12-05 19:04:30', {'name': 'Anna', 'score': 8.5, 'rank': 1, 'winner': True, 'startPlayer': False, 'role': '', 'sourcePlayerId': 'p1'})
    """
    places = placings(played)
    return {
        "game": {
            "name": name,
            "highestWins": not played.fewest_win,
            "noPoints": False,
            "sourceGameId": game_id,
        },
        "playDate": started.strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": max(1, minutes),
        "location": LOCATION,
        "board": "",
        "comments": "",
        "players": [
            {
                "name": player,
                "score": points.to_json_number(played.totals[player]),
                "rank": places[player],
                "winner": player in played.winners,
                "startPlayer": seat == start_player,
                "role": "",
                "sourcePlayerId": player_ids[player],
            }
            for seat, player in enumerate(played.players)
        ],
    }


def link(data: Mapping[str, JSON]) -> str:
    """Return the address that opens BG Stats' import dialog with a play.

    >>> link({"game": {"name": "12 Days"}})
    'https://app.bgstatsapp.com/createPlay.html?data=%7B%22game%22%3A%7B%22name%22%3A%2212%20Days%22%7D%7D'
    """
    return f"{CREATE_PLAY}?data={quote(json.dumps(data, ensure_ascii=False, separators=(',', ':')), safe='')}"
