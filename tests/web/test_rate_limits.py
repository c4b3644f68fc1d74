"""Rate limits: starting, importing and joining games are limited per address; taps and pages are not.

Limits are off in ``TestConfig``; this module's app switches them on. The limiter's counts
are cleared before every test.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session
from werkzeug.test import TestResponse

from infra.config import Config, TestConfig
from infra.extensions import init_limiter, limiter
from models import Game, db
from tests.helpers import EN, PLAYERS, PhoneClient, make_app, phone_of, start
from tests.web.states import counts, tokens
from views.pages import limits

START = {"player": PLAYERS, "action": "start"}
RECORD = {"game": "auruxxx", "players": ["Anna", "Ben"], "house_rules": {}, "rounds": []}


@pytest.fixture(scope="module")
def limited_app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    """Return an app with rate limits on (and CSRF off, so that only the limits refuse)."""

    return make_app(tmp_path_factory.mktemp("limited") / "tischblock.db", csrf=False, RATELIMIT_ENABLED=True)


@pytest.fixture
def client(limited_app: Flask) -> Iterator[FlaskClient]:
    """Return a client of the limited app, with every count at zero."""
    init_limiter(limited_app)  # another module's app may have been built since: count in this app's storage again
    limiter.reset()
    yield phone_of(limited_app)
    limiter.reset()


def assert_limited(response: TestResponse) -> None:
    """Check a refusal for too many requests: 429, a reason in words, when to try again."""
    assert response.status_code == 429, response.status_code
    assert int(response.headers["Retry-After"]) >= 1
    if response.mimetype == "application/json":
        assert response.get_json()["error"]
    else:
        assert 'role="alert"' in response.get_data(as_text=True)


def test_the_limits_fit_a_family_table() -> None:
    """Thirty new games a minute and three hundred an hour, twenty imports, sixty joins: far beyond one table's needs."""
    assert limits.CREATE == "30/minute;300/hour"
    assert limits.IMPORT.startswith("20/minute")
    assert limits.JOIN == "60/minute"
    assert Config.RATELIMIT_STORAGE_URI == "memory://" or Config.RATELIMIT_STORAGE_URI.startswith("redis")
    assert TestConfig.RATELIMIT_ENABLED is False


def test_starting_games_is_limited(limited_app: Flask, client: FlaskClient) -> None:
    """The 31st game within a minute is refused with 429 in the reader's language; nothing is created."""
    for _ in range(30):
        assert client.post("/new/auruxxx", data=START, headers=EN).status_code == 303
    game = tokens(limited_app, _any_token(limited_app))
    before = counts(limited_app, game.id)
    refused = client.post("/new/auruxxx", data=START, headers=EN)
    assert_limited(refused)
    assert "Too many requests from this device" in refused.get_data(as_text=True)
    german = client.post("/new/12days", data=START, headers={"Accept-Language": "de"})
    assert_limited(german)
    assert "Zu viele Anfragen" in german.get_data(as_text=True)
    assert_limited(client.post("/new/auruxxx", data=START, headers={"Accept": "application/json"}))
    htmx = client.post("/new/auruxxx", data=START, headers={**EN, "HX-Request": "true"})
    assert_limited(htmx)
    assert "<html" not in htmx.get_data(as_text=True)
    assert_limited(client.post(f"/g/{game.edit}/rematch"))
    assert counts(limited_app, game.id) == before


def _any_token(app: Flask) -> str:
    """Return the edit token of the app's newest game."""
    with app.app_context():
        token = db.session.scalar(select(Game.token).order_by(Game.id.desc()).limit(1))
    assert token is not None
    return token


def test_only_starting_counts_not_showing_or_rearranging_the_form(limited_app: Flask, client: FlaskClient) -> None:
    """Showing the form, moving players, adding names and refused starts (422) use up nothing; a limited start still can rearrange."""
    for _ in range(40):
        assert client.get("/new/auruxxx").status_code == 200
        assert client.post("/new/auruxxx", data={"player": PLAYERS, "action": "down:0"}).status_code == 200
        assert client.post("/new/auruxxx", data={"player": ["Anna"], "action": "start"}).status_code == 422
    for _ in range(30):
        assert client.post("/new/auruxxx", data=START, headers={"HX-Request": "true"}).status_code == 204
    assert_limited(client.post("/new/auruxxx", data=START))
    assert client.post("/new/auruxxx", data={"player": PLAYERS, "action": "up:1"}).status_code == 200
    assert client.get("/new/12days").status_code == 200


def test_rematches_share_the_budget_of_new_games(limited_app: Flask, client: FlaskClient) -> None:
    """A rematch creates a game too, so it counts against the same limit."""
    token = start(client, "auruxxx")
    for _ in range(29):
        assert client.post(f"/g/{token}/rematch").status_code == 303
    assert_limited(client.post(f"/g/{token}/rematch"))
    assert_limited(client.post("/new/auruxxx", data=START))


def test_importing_is_limited(limited_app: Flask, client: FlaskClient) -> None:
    """Twenty imports a minute, valid or not; the next gets JSON 429 and creates nothing."""
    for number in range(20):
        body = RECORD if number % 2 else {"game": "chess"}
        assert client.post("/import", json=body).status_code in (201, 422)
    game = tokens(limited_app, _any_token(limited_app))
    before = counts(limited_app, game.id)
    refused = client.post("/import", json=RECORD)
    assert_limited(refused)
    assert refused.mimetype == "application/json"
    assert_limited(client.post("/import", data={}, headers=EN))
    assert counts(limited_app, game.id) == before
    assert client.get("/import").status_code == 200, "the upload page itself is not limited"


