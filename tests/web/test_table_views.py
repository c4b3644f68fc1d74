"""One table, one flow: the table address follows the evening, a rematch starts once and tells every phone, a TV follows along."""

from __future__ import annotations

import re
import threading

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from infra.redaction import redact
from models import Event, Game, Player, db, stored_events
from models.game import CardTable
from tests.helpers import EN, PhoneClient, phone_of, start
from tests.web.auruxxx_states import auruxxx_over
from tests.web.test_join_views import LAN, qr_codes


@pytest.fixture(autouse=True)
def network_address(monkeypatch: pytest.MonkeyPatch) -> None:
    """Give the machine a fixed address on the local network."""
    monkeypatch.setattr("views.pages.qr.lan_address", lambda: LAN)


def tokens(app: Flask, token: str) -> tuple[str, str]:
    """Return the read-only address of a game and the address of its table."""
    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.token == token))
        assert game is not None and game.read_token
        return game.read_token, game.card_table.token


def rematch(client: FlaskClient, token: str) -> str:
    """Tap "rematch" on a game and return the edit token of the game it leads to."""
    response = client.post(f"/g/{token}/rematch")
    assert response.status_code == 303, response.get_data(as_text=True)
    return str(response.headers["Location"]).removeprefix("/g/")


# --- The table address ------------------------------------------------------------------------


def test_the_table_address_opens_the_current_game_with_edit_rights(plain_app: Flask, phone: PhoneClient) -> None:
    first = start(phone, "auruxxx")
    _, table = tokens(plain_app, first)
    assert phone.get(f"/t/{table}").headers["Location"] == f"/g/{first}"
    second = rematch(phone, first)
    assert phone.get(f"/t/{table}").headers["Location"] == f"/g/{second}", "a rematch moves the table on"
    assert tokens(plain_app, second)[1] == table
    third = rematch(phone, second)
    assert phone.get(f"/t/{table}").headers["Location"] == f"/g/{third}"


def test_an_unknown_table_address_is_a_missing_page(phone: PhoneClient) -> None:
    start(phone, "auruxxx")
    for address in ("/t/nothing", f"/t/{'x' * 32}", f"/t/{'x' * 99}", "/t/nothing/tv"):
        assert phone.get(address).status_code == 404


def test_every_new_game_sits_at_a_table_of_its_own(plain_app: Flask, phone: PhoneClient) -> None:
    one, other = start(phone, "auruxxx"), start(phone, "12days", variant="standard")
    assert tokens(plain_app, one)[1] != tokens(plain_app, other)[1]


# --- The table card ---------------------------------------------------------------------------


def test_the_table_card_carries_the_table_address_and_a_name(plain_app: Flask, phone: PhoneClient) -> None:
    token = start(phone, "auruxxx")
    _, table = tokens(plain_app, token)
    page = phone.get(f"/g/{token}/table-card", headers=EN).get_data(as_text=True)
    [code] = qr_codes(page)
    assert code.decode() == f"http://{LAN}/t/{table}"
    assert 'class="table-card-name">Anna · Ben · Cleo<' in page
    assert "to keep score with us." in page
    response = phone.post(f"/g/{token}/table-card", data={"name": "  Kitchen   table "})
    assert response.status_code == 303
    assert 'class="table-card-name">Kitchen table<' in phone.get(f"/g/{token}/table-card").get_data(as_text=True)


def test_a_too_long_table_name_is_refused_and_changes_nothing(plain_app: Flask, phone: PhoneClient) -> None:
    token = start(phone, "auruxxx")
    response = phone.post(f"/g/{token}/table-card", data={"name": "x" * 41}, headers=EN)
    assert response.status_code == 422
    assert "at most 40 characters" in response.get_data(as_text=True)
    with plain_app.app_context():
        assert db.session.scalars(select(CardTable.name)).all() == [None]


def test_only_the_edit_address_opens_the_table_card(plain_app: Flask, phone: PhoneClient) -> None:
    token = start(phone, "auruxxx")
    watch, _ = tokens(plain_app, token)
    assert phone.get(f"/g/{watch}/table-card").status_code == 404
    assert phone.post(f"/g/{watch}/table-card", data={"name": "mine"}).status_code == 404


# --- Rematch ------------------------------------------------------------------------------------


def test_a_second_rematch_joins_the_first(plain_app: Flask, phone: PhoneClient) -> None:
    token = auruxxx_over(phone)
    first = rematch(phone, token)
    assert rematch(phone, token) == first
    with plain_app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 2
        old = db.session.scalar(select(Game).where(Game.token == token))
        assert old is not None
        assert [event.kind for event in stored_events(old)].count("rematch") == 1


def test_the_database_allows_one_rematch_per_game(plain_app: Flask, phone: PhoneClient) -> None:
    token = start(phone, "auruxxx")
    rematch(phone, token)
    with plain_app.app_context():
        old = db.session.scalar(select(Game).where(Game.token == token))
        assert old is not None
        second = Game(kind="auruxxx", previous_id=old.id, card_table_id=old.card_table_id)
        second.players = [Player(seat=0, name="Anna"), Player(seat=1, name="Ben")]
        db.session.add(second)
        with pytest.raises(IntegrityError):
            db.session.commit()
        db.session.rollback()


