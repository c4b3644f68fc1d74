"""My seat: a phone says who holds it, every rematch keeps it, the history names whose phone tapped, and it grants nothing."""

from __future__ import annotations

import json
import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from models import SeatClaim, db
from tests.examples import finished_auruxxx, twelve_days
from tests.helpers import EN, PhoneClient, phone_of, start, tap
from tests.web.evenings import PLAYERS, contexts, game_of, rematch
from tests.web.states import tokens


def seat_on_sheet(client: FlaskClient, app: Flask, token: str, **headers: str) -> object:
    """Return ``my_seat`` as the sheet's page was given it."""
    with contexts(app) as seen:
        assert client.get(f"/g/{token}", headers={**EN, **headers}).status_code == 200
    [context] = [context for name, context in seen if name.endswith("/sheet.html")]
    return context["my_seat"]


def claim(client: FlaskClient, token: str, name: str) -> None:
    """Tap a name (or "for everyone": "") in the seat question."""
    response = client.post(f"/g/{token}/me", data={"name": name})
    assert response.status_code == 303 and response.headers["Location"] == f"/g/{token}", response.get_data(as_text=True)


def claims(app: Flask) -> int:
    """Count the stored seat claims."""
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(SeatClaim)) or 0


def test_a_new_phone_is_asked_who_holds_it_and_the_answer_marks_its_seat(plain_app: Flask, phone: PhoneClient) -> None:
    """Until it answers, the sheet asks above the pad; "I am Ben" gives the page Ben's seat, outside the pushed sheet."""
    token = start(phone, "auruxxx", PLAYERS)
    page = phone.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    assert "Who is holding this phone?" in page and ">I am Ben<" in page
    assert seat_on_sheet(phone, plain_app, token) is None
    claim(phone, token, "Ben")
    assert seat_on_sheet(phone, plain_app, token) == 1
    page = phone.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    assert '<body data-my-seat="1">' in page
    assert "This phone: Ben" in page and "Who is holding this phone?" not in page
    sheet = page[page.index('<section id="sheet"') :]
    assert "This phone" not in sheet and "data-my-seat" not in sheet, "what is this phone's stays out of the shared sheet"


def test_a_finished_game_asks_no_phone_who_holds_it(plain_app: Flask) -> None:
    """An imported finished game, opened on a phone for the first time: its result, and no seat question (the rematch asks)."""
    for record in (finished_auruxxx(), twelve_days(hands=True)):
        phone = phone_of(plain_app)
        imported = phone.post("/import", data=json.dumps(record), content_type="application/json")
        page = phone_of(plain_app).get(str(imported.json["location"]), headers=EN).get_data(as_text=True)  # type: ignore[index]
        assert 'class="result"' in page
        assert "Who is holding this phone?" not in page and "seat-picker" not in page


def test_the_seat_is_changeable_and_skippable(plain_app: Flask, phone: PhoneClient) -> None:
    """Ben, then Cleo, then "for everyone": the newest answer counts, and a phone for everyone has no seat."""
    token = start(phone, "auruxxx", PLAYERS)
    claim(phone, token, "Ben")
    claim(phone, token, "cleo")
    assert seat_on_sheet(phone, plain_app, token) == 2, "a name counts whatever its case"
    claim(phone, token, "")
    assert seat_on_sheet(phone, plain_app, token) is None
    page = phone.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    assert "This phone: for everyone" in page and "Who is holding this phone?" not in page
    chooser = phone.get(f"/g/{token}/me", headers=EN)
    assert chooser.status_code == 200 and ">I am Anna<" in chooser.get_data(as_text=True)


def test_a_rematch_and_another_game_at_the_table_keep_the_seat(plain_app: Flask, phone: PhoneClient) -> None:
    """Cleo's phone is Cleo's in the rematch, and in a 12 Days game where she sits first."""
    first = start(phone, "auruxxx", PLAYERS)
    claim(phone, first, "Cleo")
    second = rematch(phone, first)
    assert seat_on_sheet(phone, plain_app, second) == 2
    response = phone.post(f"/g/{second}/next/12days", data={"player": ["Cleo", "Anna", "Ben"], "action": "start", "variant": "standard"})
    third = str(response.headers["Location"]).removeprefix("/g/")
    assert seat_on_sheet(phone, plain_app, third) == 0
    assert "Who is holding this phone?" not in phone.get(f"/g/{third}", headers=EN).get_data(as_text=True)


