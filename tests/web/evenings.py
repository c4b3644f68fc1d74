"""An evening at one table, played through the test client: two AURUXXX games and a game of 12 Days, as phones play them.

Game 1 (AURUXXX): Ben ends every round; Anna keeps 10 points in hand, Cleo 5, and Anna passes
once a round: Ben −15, Cleo 15, Anna 45, so Ben wins, Cleo is second and Anna third.
Game 2 (AURUXXX, the rematch): Anna ends every round (after passing once); Ben keeps 10, Cleo 5: Anna 0,
Cleo 15, Ben 30: Anna first, Cleo second, Ben third.
Game 3 (12 Days, started at the table): Cleo takes every day (78 points) and holds the most
of the tens and nines: Cleo 97, Anna 12, Ben 12: Cleo wins, Anna and Ben share second.
So Cleo leads the evening (one win, two second places); Anna and Ben share second place.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask, template_rendered
from flask.testing import FlaskClient
from jinja2_fragments.flask import template_block_rendered
from sqlalchemy import select

from models import Game, db
from rules.auruxxx import score as auruxxx
from rules.twelve_days import score as twelve_days
from tests.helpers import PLAYERS, start, tap


def play_auruxxx(client: FlaskClient, token: str, *, finisher: str, hands: dict[int, int]) -> None:
    """Play all three rounds of an AURUXXX game: Anna passes once, ``finisher`` ends each round, the others count ``hands`` (by seat)."""
    for index in range(auruxxx.ROUNDS):
        tap(client, token, "pass", player="Anna", round=str(index))
        tap(client, token, "finish", player=finisher, round=str(index), golden12="1")
        for seat, points in hands.items():
            tap(client, token, f"hand/{seat}", round=str(index), action="save-points", points=str(points))


def play_twelve_days(client: FlaskClient, token: str) -> None:
    """Play a whole 12 Days game quickly: Cleo takes every day, then the final hands (Cleo holds the most tens and nines)."""
    for day in range(twelve_days.STANDARD.days):
        tap(client, token, "taken", day=str(day), player="Cleo")
    tap(client, token, "final-hand/0", **{"count-12": "12", "action": "save"})
    tap(client, token, "final-hand/1", **{"count-11": "11", "count-1": "1", "action": "save"})
    tap(client, token, "final-hand/2", **{"count-10": "10", "count-9": "2", "action": "save"})


def rematch(client: FlaskClient, token: str) -> str:
    """Tap "rematch" and return the rematch's edit token."""
    response = client.post(f"/g/{token}/rematch")
    assert response.status_code == 303, response.get_data(as_text=True)
    return str(response.headers["Location"]).removeprefix("/g/")


def next_game(client: FlaskClient, token: str, kind: str, **fields: str) -> str:
    """Start another game at the table from the game at ``token`` and return its edit token."""
    response = client.post(f"/g/{token}/next/{kind}", data={"player": PLAYERS, "action": "start", **fields})
    assert response.status_code == 303, response.get_data(as_text=True)
    return str(response.headers["Location"]).removeprefix("/g/")


def three_games(client: FlaskClient) -> list[str]:
    """Play the evening of the module's docstring and return the three games' edit tokens."""
    first = start(client, "auruxxx", PLAYERS)
    play_auruxxx(client, first, finisher="Ben", hands={0: 10, 2: 5})
    second = rematch(client, first)
    play_auruxxx(client, second, finisher="Anna", hands={1: 10, 2: 5})
    third = next_game(client, second, "12days", variant="standard")
    play_twelve_days(client, third)
    return [first, second, third]


def game_of(app: Flask, token: str) -> Game:
    """Return the stored game an edit token opens (call inside an app context)."""
    found = db.session.scalar(select(Game).where(Game.token == token))
    assert found is not None
    return found


@contextmanager
def contexts(app: Flask) -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Collect the template and context of every page and fragment rendered meanwhile."""
    seen: list[tuple[str, dict[str, Any]]] = []

    def page(sender: Flask, template: Any, context: dict[str, Any], **extra: Any) -> None:
        seen.append((str(template.name), context))

    def block(sender: Flask, template_name: str, block_name: str, context: dict[str, Any], **extra: Any) -> None:
        seen.append((template_name, context))

    template_rendered.connect(page, app)
    template_block_rendered.connect(block, app)
    try:
        yield seen
    finally:
        template_rendered.disconnect(page, app)
        template_block_rendered.disconnect(block, app)