def test_joining_is_limited(limited_app: Flask, client: FlaskClient) -> None:
    """Sixty join pages a minute (new addresses included); taps and the sheet go on regardless."""
    token = start(client, "auruxxx")
    for _ in range(58):
        assert client.get(f"/g/{token}/join").status_code == 200
    renewed = client.post(f"/g/{token}/new-address")
    assert renewed.status_code == 303
    token = str(renewed.headers["Location"]).removeprefix("/g/").removesuffix("/join")
    assert client.get(f"/g/{token}/join").status_code == 200
    assert_limited(client.get(f"/g/{token}/join", headers=EN))
    game = tokens(limited_app, token)
    before = counts(limited_app, game.id)
    assert_limited(client.post(f"/g/{token}/new-address"))
    assert counts(limited_app, game.id) == before
    assert client.get(f"/g/{token}").status_code == 200
    assert client.post(f"/g/{token}/pass", data={"player": "Anna", "round": "0"}).status_code == 303


def test_taps_and_pages_are_not_limited(limited_app: Flask, client: FlaskClient) -> None:
    """Hundreds of taps, refusals and page views from one phone: none is ever refused for being too many."""
    token = start(client, "auruxxx")
    for tap in range(35):
        assert client.post(f"/g/{token}/pass", data={"player": "Anna", "round": "0"}).status_code == 303
        assert client.post(f"/g/{token}/undo", data={"event": str(2 * tap + 1)}).status_code == 303
    for _ in range(70):
        assert client.post(f"/g/{token}/pass", data={"player": "Nobody", "round": "0"}).status_code == 400
        assert client.post(f"/g/{token}/finish", data={"player": "Anna", "round": "0", "golden12": "9"}).status_code == 422
    for path in ("", "/history", "/record.json", "/finish"):
        for _ in range(65):
            assert client.get(f"/g/{token}{path}").status_code in (200, 303)
    for _ in range(65):
        assert client.get("/").status_code == 200
        assert client.get("/faq/auruxxx").status_code == 200


def test_limits_are_per_address(limited_app: Flask, client: FlaskClient) -> None:
    """Another phone at another address can still start a game when one has used up its budget."""
    for _ in range(30):
        client.post("/new/auruxxx", data=START)
    assert_limited(client.post("/new/auruxxx", data=START))
    other = phone_of(limited_app)
    response = other.post("/new/auruxxx", data=START, environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert response.status_code == 303


def test_limits_are_off_in_the_test_config(phone: PhoneClient) -> None:
    """The other tests start as many games as they like: ``TestConfig`` switches the limits off."""
    for _ in range(35):
        assert phone.post("/new/auruxxx", data=START).status_code == 303


def test_a_dead_limit_store_does_not_break_starting_a_game(limited_app: Flask, tmp_path_factory: pytest.TempPathFactory) -> None:
    """With a Redis address where no Redis listens, games still start: counting falls back to memory, never a 500."""
    try:
        app = make_app(
            tmp_path_factory.mktemp("dead") / "tischblock.db",
            csrf=False,
            RATELIMIT_ENABLED=True,
            RATELIMIT_STORAGE_URI="redis://127.0.0.1:9/0",
        )
        client = phone_of(app)
        for _ in range(3):
            assert client.post("/new/auruxxx", data=START).status_code == 303
    finally:
        init_limiter(limited_app)


def _database_down(*args: Any, **kwargs: Any) -> Any:
    """Stand in for a statement to a database that cannot be reached."""
    raise OperationalError("SELECT 1", {}, ConnectionRefusedError("the database is down"))


def test_retry_after_is_said_on_refusals_only_and_a_database_outage_keeps_the_apps_own(
    limited_app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 36, R3: an answer of a limited route that lets the request through (a start's 303, an import's 201, a
    rearranged form's 200, a join page) says nothing about trying again; a 429 says when; a 503 while the database
    is away says the app's own 5 s, whatever the limit's window holds."""
    token = start(client, "auruxxx")
    passed = {
        "start": client.post("/new/auruxxx", data=START),
        "rearranged form": client.post("/new/auruxxx", data={"player": PLAYERS, "action": "down:0"}),
        "import": client.post("/import", json=RECORD),
        "join page": client.get(f"/g/{token}/join"),
    }
    assert {name: (answer.status_code, answer.headers.get("Retry-After")) for name, answer in passed.items()} == {
        "start": (303, None),
        "rearranged form": (200, None),
        "import": (201, None),
        "join page": (200, None),
    }
    for _ in range(28):
        client.post("/new/auruxxx", data=START)
    assert_limited(client.post("/new/auruxxx", data=START))

    monkeypatch.setattr(Session, "execute", _database_down)
    monkeypatch.setattr(Session, "commit", _database_down)
    elsewhere = {"REMOTE_ADDR": "192.0.2.8"}
    outage = {
        "start": client.post("/new/auruxxx", data=START, headers=EN, environ_base=elsewhere),
        "import": client.post("/import", json=RECORD, headers=EN, environ_base=elsewhere),
        "join page": client.get(f"/g/{token}/join", headers=EN, environ_base=elsewhere),
    }
    assert {name: (answer.status_code, answer.headers.get("Retry-After")) for name, answer in outage.items()} == {
        "start": (503, "5"),
        "import": (503, "5"),
        "join page": (503, "5"),
    }