def test_the_history_says_whose_phone_tapped(plain_app: Flask, phone: PhoneClient) -> None:
    """Anna's phone taps, then a phone for everyone; a later change of Anna's phone leaves the earlier taps hers."""
    token = start(phone, "auruxxx", PLAYERS)
    claim(phone, token, "Anna")
    tap(phone, token, "pass", player="Ben", round="0")
    other = phone_of(plain_app)
    other.get(f"/g/{token}")
    claim(other, token, "")
    tap(other, token, "pass", player="Cleo", round="0")
    claim(phone, token, "Ben")
    tap(phone, token, "pass", player="Cleo", round="0")
    page = phone.get(f"/g/{token}/history", headers=EN).get_data(as_text=True)
    lines = [line for line in page.split("<li") if "pass cross" in line]
    assert "on Ben's phone" in lines[0], "the newest tap, by the phone now Ben's"
    assert "phone" not in lines[1].split("pass cross", 1)[1], "a phone for everyone is not named"
    assert "on Anna's phone" in lines[2], "the first tap stays Anna's"


def test_a_rematch_keeps_the_seat_in_the_history_too(plain_app: Flask, phone: PhoneClient) -> None:
    """A tap in the rematch by the phone that said "Anna" in the first game is Anna's."""
    first = start(phone, "auruxxx", PLAYERS)
    claim(phone, first, "Anna")
    second = rematch(phone, first)
    tap(phone, second, "pass", player="Anna", round="0")
    assert "on Anna's phone" in phone.get(f"/g/{second}/history", headers=EN).get_data(as_text=True)


def test_two_phones_may_say_the_same_name_and_both_are_told(plain_app: Flask, phone: PhoneClient) -> None:
    """A couple sharing a hand: both phones say Anna; the second one's question and line say so."""
    token = start(phone, "auruxxx", PLAYERS)
    claim(phone, token, "Anna")
    partner = phone_of(plain_app)
    question = partner.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    anna = question[question.index(">I am Anna<") :]
    assert anna.index("also on another phone") < anna.index("I am Ben")
    claim(partner, token, "Anna")
    for each in (phone, partner):
        assert seat_on_sheet(each, plain_app, token) == 0
        assert "Anna is on another phone as well" in each.get(f"/g/{token}", headers=EN).get_data(as_text=True)


def test_a_seat_grants_nothing_the_address_does_not(plain_app: Flask, phone: PhoneClient) -> None:
    """The read-only address asks nothing and stores nothing; Ben's phone still taps for anyone; the TV shows no seat."""
    token = start(phone, "auruxxx", PLAYERS)
    game = tokens(plain_app, token)
    with plain_app.app_context():
        table = game_of(plain_app, token).card_table.token
    claim(phone, token, "Ben")
    onlooker = phone_of(plain_app)
    page = onlooker.get(f"/g/{game.read}", headers=EN).get_data(as_text=True)
    assert "Who is holding this phone?" not in page and "data-my-seat" not in page
    assert onlooker.post(f"/g/{game.read}/me", data={"name": "Anna"}).status_code == 404
    assert claims(plain_app) == 1
    tap(phone, token, "pass", player="Anna", round="0")
    assert seat_on_sheet(phone, plain_app, game.read) is None, "the read-only page of Ben's own phone shows no seat"
    tv = phone.get(f"/g/{game.read}?tv={table}", headers=EN).get_data(as_text=True)
    assert "This phone" not in tv and "data-my-seat" not in tv


def test_the_sheet_every_phone_is_pushed_carries_no_seat(plain_app: Flask, phone: PhoneClient) -> None:
    """A tap's answer is the sheet every phone shares: rendered without this phone's seat."""
    token = start(phone, "auruxxx", PLAYERS)
    claim(phone, token, "Ben")
    with contexts(plain_app) as seen:
        answer = phone.post(f"/g/{token}/pass", data={"player": "Anna", "round": "0"}, headers={"HX-Request": "true"})
    assert answer.status_code == 200
    assert [context["my_seat"] for name, context in seen if name.endswith("/sheet.html")] == [None]
    assert "This phone" not in answer.get_data(as_text=True)


