"""What tests of every layer share: the one way to build a test app, a phone's client, the table's players, request headers.

A test builds its app with ``make_app`` (or asks for a fixture built with it), posts a game's
forms through a ``PhoneClient`` (the ``phone`` fixture of ``tests/web/conftest.py``, or
``phone_of(app)`` for an app of its own), and reads what the app answered with the small
readers below instead of writing its own.
"""

from __future__ import annotations

import html
import re
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import flask_migrate
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, or_, select
from werkzeug.test import TestResponse

from app import create_app
from infra.config import TestConfig
from models import Event, Game, db, folded

PLAYERS = ["Anna", "Ben", "Cleo"]
"""The table most tests play at."""
EN = {"Accept-Language": "en"}
"""A phone whose browser prefers English: the app's words are asserted in English unless a test is about German."""
DE = {"Accept-Language": "de"}
"""A phone whose browser prefers German."""
HTMX = {"HX-Request": "true"}
"""A request htmx sends: the answer is the changed fragment, not the page."""
HTMX_EN = {**EN, **HTMX}
"""An htmx request from an English phone."""


def make_app(database: Path | str, *, csrf: bool = True, migrate: bool = True, **settings: Any) -> Flask:
    """Return an app for a test on ``database`` (a SQLite file, or a database URL), with ``settings`` on top of ``TestConfig``.

    ``csrf=False`` lets forms through without their token (the view tests post as a phone minus
    the token); ``migrate`` builds the schema from the migrations, as a host's ``flask db upgrade``
    does. Every test app is built here, so that one change of the test configuration reaches all.
    """
    url = database if isinstance(database, str) else f"sqlite:///{database}"
    config = type("ForTest", (TestConfig,), {"SQLALCHEMY_DATABASE_URI": url, "WTF_CSRF_ENABLED": csrf, **settings})
    app = create_app(config)
    if migrate:
        with app.app_context():
            flask_migrate.upgrade()
    return app


def as_a_phone_sends(app: Flask, token: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """Return a form's fields as a phone's sheet sends them: a fresh key, and ``seen``, the game's newest change, unless given.

    Every tap form carries both; a test sends one empty by giving it so, and none at all by giving it None.
    """
    sent = {"key": uuid.uuid4().hex, **data}
    if "seen" not in sent:
        with app.app_context():
            game = db.session.scalar(select(Game).where(or_(Game.token == token, Game.read_token == token)))
            sent["seen"] = str(folded(game).version if game is not None else 0)
    return {name: value for name, value in sent.items() if value is not None}


class PhoneClient(FlaskClient):
    """A test client that posts a game's forms as a phone's sheet does (``as_a_phone_sends``): the client that taps."""

    def post(self, *args: Any, **kwargs: Any) -> TestResponse:
        """Post a form; one to a game's address gets its key and ``seen`` unless the test gave them."""
        url, data = (args[0] if args else kwargs.get("path", "")), kwargs.get("data")
        if isinstance(url, str) and url.startswith("/g/") and "json" not in kwargs and (data is None or isinstance(data, dict)):
            kwargs["data"] = as_a_phone_sends(self.application, url.split("/")[2].split("?")[0], data or {})
        return super().post(*args, **kwargs)


def phone_of(app: Flask, *, cookies: bool = True) -> PhoneClient:
    """Return a new phone (no cookies yet) talking to ``app``; one with ``cookies=False`` never keeps any."""
    return PhoneClient(app, app.response_class, use_cookies=cookies)


def start(client: FlaskClient, kind: str, names: list[str] = PLAYERS, **fields: str) -> str:
    """Start a game through the new-game form and return its edit token."""
    response = client.post(f"/new/{kind}", data={"player": names, "action": "start", **fields})
    assert response.status_code == 303, response.get_data(as_text=True)
    return str(response.headers["Location"]).removeprefix("/g/")


def tap(client: FlaskClient, token: str, route: str, **data: Any) -> None:
    """Post a tap that must count (through a ``PhoneClient``, which adds the key and ``seen``)."""
    response = client.post(f"/g/{token}/{route}", data=data)
    assert response.status_code == 303, (route, data, response.status_code, response.get_data(as_text=True)[-2000:])


def game_count(app: Flask) -> int:
    """Return how many games the database holds."""
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Game)) or 0


def event_count(app: Flask) -> int:
    """Return how many events the database holds, over all games."""
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Event)) or 0


def read_token(app: Flask, token: str) -> str:
    """Return the read-only token of the game an edit token opens."""
    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.token == token))
        assert game is not None and game.read_token
        return str(game.read_token)


def problems(response: TestResponse) -> list[str]:
    """Return the refusal messages a page or fragment shows in its problems box."""
    box = re.search(r'<div class="problems" role="alert">(.*?)</div>', response.get_data(as_text=True), re.S)
    if box is None:
        return []
    return [html.unescape(text) for text in re.findall(r"<p>(.*?)</p>", box.group(1), re.S)]


def csrf_token(response: TestResponse) -> str:
    """Return the CSRF token a page's form carries."""
    found = re.search(r'name="csrf_token" value="([^"]+)"', response.get_data(as_text=True))
    assert found is not None, "the page has no CSRF token"
    return found.group(1)
