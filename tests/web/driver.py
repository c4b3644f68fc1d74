"""A card table as the view tests play it (flaskr's ``AuthActions``): start a game, tap, enter a hand, read what came of it.

The driver posts the forms a phone posts, through one phone's client (``tests.helpers.PhoneClient``), and notes what every page
and fragment was rendered from, so a test can check the rendered template's context where the
markup is not the contract (canaille's way) and read the database where the stored history is.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, template_rendered
from jinja2 import Template
from jinja2_fragments.flask import template_block_rendered
from sqlalchemy import select
from werkzeug.test import TestResponse

from models import Game, db, folded, stored_events
from tests.helpers import EN, PLAYERS, PhoneClient, start


@dataclass(frozen=True)
class Rendered:
    """One page or fragment as the app rendered it: its template and everything it was given."""

    template: str
    context: Mapping[str, Any]


@dataclass
class TableDriver:
    """The phones at one table: one test client posting the app's forms, and the pages it was answered with."""

    app: Flask
    client: PhoneClient
    headers: Mapping[str, str] = field(default_factory=lambda: dict(EN))
    rendered: list[Rendered] = field(default_factory=list)

    def start(self, kind: str, names: list[str] = PLAYERS, **fields: str) -> str:
        """Start a game through the new-game form and return its edit token."""
        return start(self.client, kind, names, **fields)

    def post(self, token: str, route: str, headers: Mapping[str, str] | None = None, **data: Any) -> TestResponse:
        """Post a form of the game's pages (in English unless told otherwise), whatever the answer."""
        with self.rendering():
            return self.client.post(f"/g/{token}/{route}", data=data, headers=dict(self.headers if headers is None else headers))

    def tap(self, token: str, route: str, **data: Any) -> None:
        """Post a tap that must count."""
        response = self.post(token, route, **data)
        assert response.status_code == 303, (route, data, response.status_code, self.problems())

    def hand(self, token: str, route: str, **form: Any) -> None:
        """Save a hand on a keypad (its form's fields, ``action`` "save" unless told otherwise); it must count."""
        self.tap(token, route, **{"action": "save", **form})

    def get(self, token: str, route: str = "", headers: Mapping[str, str] | None = None) -> TestResponse:
        """Open one of the game's pages (the sheet without ``route``)."""
        with self.rendering():
            return self.client.get(f"/g/{token}/{route}".rstrip("/"), headers=dict(self.headers if headers is None else headers))

    def problems(self) -> list[str]:
        """Return the refusals the last page or fragment was rendered with."""
        shown = [page.context["problems"] for page in self.rendered if "problems" in page.context]
        return list(shown[-1]) if shown else []

    def context(self, template: str) -> Mapping[str, Any]:
        """Return what the last rendering of ``template`` was given."""
        return next(page.context for page in reversed(self.rendered) if page.template == template)

    def events(self, token: str) -> list[tuple[str, dict[str, Any]]]:
        """Return the kind and payload of every stored event of a game, in order."""
        with self.app.app_context():
            return [(event.kind, dict(event.payload)) for event in stored_events(self.game(token))]

    def table(self, token: str) -> Any:
        """Return what the game's history adds up to (the game's own table)."""
        with self.app.app_context():
            return folded(self.game(token)).table

    def game(self, token: str) -> Game:
        """Return the stored game an edit token opens (inside an app context)."""
        game = db.session.scalar(select(Game).where(Game.token == token))
        assert game is not None, token
        return game

    @contextmanager
    def rendering(self) -> Iterator[None]:
        """Note every page and fragment the app renders meanwhile, afresh for this request."""
        self.rendered.clear()

        def page(sender: Flask, template: Template, context: dict[str, Any], **extra: Any) -> None:
            self.rendered.append(Rendered(str(template.name), dict(context)))

        def block(sender: Flask, template_name: str, block_name: str, context: dict[str, Any], **extra: Any) -> None:
            self.rendered.append(Rendered(template_name, dict(context)))

        template_rendered.connect(page, self.app)
        template_block_rendered.connect(block, self.app)
        try:
            yield
        finally:
            template_rendered.disconnect(page, self.app)
            template_block_rendered.disconnect(block, self.app)