def test_a_name_nobody_plays_is_refused_and_stores_nothing(plain_app: Flask, phone: PhoneClient) -> None:
    """ "I am Dora" at a table without Dora: 422 with the reason; no claim kept."""
    token = start(phone, "auruxxx", PLAYERS)
    refused = phone.post(f"/g/{token}/me", data={"name": "Dora"}, headers=EN)
    assert refused.status_code == 422
    assert "Nobody of that name plays at this table." in refused.get_data(as_text=True)
    assert claims(plain_app) == 0


def test_a_phone_without_its_cookie_is_told_why_nothing_is_kept(plain_app: Flask) -> None:
    """A phone that sends no device cookie cannot keep a seat: 422 says so, and the sheet still works."""
    phone = phone_of(plain_app, cookies=False)
    token = start(phone, "auruxxx", PLAYERS)
    refused = phone.post(f"/g/{token}/me", data={"name": "Anna"}, headers=EN)
    assert refused.status_code == 422 and "keeps no cookies" in refused.get_data(as_text=True)
    assert claims(plain_app) == 0


def test_the_join_page_asks_the_phone_that_shows_the_code(plain_app: Flask, phone: PhoneClient) -> None:
    """The creator's phone answers on the join page and stays there, showing the code."""
    token = start(phone, "auruxxx", PLAYERS)
    page = phone.get(f"/g/{token}/join", headers=EN).get_data(as_text=True)
    assert "Who is holding this phone?" in page and 'name="then" value="join"' in page
    response = phone.post(f"/g/{token}/me", data={"name": "Anna", "then": "join"})
    assert response.headers["Location"] == f"/g/{token}/join"
    assert seat_on_sheet(phone, plain_app, token) == 0
    answered = phone.get(f"/g/{token}/join", headers=EN).get_data(as_text=True)
    assert "This phone: Anna" in answered and f'href="/g/{token}/me?then=join"' in answered


def test_my_column_is_marked_and_my_hand_is_one_tap_away(plain_app: Flask, phone: PhoneClient) -> None:
    """Every column says its seat and every hand still to count has its "my cards" link, in the sheet all phones share;
    the stylesheet frames the column and shows the link of the seat on <body data-my-seat> only."""
    token = start(phone, "auruxxx", PLAYERS)
    claim(phone, token, "Ben")
    tap(phone, token, "finish", player="Anna", round="0", golden12="1")
    page = phone.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    assert '<body data-my-seat="1">' in page
    sheet = page[page.index('<section id="sheet"') :]
    assert all(f'title="{name}" data-seat="{seat}"' in sheet for seat, name in enumerate(PLAYERS))
    links = re.findall(r'<a class="button primary big my-hand" data-seat="(\d)" href="([^"]+)">My cards: enter my hand</a>', sheet)
    assert links == [("1", f"/g/{token}/hand/1"), ("2", f"/g/{token}/hand/2")], "the finisher counts no hand"
    tap(phone, token, "hand/1", round="0", action="save-points", points="5")
    sheet = phone.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    links = re.findall(r'<a class="button primary big my-hand" data-seat="(\d)" href="([^"]+)">My cards: enter my hand</a>', sheet)
    assert links == [("2", f"/g/{token}/hand/2")], "a hand once entered is changed from the list of hands, not offered as still to enter"
    css = phone.get("/static/css/app.css").get_data(as_text=True)
    assert 'body[data-my-seat="1"] .my-hand[data-seat="1"]' in css and 'body[data-my-seat="1"] .pad [data-seat="1"]' in css
    assert re.search(r"\.my-hand \{\s*display: none;", css)


def test_the_twelve_days_final_hand_of_my_seat_is_one_tap_away(plain_app: Flask, phone: PhoneClient) -> None:
    """After the last day, the phone's own final-hand keypad has its link until that hand is in."""
    token = start(phone, "12days", PLAYERS, variant="standard")
    claim(phone, token, "Cleo")
    for day in range(12):
        tap(phone, token, "taken", day=str(day), player="Anna")
    page = phone.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    assert f'data-seat="2" href="/g/{token}/final-hand/2">My cards: enter my hand</a>' in page
    assert 'title="Cleo" data-seat="2"' in page