def test_phones_tapping_rematch_at_once_start_one_game(plain_app: Flask, phone: PhoneClient) -> None:
    """Eight phones tap at the same moment: one game is created and all of them land in it."""
    token = auruxxx_over(phone)
    barrier = threading.Barrier(8)
    landed: list[str] = []

    def tap_rematch() -> None:
        client = phone_of(plain_app)
        barrier.wait()
        landed.append(rematch(client, token))

    threads = [threading.Thread(target=tap_rematch) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(landed) == 8 and len(set(landed)) == 1
    with plain_app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 2


def test_the_old_sheet_announces_the_rematch_with_the_same_rights(plain_app: Flask, phone: PhoneClient) -> None:
    token = auruxxx_over(phone)
    watch, _ = tokens(plain_app, token)
    with plain_app.app_context():
        before = db.session.scalar(select(func.max(Event.seq)))
    assert "rematch-notice" not in phone.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    new = rematch(phone, token)
    new_watch, _ = tokens(plain_app, new)
    with plain_app.app_context():
        old = db.session.scalar(select(Game).where(Game.token == token))
        assert old is not None and stored_events(old)[-1].kind == "rematch" and stored_events(old)[-1].seq > (before or 0)
    edit = phone.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    assert re.search(rf'<p class="rematch-notice" role="status"><a class="button primary" href="/g/{new}" data-follow>', edit)
    assert edit.count("rematch-notice") == 1, "the way to the rematch is said once"
    assert 'action="/g/' + token + '/rematch"' not in edit, "the rematch button became the way to it"
    read_only = phone.get(f"/g/{watch}", headers=EN).get_data(as_text=True)
    assert f'href="/g/{new_watch}"' in read_only and f'href="/g/{new}"' not in read_only
    fragment = phone.get(f"/g/{watch}", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "rematch-notice" in fragment, "the live refresh carries the notice"


def test_the_rematch_note_cannot_be_undone_and_changes_no_score(plain_app: Flask, phone: PhoneClient) -> None:
    token = auruxxx_over(phone)
    before = phone.get(f"/g/{token}/record.json").get_data()
    rematch(phone, token)
    assert phone.get(f"/g/{token}/record.json").get_data() == before
    with plain_app.app_context():
        old = db.session.scalar(select(Game).where(Game.token == token))
        assert old is not None
        note = stored_events(old)[-1].seq
    response = phone.post(f"/g/{token}/undo", data={"event": str(note)}, headers=EN)
    assert response.status_code == 409, "a followed game takes no undo at all"
    assert "Rematch started" in phone.get(f"/g/{token}/history", headers=EN).get_data(as_text=True)


# --- The TV -------------------------------------------------------------------------------------


def test_the_tv_address_shows_the_read_only_sheet_with_the_code_to_join(plain_app: Flask, phone: PhoneClient) -> None:
    token = start(phone, "auruxxx")
    watch, table = tokens(plain_app, token)
    response = phone.get(f"/t/{table}/tv")
    assert response.headers["Location"] == f"/g/{watch}?tv={table}"
    page = phone.get(f"/g/{watch}?tv={table}", headers=EN).get_data(as_text=True)
    assert 'class="watching on-tv"' in page and "<form" not in page.split('id="sheet"')[1]
    [code] = qr_codes(page)
    assert code.decode() == f"http://{LAN}/t/{table}"
    assert f'hx-get="/g/{watch}?tv={table}"' in page, "its live refresh stays a TV's"
    assert phone.get(f"/g/{watch}?tv={table}").headers["Cache-Control"] == "no-store"


def test_the_logs_show_no_table_address() -> None:
    for line in ("GET /t/Tab_1 HTTP/1.1", "GET /t/Tab_1/tv HTTP/1.1", "GET /g/Read_1?tv=Tab_1 HTTP/1.1"):
        assert "Tab_1" not in redact(line) and "Read_1" not in redact(line)


def test_no_code_to_join_without_the_table_address(plain_app: Flask, phone: PhoneClient) -> None:
    """The read-only address alone never shows the code: it would hand edit rights to onlookers."""
    token = start(phone, "auruxxx")
    watch, table = tokens(plain_app, token)
    for address in (f"/g/{watch}", f"/g/{watch}?tv=wrong", f"/g/{token}?tv={table}"):
        page = phone.get(address).get_data(as_text=True)
        assert qr_codes(page) == [] and "on-tv" not in page, address


def test_the_tv_moves_on_to_the_rematch(plain_app: Flask, phone: PhoneClient) -> None:
    token = auruxxx_over(phone)
    watch, table = tokens(plain_app, token)
    new = rematch(phone, token)
    new_watch, _ = tokens(plain_app, new)
    refresh = phone.get(f"/g/{watch}?tv={table}", headers={"HX-Request": "true"})
    assert refresh.status_code == 204 and refresh.headers["HX-Redirect"] == f"/t/{table}/tv"
    assert phone.get(f"/t/{table}/tv").headers["Location"] == f"/g/{new_watch}?tv={table}"
