"""A tap does each thing once: the game is looked up once, what was stored answers the tap, and nothing is read back.

The answer to a tap and the push to the other phones are rendered from the game the request
looked up and from what ``record_tap`` stored (its version and folded table), so a tap costs
the same few statements however the sheet is drawn. A push needs no request at all.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask, has_request_context
from flask.testing import FlaskClient
from sqlalchemy import event, select

from models import Game, db, folded
from tests.web.driver import start
from views.pages.viewers import shared_viewer
from views.table import stream as live

HTMX = {"HX-Request": "true", "Accept-Language": "en"}


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """Collect every SQL statement the app's database runs meanwhile."""
    ran: list[str] = []

    def note(conn: object, cursor: object, statement: str, *args: object) -> None:
        ran.append(" ".join(statement.split()))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        yield ran
    finally:
        event.remove(engine, "before_cursor_execute", note)


def game_lookups(ran: list[str]) -> list[str]:
    """Return the statements that read a game's row by its address."""
    return [statement for statement in ran if statement.startswith("SELECT games.id, games.token")]


def test_an_htmx_pass_cross_runs_four_statements_and_looks_its_game_up_once(plain_app: Flask, plain_client: FlaskClient) -> None:
    """Look up the game (players and rematch along), read new events and the key's earlier change in one, insert,
    and store the pushed sheet beside it for the other processes (on PostgreSQL the game's row is locked first and the
    notification carries the sheet): before, it took 15, and 5 while SQLite ran the lock that it has not."""
    token = start(plain_client, "auruxxx")
    plain_client.get(f"/g/{token}")
    with statements(plain_app) as ran:
        answer = plain_client.post(f"/g/{token}/pass", data={"round": "0", "player": "Anna", "key": "k1", "seen": "1"}, headers=HTMX)
    assert answer.status_code == 200 and "box crossed" in answer.get_data(as_text=True)
    assert len(game_lookups(ran)) == 1, ran
    assert len(ran) == 4, ran
    assert sum(statement.startswith("INSERT INTO events") for statement in ran) == 1, ran
    assert sum("INTO shipped_sheets" in statement for statement in ran) == 1, ran
    assert not any("max(events.seq)" in statement for statement in ran), "no version is asked for after a tap"


def test_a_sheet_get_runs_three_statements_and_a_read_only_one_two(plain_app: Flask, plain_client: FlaskClient) -> None:
    """The game with its players and rematch in one statement, its newest events in another, and on a phone's own
    page who holds which phone at the table in a third (the table's row is not read): before, it took four."""
    token = start(plain_client, "12days", variant="standard")
    plain_client.get(f"/g/{token}")
    with plain_app.app_context():
        read_token = db.session.scalars(select(Game.read_token).where(Game.token == token)).one()
    for address, seat_claims in ((token, 1), (read_token, 0)):
        for headers in ({"Accept-Language": "en"}, HTMX):
            with statements(plain_app) as ran:
                assert plain_client.get(f"/g/{address}", headers=headers).status_code == 200
            assert len(game_lookups(ran)) == 1, ran
            assert sum("FROM seat_claims" in statement for statement in ran) == seat_claims, ran
            assert len(ran) == 2 + seat_claims, ran


def test_the_live_sheet_renders_in_an_app_context_without_a_request(plain_app: Flask, plain_client: FlaskClient) -> None:
    """A stream pushes from a value of who is looking: no request is built, and none is read."""
    token = start(plain_client, "auruxxx")
    plain_client.post(f"/g/{token}/pass", data={"round": "0", "player": "Ben"})
    with plain_app.app_context():
        game = db.session.scalars(select(Game).where(Game.token == token)).one()
        assert not has_request_context()
        version, sheet, data = live.live_sheet(game, shared_viewer(token, editable=True, language="en"), folded(game))
        assert not has_request_context()
    assert version == 1 and "box crossed" in sheet and sheet in data
    assert 'name="key" value=""' in sheet and 'name="csrf_token" value=""' in sheet
    assert f'hx-post="/g/{token}/pass"' in sheet, "addresses stay within the site, as on a page"
    assert "History" in sheet
