"""Games in the states the hostile-input and security tests send requests to, and ways to count what is stored.

Each state is built once per test module through the test client, the way phones build it;
``clone`` then copies a built game (players and history) under new tokens, which is far
cheaper than replaying its taps for every generated example.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from models import CardTable, Event, Game, Player, SeatClaim, db
from rules import auruxxx, twelve_days

PLAYERS = ["Anna", "Ben", "Cleo"]


def start(client: FlaskClient, kind: str, names: list[str] = PLAYERS, **fields: str) -> str:
    """Start a game through the new-game form and return its edit token."""
    response = client.post(f"/new/{kind}", data={"player": names, "action": "start", **fields})
    assert response.status_code == 303, response.get_data(as_text=True)
    return str(response.headers["Location"]).removeprefix("/g/")


def tap(client: FlaskClient, token: str, route: str, **data: str) -> None:
    """Post a tap that must count."""
    response = client.post(f"/g/{token}/{route}", data=data)
    assert response.status_code == 303, (route, data, response.status_code, response.get_data(as_text=True)[-2000:])


def _auruxxx_round(client: FlaskClient, token: str, index: int) -> None:
    """Play one AURUXXX round: Anna passes, Ben ends it with one Golden 12, the others count their hands."""
    _auruxxx_finish(client, token, index)
    tap(client, token, "hand/0", round=str(index), action="save-points", points="10")
    tap(client, token, "hand/2", round=str(index), action="save-points", points="5")


def _auruxxx_finish(client: FlaskClient, token: str, index: int) -> None:
    """Record a pass cross for Anna and Ben's finish of round ``index``."""
    tap(client, token, "pass", player="Anna", round=str(index))
    tap(client, token, "finish", player="Ben", round=str(index), golden12="1")


def auruxxx_fresh(client: FlaskClient) -> str:
    """A new AURUXXX game: the first round is open and empty."""
    return start(client, "auruxxx")


def auruxxx_finisher_known(client: FlaskClient) -> str:
    """The first round is ended: the finisher is known, the other hands are still to be counted."""
    token = start(client, "auruxxx")
    _auruxxx_finish(client, token, 0)
    return token


def auruxxx_round_finished(client: FlaskClient) -> str:
    """The first round is finished (and can be corrected); the second is open."""
    token = start(client, "auruxxx")
    _auruxxx_round(client, token, 0)
    return token


def auruxxx_over(client: FlaskClient) -> str:
    """Every round is played: the game is over and offers a rematch."""
    token = start(client, "auruxxx")
    for index in range(auruxxx.ROUNDS):
        _auruxxx_round(client, token, index)
    return token


def twelve_days_fresh(client: FlaskClient) -> str:
    """A new 12 Days game: day 1 is open and nobody has revealed a card."""
    return start(client, "12days", variant="standard")


def twelve_days_card_revealed(client: FlaskClient) -> str:
    """Day 1 is open and one card is revealed."""
    token = start(client, "12days", variant="standard")
    tap(client, token, "card", day="0", player="Anna", card="5")
    return token


def twelve_days_gift_due(client: FlaskClient) -> str:
    """Every card of day 1 is revealed and Anna won with Santa: she has to give the day away."""
    token = start(client, "12days", variant="standard")
    for player, card in (("Anna", "santa"), ("Ben", "3"), ("Cleo", "7")):
        tap(client, token, "card", day="0", player=player, card=card)
    return token


def twelve_days_day_finished(client: FlaskClient) -> str:
    """Day 1 is decided (Ben wins with the 2); day 2 is open."""
    token = start(client, "12days", variant="standard")
    for player, card in (("Anna", "5"), ("Ben", "2"), ("Cleo", "9")):
        tap(client, token, "card", day="0", player=player, card=card)
    return token


def twelve_days_days_over(client: FlaskClient) -> str:
    """Every day is recorded (quick mode); the final hands are still to be entered."""
    token = start(client, "12days", variant="standard")
    tap(client, token, "taken", day="0", player="Ben")
    for day in range(1, twelve_days.STANDARD.days):
        tap(client, token, "taken", day=str(day), player="")
    return token


STATES: dict[str, Callable[[FlaskClient], str]] = {
    "auruxxx-fresh": auruxxx_fresh,
    "auruxxx-finisher-known": auruxxx_finisher_known,
    "auruxxx-round-finished": auruxxx_round_finished,
    "auruxxx-over": auruxxx_over,
    "12days-fresh": twelve_days_fresh,
    "12days-card-revealed": twelve_days_card_revealed,
    "12days-gift-due": twelve_days_gift_due,
    "12days-day-finished": twelve_days_day_finished,
    "12days-days-over": twelve_days_days_over,
}
"""Every state, by name: a function that builds a game in it and returns its edit token."""


@dataclass(frozen=True)
class Tokens:
    """The addresses of one game."""

    id: int
    edit: str
    read: str


def tokens(app: Flask, edit_token: str) -> Tokens:
    """Return the id and both tokens of the game an edit token opens."""
    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.token == edit_token))
        assert game is not None and game.read_token is not None
        return Tokens(game.id, game.token, game.read_token)


def clone(app: Flask, game_id: int) -> Tokens:
    """Copy a game with its players and history under new tokens, at a table of its own; return the copy's addresses."""
    with app.app_context():
        original = db.session.get(Game, game_id)
        assert original is not None
        copy = Game(
            kind=original.kind,
            variant=original.variant,
            house_rules=dict(original.house_rules),
            first_dealer=original.first_dealer,
            card_table=CardTable(),
        )
        copy.players = [Player(seat=player.seat, name=player.name) for player in original.players]
        db.session.add(copy)
        db.session.flush()
        for event in original.events:
            db.session.add(
                Event(
                    game_id=copy.id,
                    seq=event.seq,
                    kind=event.kind,
                    payload=dict(event.payload),
                    idempotency_key=event.idempotency_key,
                )
            )
        db.session.commit()
        assert copy.read_token is not None
        return Tokens(copy.id, copy.token, copy.read_token)


@dataclass(frozen=True)
class Counts:
    """How many rows each table holds, and the addresses of one game: what a refused request must leave alone."""

    games: int
    players: int
    events: int
    seat_claims: int
    addresses: tuple[str | None, str | None]


def counts(app: Flask, game_id: int) -> Counts:
    """Count the stored rows and read one game's tokens."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        return Counts(
            games=db.session.scalar(select(func.count()).select_from(Game)) or 0,
            players=db.session.scalar(select(func.count()).select_from(Player)) or 0,
            events=db.session.scalar(select(func.count()).select_from(Event)) or 0,
            seat_claims=db.session.scalar(select(func.count()).select_from(SeatClaim)) or 0,
            addresses=(game.token, game.read_token),
        )
