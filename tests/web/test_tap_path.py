"""A tap does each thing once: the game is looked up once, what was stored answers the tap, and nothing is read back.

The answer to a tap and the push to the other phones are rendered from the game the request
looked up and from what ``record_tap`` stored (its version and folded table), so a tap costs
the same few statements however the sheet is drawn. A push needs no request at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask, has_request_context
from flask.testing import FlaskClient
from sqlalchemy import event, select

import rules.history
from models import Game, db, folded
from tests.helpers import HTMX_EN, PLAYERS, PhoneClient, start
from tests.web.evenings import play_auruxxx
from views.pages.viewers import shared_viewer
from views.table import stream as live


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


def test_an_htmx_pass_cross_looks_its_game_up_once_reads_its_history_once_and_inserts_once(plain_app: Flask, phone: PhoneClient) -> None:
    """Look up the game (players and rematch along), read new events and the key's earlier change in one, insert
    and commit; then, rendered after the commit, store the pushed sheet for the other processes in a transaction of its
    own that does not wait for the disk (a pragma on either side of it; on PostgreSQL a notification carries the sheet).
    Before, it took 15."""
    token = start(phone, "auruxxx")
    phone.get(f"/g/{token}")
    with statements(plain_app) as ran:
        answer = phone.post(f"/g/{token}/pass", data={"round": "0", "player": "Anna", "key": "k1", "seen": "1"}, headers=HTMX_EN)
    assert answer.status_code == 200 and "box crossed" in answer.get_data(as_text=True)
    assert len(game_lookups(ran)) == 1, ran
    assert sum(statement.startswith("SELECT events.seq") for statement in ran) == 1, ran
    assert len(ran) == 6 and ran[-1] == "PRAGMA synchronous=FULL", ran
    assert sum(statement.startswith("INSERT INTO events") for statement in ran) == 1, ran
    assert sum("INTO shipped_sheets" in statement for statement in ran) == 1, ran
    assert not any("max(events.seq)" in statement for statement in ran), "no version is asked for after a tap"


def test_a_sheet_get_runs_three_statements_and_a_read_only_one_two(plain_app: Flask, phone: PhoneClient) -> None:
    """The game with its players and rematch in one statement, its newest events in another, and on a phone's own
    page who holds which phone at the table in a third (the table's row is not read): before, it took four."""
    token = start(phone, "12days", variant="standard")
    phone.get(f"/g/{token}")
    with plain_app.app_context():
        read_token = db.session.scalars(select(Game.read_token).where(Game.token == token)).one()
    for address, seat_claims in ((token, 1), (read_token, 0)):
        for headers in ({"Accept-Language": "en"}, HTMX_EN):
            with statements(plain_app) as ran:
                assert phone.get(f"/g/{address}", headers=headers).status_code == 200
            assert len(game_lookups(ran)) == 1, ran
            assert sum("FROM seat_claims" in statement for statement in ran) == seat_claims, ran
            assert len(ran) == 2 + seat_claims, ran


def test_the_live_sheet_renders_in_an_app_context_without_a_request(plain_app: Flask, phone: PhoneClient) -> None:
    """A stream pushes from a value of who is looking: no request is built, and none is read."""
    token = start(phone, "auruxxx")
    phone.post(f"/g/{token}/pass", data={"round": "0", "player": "Ben"})
    with plain_app.app_context():
        game = db.session.scalars(select(Game).where(Game.token == token)).one()
        assert not has_request_context()
        version, sheet, data = live.live_sheet(game, shared_viewer(token, editable=True, language="en"), folded(game))
        assert not has_request_context()
    assert version == 1 and "box crossed" in sheet and sheet in data
    assert 'name="key" value=""' in sheet and 'name="csrf_token" value=""' in sheet
    assert f'hx-post="/g/{token}/pass"' in sheet, "addresses stay within the site, as on a page"
    assert "History" in sheet


# --- A tap costs what it changes, however long the evening -----------------------------------------


def seen_on(sheet: str) -> str:
    """Return the change a sheet was drawn at: what its tap forms say they saw (``seen``)."""
    found = re.search(r'name="seen" value="(\d+)"', sheet)
    assert found is not None
    return found.group(1)


def finished_auruxxx_record(client: FlaskClient) -> dict[str, Any]:
    """Play a whole AURUXXX game at a table of its own and return its record, as an evening record lists it."""
    token = start(client, "auruxxx")
    play_auruxxx(client, token, finisher="Ben", hands={0: 10, 2: 5})
    record = client.get(f"/g/{token}/record.json").get_json()
    assert record["result"]["complete"]
    return dict(record)


def evening_of(client: FlaskClient, earlier: int) -> str:
    """Import an evening of ``earlier`` finished AURUXXX games and a new one; return the new game's edit token."""
    finished = finished_auruxxx_record(client)
    games = [finished] * earlier + [{"game": "auruxxx", "players": PLAYERS, "rounds": []}]
    answer = client.post("/import", json={"evening": {"table": "Küchentisch"}, "games": games})
    assert answer.status_code == 201, answer.get_data(as_text=True)
    return str(answer.headers["Location"]).rsplit("/g/", 1)[1]


def statements_of_a_pass_cross(app: Flask, client: FlaskClient, token: str, key: str) -> list[str]:
    """Open the sheet as a phone does, then tap a pass cross; return the statements the tap ran."""
    sheet = client.get(f"/g/{token}", headers=HTMX_EN)
    assert sheet.status_code == 200
    seen = seen_on(sheet.get_data(as_text=True))
    with statements(app) as ran:
        answer = client.post(f"/g/{token}/pass", data={"round": "0", "player": "Anna", "key": key, "seen": seen}, headers=HTMX_EN)
    assert answer.status_code == 200 and "box crossed" in answer.get_data(as_text=True), answer.get_data(as_text=True)[-500:]
    return ran


def test_a_tap_in_the_twentieth_game_of_an_evening_runs_as_many_statements_as_in_the_first(plain_app: Flask, phone: PhoneClient) -> None:
    """The evening's earlier games are read once, when the sheet first shows them, and kept: a tap reads none of them again."""
    first = statements_of_a_pass_cross(plain_app, phone, evening_of(phone, 0), "first")
    twentieth_token = evening_of(phone, 19)
    assert phone.get(f"/g/{twentieth_token}", headers=HTMX_EN).get_data(as_text=True).count('class="earlier-winner"') == 19
    twentieth = statements_of_a_pass_cross(plain_app, phone, twentieth_token, "twentieth")
    assert len(twentieth) == len(first) <= 8, (first, twentieth)
    assert len(game_lookups(twentieth)) == 1, twentieth


def test_a_reveal_contested_by_another_phone_costs_what_an_uncontested_one_does(
    plain_app: Flask, phone: PhoneClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whether another phone revealed a card since this phone's sheet was drawn is told from the events since, never by
    folding the whole history again, and with one read of it."""
    token = start(phone, "12days", variant="standard")
    drawn_at = seen_on(phone.get(f"/g/{token}", headers=HTMX_EN).get_data(as_text=True))
    with statements(plain_app) as quiet:
        answer = phone.post(f"/g/{token}/card", data={"day": "0", "player": "Anna", "card": "3", "seen": drawn_at}, headers=HTMX_EN)
    assert answer.status_code == 200, answer.get_data(as_text=True)[-500:]
    drawn_at = seen_on(answer.get_data(as_text=True))
    answer = phone.post(f"/g/{token}/card", data={"day": "0", "player": "Ben", "card": "5", "seen": drawn_at}, headers=HTMX_EN)
    assert answer.status_code == 200, answer.get_data(as_text=True)[-500:]
    folds: list[int] = []
    fold = rules.history.fold
    monkeypatch.setattr(rules.history, "fold", lambda setup, events: folds.append(len(events)) or fold(setup, events))
    with statements(plain_app) as contested:
        answer = phone.post(f"/g/{token}/card", data={"day": "0", "player": "Cleo", "card": "7", "seen": drawn_at}, headers=HTMX_EN)
    assert answer.status_code == 200, answer.get_data(as_text=True)[-500:]
    assert len(contested) == len(quiet), (quiet, contested)
    assert folds == [], "no fold of the history for a tap"
    assert sum(statement.startswith("SELECT events.seq") for statement in contested) <= 1, contested
