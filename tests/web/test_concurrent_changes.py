"""Phones changing one game at once: corrections know what they were based on, keys name one change.

Issue 12, items 9, 10 and 12 (items 11 and 13 are proved next to the sheets' own tests, and
six undos at once in tests/system).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from models import Event, Game, db
from tests.helpers import EN, PhoneClient, start, tap
from tests.web.auruxxx_states import auruxxx_round_finished
from tests.web.twelve_days_states import twelve_days_day_finished

AURUXXX_CORRECTION = {
    "finisher": "Ben",
    "golden12": "1",
    "happy_man": "",
    "passes-0": "1",
    "passes-1": "0",
    "passes-2": "0",
    "hand-0": "12",
    "hand-2": "5",
}
"""Round 1 of ``auruxxx_round_finished`` with Anna's hand changed from 10 to 12."""
TWELVE_DAYS_CORRECTION = {"mode": "taken", "taken_by": "Anna"}
"""Day 1 of ``twelve_days_day_finished``, now only saying that Anna took it."""


def stored(app: Flask, token: str) -> list[tuple[int, str, dict[str, Any]]]:
    """Return a game's events: number, kind and payload."""
    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.token == token))
        assert game is not None
        return [
            (event.seq, event.kind, dict(event.payload))
            for event in db.session.scalars(select(Event).where(Event.game_id == game.id).order_by(Event.seq))
        ]


def seen_of(client: FlaskClient, path: str) -> str:
    """Open a correction form and return the version it was filled in at."""
    found = re.search(r'name="seen" value="(\d+)"', client.get(path).get_data(as_text=True))
    assert found is not None
    return found.group(1)


def message(response: Any) -> str:
    """Return the text of an error page's message."""
    page = html.unescape(response.get_data(as_text=True))
    return " ".join(page.split())


GAMES: dict[str, tuple[Callable[[FlaskClient], str], str, dict[str, str]]] = {
    "auruxxx": (auruxxx_round_finished, "rounds/1/correct", AURUXXX_CORRECTION),
    "12days": (twelve_days_day_finished, "days/1/correct", TWELVE_DAYS_CORRECTION),
}


@pytest.mark.parametrize("kind", GAMES)
def test_a_correction_without_the_version_it_was_based_on_is_refused(plain_app: Flask, phone: PhoneClient, kind: str) -> None:
    """Item 9: a correction without ``seen`` (or with a ``seen`` that is no number) answers 400 and stores nothing."""
    build, route, form = GAMES[kind]
    token = build(phone)
    before = stored(plain_app, token)
    for seen in ({"seen": None}, {"seen": ""}, {"seen": "latest"}):
        response = phone.post(f"/g/{token}/{route}", data={**form, **seen}, headers=EN)
        assert response.status_code == 400
        assert "This form does not say which state of the game it was made on." in message(response)
        assert stored(plain_app, token) == before


@pytest.mark.parametrize("kind", GAMES)
def test_only_changes_to_that_round_or_day_make_a_correction_stale(plain_app: Flask, phone: PhoneClient, kind: str) -> None:
    """Item 10: a tap in the next round or day and its undo leave the form valid; a correction of the same one does not."""
    build, route, form = GAMES[kind]
    token = build(phone)
    seen = seen_of(phone, f"/g/{token}/{route}")
    if kind == "auruxxx":
        tap(phone, token, "pass", round="1", player="Cleo")
    else:
        tap(phone, token, "card", day="1", player="Cleo", card="4")
    tap(phone, token, "undo", event=str(stored(plain_app, token)[-1][0]))
    assert phone.post(f"/g/{token}/{route}", data={**form, "seen": seen}).status_code == 303

    other = {**form, "hand-0": "14"} if kind == "auruxxx" else {**form, "taken_by": "Ben"}
    before = stored(plain_app, token)
    assert phone.post(f"/g/{token}/{route}", data={**other, "seen": seen}).status_code == 409
    assert stored(plain_app, token) == before


def test_reusing_an_idempotency_key_with_different_content_is_refused(plain_app: Flask, phone: PhoneClient) -> None:
    """Item 12: a key that recorded a cross for Anna refuses a cross for Ben (422), but the same cross again counts once."""
    token = start(phone, "auruxxx")
    tap(phone, token, "pass", round="0", player="Anna", key="tap-1")
    reused = phone.post(f"/g/{token}/pass", data={"round": "0", "player": "Ben", "key": "tap-1"}, headers=EN)
    assert reused.status_code == 422
    assert "This form was already sent once with other entries. Reload the page and enter it again." in message(reused)
    other_kind = phone.post(f"/g/{token}/happy-man", data={"round": "0", "player": "Anna", "key": "tap-1"})
    assert other_kind.status_code == 422
    tap(phone, token, "pass", round="0", player="Anna", key="tap-1")
    assert stored(plain_app, token) == [(1, "pass", {"round": 0, "player": "Anna"})]
