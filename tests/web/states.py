"""Games in the states the hostile-input and security tests send requests to, and ways to count what is stored.

Each game's tests register their states (``tests/web/<game>_states.py``, imported once by
``tests/web/conftest.py``), and the fields its forms send with values a phone would send. Each
state is built once per test module through the test client, the way phones build it; ``clone``
then copies a built game (players and history) under new tokens, which is far cheaper than
replaying its taps for every generated example.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import strategies as st
from sqlalchemy import func, select

from models import CardTable, Event, Game, Player, SeatClaim, db, stored_events

State = Callable[[FlaskClient], str]
"""Builds a game in one state through a test client and returns its edit token."""

STATES: dict[str, State] = {}
"""Every registered state, by name."""
FORMS: dict[str, tuple[str, ...]] = {}
"""The fields each POST route of a game sends, by endpoint."""
VALUES: dict[str, st.SearchStrategy[str]] = {}
"""Values a phone would send for a game's own fields, by field name."""


def state(name: str) -> Callable[[State], State]:
    """Register a function that builds a game in the state ``name``."""

    def registered(build: State) -> State:
        STATES[name] = build
        return build

    return registered


def register_forms(forms: dict[str, tuple[str, ...]], values: dict[str, st.SearchStrategy[str]]) -> None:
    """Register a game's forms: the fields each of its POST routes sends, and plausible values for its own fields."""
    FORMS.update(forms)
    VALUES.update(values)


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
            options=dict(original.options),
            card_table=CardTable(),
        )
        copy.players = [Player(seat=player.seat, name=player.name) for player in original.players]
        db.session.add(copy)
        db.session.flush()
        for event in stored_events(original):
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
