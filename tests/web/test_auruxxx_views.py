"""The AURUXXX sheet through the test client: every tap, its refusals, and the numbers it shows."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from models import Event, Game, db, stored_events
from rules import record
from tests.helpers import EN, HTMX, PLAYERS, event_count
from tests.web.driver import TableDriver

EMPTY_CARDS = {"numbers": [], "fifty": 0, "action": 0, "happy_man": 0, "two": 0, "golden12": 0}


# --- Helpers ---------------------------------------------------------------------------------


def finish(driver: TableDriver, token: str, round_: int, player: str, golden12: int = 1) -> None:
    """Record who ended a round with how many Golden 12."""
    driver.tap(token, "finish", round=str(round_), player=player, golden12=str(golden12))


def hand(driver: TableDriver, token: str, seat: int, round_: int, cards: str = "", typed: int | None = None) -> None:
    """Save a hand from the keypad: its cards, or a typed total."""
    if typed is None:
        driver.hand(token, f"hand/{seat}", round=str(round_), cards=cards)
    else:
        driver.hand(token, f"hand/{seat}", round=str(round_), action="save-points", points=str(typed))


def assert_fragment(response: TestResponse, root_id: str) -> None:
    """Check that htmx got only the block, marked as varying with ``HX-Request``."""
    page = response.get_data(as_text=True)
    assert "<html" not in page and "<head" not in page
    assert f'id="{root_id}"' in page
    assert "HX-Request" in response.headers.get("Vary", "")


def assert_page(response: TestResponse, root_id: str) -> None:
    """Check that a browser got the whole page around the block, marked as varying with ``HX-Request``."""
    page = response.get_data(as_text=True)
    assert "<html" in page and f'id="{root_id}"' in page
    assert "HX-Request" in response.headers.get("Vary", "")


def sheet_cells(response: TestResponse) -> list[str]:
    """Return the round scores on the sheet, row by row."""
    return [html.unescape(t) for t in re.findall(r'<span class="points">(.*?)</span>', response.get_data(as_text=True))]


def sheet_totals(response: TestResponse) -> list[str]:
    """Return the totals row of the sheet."""
    return [html.unescape(t) for t in re.findall(r'<td class="total[^"]*"[^>]*>(.*?)</td>', response.get_data(as_text=True))]


def keypad_sum(response: TestResponse) -> str:
    """Return the sum the keypad shows."""
    found = re.search(r'<output class="sum">(.*?)</output>', response.get_data(as_text=True))
    assert found is not None
    return html.unescape(found.group(1))


def display(number: int | float, separator: str) -> str:
    """Return a record's number as the sheet writes it: a half after the separator, a real minus sign."""
    text = f"{abs(number):g}".replace(".", separator)
    return f"−{text}" if number < 0 else text


@pytest.fixture
def token(driver: TableDriver) -> str:
    """Return the token of a fresh game of Anna, Ben and Cleo with the default house rules."""
    return driver.start("auruxxx")


# --- The sheet and unknown games ------------------------------------------------------------


def test_sheet_is_a_whole_page_for_a_browser(driver: TableDriver, token: str) -> None:
    """A plain GET gets the whole page with the sheet, its players and round 1 being played."""
    response = driver.client.get(f"/g/{token}", headers=EN)
    assert response.status_code == 200
    assert_page(response, "sheet")
    page = response.get_data(as_text=True)
    assert "Round 1 of 3" in page and "Anna deals, Ben starts" in page
    for name in PLAYERS:
        assert f'<span class="name">{name}</span>' in page


def test_sheet_is_only_the_fragment_for_htmx(driver: TableDriver, token: str) -> None:
    """An htmx GET gets only the ``#sheet`` block."""
    response = driver.client.get(f"/g/{token}", headers=HTMX)
    assert response.status_code == 200
    assert_fragment(response, "sheet")


def test_htmx_history_restore_gets_the_whole_page(driver: TableDriver, token: str) -> None:
    """htmx restoring its history asks for the whole page and gets it."""
    response = driver.client.get(f"/g/{token}", headers={**HTMX, "HX-History-Restore-Request": "true"})
    assert_page(response, "sheet")


GAME_GETS = ["", "/record.json", "/history", "/finish", "/hand/0", "/rounds/1/correct"]
GAME_POSTS = ["/undo", "/rematch", "/pass", "/happy-man", "/finish", "/hand/0", "/rounds/1/correct"]


@pytest.mark.parametrize("route", GAME_GETS)
def test_unknown_token_is_not_found_for_every_page(driver: TableDriver, token: str, route: str) -> None:
    """A token no game has is a missing page, wherever it is used."""
    assert driver.client.get(f"/g/{token}x{route}").status_code == 404
    assert driver.client.get(f"/g/nope{route}").status_code == 404


@pytest.mark.parametrize("route", GAME_POSTS)
def test_unknown_token_is_not_found_for_every_form(driver: TableDriver, plain_app: Flask, token: str, route: str) -> None:
    """A form posted to a token no game has is a missing page and writes nothing."""
    data = {"player": "Anna", "round": "0", "golden12": "1", "action": "save", "points": "3"}
    assert driver.client.post(f"/g/{token}x{route}", data=data).status_code == 404
    with plain_app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 1
    assert event_count(plain_app) == 0


# --- Pass crosses ---------------------------------------------------------------------------


def test_pass_adds_a_cross(driver: TableDriver, token: str) -> None:
    """A pass tap stores a ``pass`` event and the sheet shows the cross."""
    response = driver.post(token, "pass", round="0", player="Anna")
    assert response.status_code == 303 and response.headers["Location"] == f"/g/{token}"
    assert driver.events(token) == [("pass", {"round": 0, "player": "Anna"})]
    current = driver.table(token).current
    assert current is not None and current.passes == {"Anna": 1}
    page = driver.client.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    assert "Pass cross for Anna (1 of 3 so far)" in page


def test_passes_count_per_player(driver: TableDriver, token: str) -> None:
    """Crosses add up per player."""
    for player in ("Anna", "Ben", "Anna"):
        driver.tap(token, "pass", round="0", player=player)
    current = driver.table(token).current
    assert current is not None and current.passes == {"Anna": 2, "Ben": 1}


def test_fourth_pass_is_refused_with_the_rules_message(driver: TableDriver, token: str) -> None:
    """The 4th cross of a round answers 422 with the rules' message and is not stored."""
    for _ in range(3):
        driver.tap(token, "pass", round="0", player="Anna")
    response = driver.post(token, "pass", round="0", player="Anna")
    assert response.status_code == 422
    assert_page(response, "sheet")
    assert driver.problems() == ["Anna: at most 3 passes per round (got 4)"]
    assert len(driver.events(token)) == 3


def test_refused_pass_under_htmx_is_the_fragment_with_the_message(driver: TableDriver, token: str) -> None:
    """htmx gets the refused tap as the ``#sheet`` fragment with the message."""
    for _ in range(3):
        driver.tap(token, "pass", round="0", player="Ben")
    response = driver.post(token, "pass", headers={**HTMX, **EN}, round="0", player="Ben")
    assert response.status_code == 422
    assert_fragment(response, "sheet")
    assert driver.problems() == ["Ben: at most 3 passes per round (got 4)"]


def test_resent_pass_with_the_same_key_counts_once(driver: TableDriver, token: str) -> None:
    """A form sent twice with the same ``key`` stores one cross; both answers look alike."""
    first = driver.post(token, "pass", round="0", player="Anna", key="k-1")
    again = driver.post(token, "pass", round="0", player="Anna", key="k-1")
    assert first.status_code == again.status_code == 303
    assert driver.events(token) == [("pass", {"round": 0, "player": "Anna"})]
    driver.post(token, "pass", round="0", player="Anna", key="k-2")
    assert len(driver.events(token)) == 2


def test_pass_under_htmx_answers_with_the_updated_fragment(driver: TableDriver, token: str) -> None:
    """htmx gets the updated ``#sheet`` fragment with the new cross, not a redirect."""
    response = driver.post(token, "pass", headers={**HTMX, **EN}, round="0", player="Cleo")
    assert response.status_code == 200
    assert_fragment(response, "sheet")
    assert "Pass cross for Cleo (1 of 3 so far)" in response.get_data(as_text=True)
    assert len(driver.events(token)) == 1


def test_pass_for_a_finished_round_is_refused(driver: TableDriver, token: str) -> None:
    """A cross for a round already over answers 422 naming the round being played, and writes nothing."""
    finish(driver, token, 0, "Anna")
    hand(driver, token, 1, 0, typed=3)
    hand(driver, token, 2, 0, typed=4)
    before = driver.events(token)
    response = driver.post(token, "pass", round="0", player="Ben")
    assert response.status_code == 422
    assert driver.problems() == ["Round 1 is finished; round 2 is being played"]
    assert driver.events(token) == before


def test_pass_for_a_round_not_begun_is_refused(driver: TableDriver, plain_app: Flask, token: str) -> None:
    """A cross for a later round answers 422 and writes nothing."""
    response = driver.post(token, "pass", round="1", player="Ben")
    assert response.status_code == 422
    assert driver.problems() == ["Round 2 has not begun; round 1 is being played"]
    assert event_count(plain_app) == 0


@pytest.mark.parametrize(
    "form",
    [{"round": "0", "player": "Zed"}, {"round": "0"}, {"round": "3", "player": "Anna"}, {"round": "x", "player": "Anna"}],
    ids=["unknown player", "no player", "round 4", "no number"],
)
def test_pass_with_a_bad_form_is_refused(driver: TableDriver, plain_app: Flask, token: str, form: dict[str, str]) -> None:
    """A cross for someone not at the table, or for no real round, answers 400 and writes nothing."""
    response = driver.client.post(f"/g/{token}/pass", data=form)
    assert response.status_code == 400
    assert event_count(plain_app) == 0


def test_a_tap_remembers_the_phone_that_made_it(driver: TableDriver, plain_app: Flask, token: str) -> None:
    """The device cookie given on the first page is stored with the event."""
    driver.client.get(f"/g/{token}")
    cookie = driver.client.get_cookie("device")
    assert cookie is not None and cookie.value
    driver.tap(token, "pass", round="0", player="Anna")
    with plain_app.app_context():
        stored = db.session.scalar(select(Event))
        assert stored is not None and stored.device == cookie.value


# --- The Happy-Man figure ------------------------------------------------------------------


def test_happy_man_gives_the_figure_to_a_player(driver: TableDriver, token: str) -> None:
    """A Happy-Man tap stores the holder and the sheet shows who holds the figure."""
    assert "holds the Happy-Man figure" not in driver.client.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    driver.tap(token, "happy-man", round="0", player="Cleo")
    assert driver.events(token) == [("happy_man", {"round": 0, "player": "Cleo"})]
    page = driver.client.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    assert "Cleo holds the Happy-Man figure" in page
    assert "Give the Happy-Man figure to Cleo" not in page


def test_happy_man_moves_to_the_next_player_who_plays_one(driver: TableDriver, token: str) -> None:
    """A second Happy-Man tap moves the figure on."""
    driver.tap(token, "happy-man", round="0", player="Cleo")
    response = driver.post(token, "happy-man", headers={**HTMX, **EN}, round="0", player="Ben")
    assert response.status_code == 200
    assert_fragment(response, "sheet")
    assert "Ben holds the Happy-Man figure" in response.get_data(as_text=True)
    current = driver.table(token).current
    assert current is not None and current.holder == "Ben"


def test_happy_man_holder_carries_into_the_next_round(driver: TableDriver, token: str) -> None:
    """The holder at the end of round 1 still holds the figure in round 2 and halves there."""
    driver.tap(token, "happy-man", round="0", player="Cleo")
    finish(driver, token, 0, "Anna")
    hand(driver, token, 1, 0, typed=10)
    hand(driver, token, 2, 0, typed=10)
    current = driver.table(token).current
    assert current is not None and (current.index, current.holder) == (1, "Cleo")
    assert "Cleo holds the Happy-Man figure" in driver.client.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    finish(driver, token, 1, "Anna")
    hand(driver, token, 1, 1, typed=10)
    hand(driver, token, 2, 1, typed=10)
    rounds = driver.table(token).game.rounds
    assert [r.happy_man for r in rounds] == ["Cleo", "Cleo"]
    assert sheet_cells(driver.client.get(f"/g/{token}", headers=EN)) == ["−5", "10", "5", "−5", "10", "5"]


def test_happy_man_for_an_unknown_player_is_refused(driver: TableDriver, plain_app: Flask, token: str) -> None:
    """The figure cannot go to someone not at the table."""
    assert driver.post(token, "happy-man", round="0", player="Zed").status_code == 400
    assert event_count(plain_app) == 0


# --- Who ended the round ---------------------------------------------------------------------


def test_finish_form_is_a_page_or_a_fragment(driver: TableDriver, token: str) -> None:
    """The finish form asks who ended round 1, as a page or as the ``#finish`` fragment for htmx."""
    response = driver.client.get(f"/g/{token}/finish", headers=EN)
    assert response.status_code == 200
    assert_page(response, "finish")
    page = response.get_data(as_text=True)
    assert "Round 1 is over" in page and 'name="round" value="0"' in page
    for name in PLAYERS:
        assert f'name="player" value="{name}"' in page
    fragment = driver.client.get(f"/g/{token}/finish", headers=HTMX)
    assert fragment.status_code == 200
    assert_fragment(fragment, "finish")


def test_finish_stores_the_finisher_and_asks_for_the_hands(driver: TableDriver, token: str) -> None:
    """A finish stores who ended the round with how many Golden 12; the sheet then asks for the others' hands."""
    response = driver.post(token, "finish", round="0", player="Ben", golden12="2")
    assert response.status_code == 303 and response.headers["Location"] == f"/g/{token}"
    assert driver.events(token) == [("finish", {"round": 0, "player": "Ben", "golden12": 2})]
    page = driver.client.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    assert "Ben ended the round with 2 Golden 12." in page
    assert f'href="/g/{token}/hand/0"' in page and f'href="/g/{token}/hand/2"' in page
    assert f'href="/g/{token}/hand/1"' not in page


def test_finish_under_htmx_navigates_back_to_the_sheet(driver: TableDriver, token: str) -> None:
    """htmx gets 204 with ``HX-Redirect`` to the sheet after a finish."""
    response = driver.post(token, "finish", headers=HTMX, round="0", player="Ben", golden12="1")
    assert response.status_code == 204
    assert response.headers["HX-Redirect"] == f"/g/{token}"
    assert len(driver.events(token)) == 1


@pytest.mark.parametrize(
    ("golden12", "message"),
    [
        ("0", "The finisher ends the round with 1 to 5 Golden 12 (got 0)"),
        ("6", "The deck has only 5 Golden 12 (got 6)"),
        ("", "Tap how many Golden 12 ended the round."),
        ("-1", "Tap how many Golden 12 ended the round."),
    ],
)
def test_finish_with_an_impossible_golden12_count_is_refused(
    driver: TableDriver, plain_app: Flask, token: str, golden12: str, message: str
) -> None:
    """0, 6 or no number of Golden 12 answers 422 with the form, its message, and nothing stored."""
    response = driver.post(token, "finish", round="0", player="Ben", golden12=golden12)
    assert response.status_code == 422
    assert_page(response, "finish")
    assert driver.problems() == [message]
    assert event_count(plain_app) == 0


def test_refused_finish_under_htmx_is_the_finish_fragment(driver: TableDriver, token: str) -> None:
    """htmx gets a refused finish as the ``#finish`` fragment with the message."""
    response = driver.post(token, "finish", headers={**HTMX, **EN}, round="0", player="Ben", golden12="0")
    assert response.status_code == 422
    assert_fragment(response, "finish")
    assert driver.problems() == ["The finisher ends the round with 1 to 5 Golden 12 (got 0)"]


def test_the_two_card_key_is_named_with_typographic_quotes(driver: TableDriver, token: str) -> None:
    """The keypad's "2" (draw two) key reads “2” in English and „2“ in German, never with a typewriter's straight quotes."""
    finish(driver, token, 0, "Ben")
    english = driver.get(token, "hand/0").get_data(as_text=True)
    german = driver.get(token, "hand/0", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert 'value="add:two" class="key key--two">“2”</button>' in english
    assert 'value="add:two" class="key key--two">„2“</button>' in german
    for page in (english, german):
        assert '"2"' not in page and "&#34;2&#34;" not in page


def test_finish_by_a_player_who_already_counted_a_hand_is_refused(driver: TableDriver, token: str) -> None:
    """Someone whose hand is already in cannot become the finisher of the same round."""
    finish(driver, token, 0, "Ben")
    hand(driver, token, 0, 0, typed=5)
    before = driver.events(token)
    response = driver.post(token, "finish", round="0", player="Anna", golden12="1")
    assert response.status_code == 422
    assert driver.problems() == ["Anna has already counted a hand this round"]
    assert driver.events(token) == before


def test_finish_with_five_golden12_while_a_hand_holds_one_is_refused(driver: TableDriver, token: str) -> None:
    """g=5 is refused when another hand already holds a Golden 12 (worked example 6)."""
    finish(driver, token, 0, "Ben", golden12=1)
    hand(driver, token, 0, 0, cards="golden12")
    before = driver.events(token)
    response = driver.post(token, "finish", round="0", player="Ben", golden12="5")
    assert response.status_code == 422
    assert driver.events(token) == before


def test_finish_form_after_the_game_goes_back_to_the_sheet(driver: TableDriver, token: str) -> None:
    """Once all rounds are over there is nothing to finish: the form sends you to the sheet."""
    for round_ in range(3):
        finish(driver, token, round_, "Anna")
        hand(driver, token, 1, round_, typed=1)
        hand(driver, token, 2, round_, typed=1)
    response = driver.client.get(f"/g/{token}/finish")
    assert response.status_code == 303 and response.headers["Location"] == f"/g/{token}"


# --- The hand keypad ---------------------------------------------------------------------------


def test_keypad_before_the_finish_goes_back_to_the_sheet(driver: TableDriver, plain_app: Flask, token: str) -> None:
    """Hands are counted once the finisher is known: before that the keypad sends you to the sheet, and a save there says it was not stored."""
    assert driver.client.get(f"/g/{token}/hand/0").status_code == 303
    response = driver.post(token, "hand/0", round="0", action="save-points", points="5")
    assert response.status_code == 409
    assert "Anna's hand can no longer be entered here" in response.get_data(as_text=True)
    assert f'href="/g/{token}"' in response.get_data(as_text=True)
    assert event_count(plain_app) == 0


def test_keypad_of_the_finisher_goes_back_to_the_sheet(driver: TableDriver, token: str) -> None:
    """The finisher has no hand: their keypad sends you to the sheet; a save there stores nothing and says so."""
    finish(driver, token, 0, "Ben")
    assert driver.client.get(f"/g/{token}/hand/1").status_code == 303
    response = driver.post(token, "hand/1", round="0", action="save-points", points="5")
    assert response.status_code == 409
    assert "Not stored" in response.get_data(as_text=True)
    assert len(driver.events(token)) == 1


def test_keypad_of_a_seat_nobody_sits_in_is_not_found(driver: TableDriver, token: str) -> None:
    """Only the table's seats have a keypad."""
    finish(driver, token, 0, "Ben")
    assert driver.client.get(f"/g/{token}/hand/3").status_code == 404
    assert driver.client.post(f"/g/{token}/hand/3", data={"action": "save"}).status_code == 404


def test_keypad_is_a_page_or_a_fragment(driver: TableDriver, token: str) -> None:
    """The keypad starts at 0, as a page or as the ``#keypad`` fragment for htmx."""
    finish(driver, token, 0, "Ben")
    response = driver.client.get(f"/g/{token}/hand/0", headers=EN)
    assert response.status_code == 200
    assert_page(response, "keypad")
    assert "Hand of Anna" in response.get_data(as_text=True)
    assert keypad_sum(response) == "0"
    fragment = driver.client.get(f"/g/{token}/hand/2", headers=HTMX)
    assert fragment.status_code == 200
    assert_fragment(fragment, "keypad")


def test_keypad_adds_and_removes_cards_without_storing_anything(driver: TableDriver, token: str) -> None:
    """``add:`` and ``remove:`` change the shown sum; only saving writes an event."""
    finish(driver, token, 0, "Ben")
    url = f"/g/{token}/hand/0"
    response = driver.client.post(url, data={"round": "0", "cards": "n9", "action": "add:n8"}, headers=HTMX)
    assert response.status_code == 200
    assert_fragment(response, "keypad")
    assert keypad_sum(response) == "17"
    assert 'name="cards" value="n9 n8"' in response.get_data(as_text=True)
    response = driver.client.post(url, data={"round": "0", "cards": "n9 n8", "action": "add:fifty"})
    assert keypad_sum(response) == "67"
    response = driver.client.post(url, data={"round": "0", "cards": "n9 n8 fifty", "action": "remove:0"})
    assert keypad_sum(response) == "58"
    assert 'name="cards" value="n8 fifty"' in response.get_data(as_text=True)
    for token_, worth in (("action", "25"), ("happy_man", "25"), ("two", "2"), ("golden12", "12"), ("n0", "0")):
        assert keypad_sum(driver.client.post(url, data={"round": "0", "action": f"add:{token_}"})) == worth
    assert len(driver.events(token)) == 1


def test_keypad_refuses_card_tokens_it_does_not_know(driver: TableDriver, token: str) -> None:
    """Unknown card tokens answer 422 naming the first one, instead of saving an empty hand; nothing is stored."""
    finish(driver, token, 0, "Ben")
    url = f"/g/{token}/hand/0"
    for action in ("save", "add:n1"):
        response = driver.post(token, "hand/0", round="0", cards="n13 joker n9", action=action)
        assert response.status_code == 422
        assert driver.problems() == ["n13 is not a card on the keypad; check the cards and save again."]
        assert keypad_sum(response) == "9"
    response = driver.post(token, "hand/0", round="0", cards="x" * 5000, action="save")
    assert driver.problems() == ["x" * 37 + "... is not a card on the keypad; check the cards and save again."]
    assert len(driver.events(token)) == 1
    assert keypad_sum(driver.client.post(url, data={"round": "0", "cards": "n9", "action": "add:n99"})) == "9"
    assert keypad_sum(driver.client.post(url, data={"round": "0", "cards": "n9", "action": "remove:5"})) == "9"


def test_keypad_counts_by_the_house_rules(driver: TableDriver) -> None:
    """With "2" and Golden 12 in hand worth 25, the keypad adds 25 for each."""
    token = driver.start("auruxxx", two_in_hand="25", golden12_in_hand="25")
    finish(driver, token, 0, "Ben")
    response = driver.client.post(f"/g/{token}/hand/0", data={"round": "0", "cards": "two", "action": "add:golden12"})
    assert keypad_sum(response) == "50"


def test_saving_the_cards_stores_a_hand_with_the_card_counts(driver: TableDriver, token: str) -> None:
    """``save`` stores a ``hand`` event holding the numbers and the count of every special card."""
    finish(driver, token, 0, "Ben")
    response = driver.post(token, "hand/0", round="0", action="save", cards="n7 fifty n3 action happy_man two two")
    assert response.status_code == 303 and response.headers["Location"] == f"/g/{token}"
    expected = {**EMPTY_CARDS, "numbers": [7, 3], "fifty": 1, "action": 1, "happy_man": 1, "two": 2}
    assert driver.events(token)[-1] == ("hand", {"round": 0, "player": "Anna", "hand": expected})
    page = driver.client.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    assert "✓ entered" in page


def test_saving_an_empty_keypad_stores_an_empty_hand(driver: TableDriver, token: str) -> None:
    """A player whose last card was taken saves an empty hand worth 0."""
    finish(driver, token, 0, "Ben")
    hand(driver, token, 0, 0, cards="")
    assert driver.events(token)[-1] == ("hand", {"round": 0, "player": "Anna", "hand": EMPTY_CARDS})


def test_saving_a_typed_total_stores_the_points(driver: TableDriver, token: str) -> None:
    """``save-points`` stores the typed total as ``{"points": N}``."""
    finish(driver, token, 0, "Ben")
    response = driver.post(token, "hand/2", round="0", action="save-points", points=" 42 ")
    assert response.status_code == 303
    assert driver.events(token)[-1] == ("hand", {"round": 0, "player": "Cleo", "hand": {"points": 42}})


def test_saving_under_htmx_navigates_back_to_the_sheet(driver: TableDriver, token: str) -> None:
    """htmx gets 204 with ``HX-Redirect`` to the sheet after a saved hand."""
    finish(driver, token, 0, "Ben")
    response = driver.post(token, "hand/0", headers=HTMX, round="0", action="save-points", points="4")
    assert response.status_code == 204 and response.headers["HX-Redirect"] == f"/g/{token}"


@pytest.mark.parametrize("typed", ["", "abc", "-3", "4.5"])
def test_a_bad_typed_total_is_refused(driver: TableDriver, token: str, typed: str) -> None:
    """A typed total that is not a whole number ≥ 0 answers 422 with the keypad and its message."""
    finish(driver, token, 0, "Ben")
    response = driver.post(token, "hand/0", round="0", action="save-points", points=typed)
    assert response.status_code == 422
    assert_page(response, "keypad")
    assert driver.problems() == ["Type the hand's total as a whole number, or enter the cards."]
    assert len(driver.events(token)) == 1


def test_keypad_shows_a_saved_hand_again(driver: TableDriver, token: str) -> None:
    """Opening the keypad of a saved hand shows its cards (or typed total) to change them."""
    finish(driver, token, 0, "Ben")
    hand(driver, token, 0, 0, cards="n9 n8")
    response = driver.client.get(f"/g/{token}/hand/0")
    assert keypad_sum(response) == "17"
    assert 'name="cards" value="n9 n8"' in response.get_data(as_text=True)


def test_a_hand_that_makes_six_golden12_is_refused_when_entered(driver: TableDriver, token: str) -> None:
    """With the finisher's 5 Golden 12, a hand holding a 6th is refused on the keypad."""
    finish(driver, token, 0, "Ben", golden12=5)
    response = driver.post(token, "hand/0", round="0", action="save", cards="golden12")
    assert response.status_code == 422
    assert driver.problems()
    assert len(driver.events(token)) == 1


def test_the_last_hand_closes_the_round_and_the_sheet_shows_its_scores(driver: TableDriver, token: str) -> None:
    """When the last hand is in, round 1 is scored on the sheet and round 2 begins."""
    driver.tap(token, "pass", round="0", player="Ben")
    finish(driver, token, 0, "Anna")
    hand(driver, token, 1, 0, cards="n7 n0 n12")
    assert driver.table(token).game.rounds == ()
    assert sheet_cells(driver.client.get(f"/g/{token}")) == []
    hand(driver, token, 2, 0, cards="fifty n3")
    response = driver.client.get(f"/g/{token}", headers=EN)
    assert sheet_cells(response) == ["−5", "24", "53"]
    assert sheet_totals(response) == ["−5", "24", "53"]
    page = response.get_data(as_text=True)
    assert "Round 2 of 3" in page and "Ben deals, Cleo starts" in page
    assert f'href="/g/{token}/rounds/1/correct"' in page


# --- Every number on the sheet -------------------------------------------------------------------

WORKED_GAME: dict[str, Any] = {
    "game": "auruxxx",
    "players": PLAYERS,
    "rounds": [
        {
            "finisher": "Anna",
            "golden12": 1,
            "happy_man": "Cleo",
            "passes": {"Ben": 1},
            "hands": {"Ben": {"numbers": [7, 0, 12]}, "Cleo": {"numbers": [9, 8]}},
        },
        {
            "finisher": "Anna",
            "golden12": 1,
            "happy_man": "Cleo",
            "passes": {"Anna": 3, "Ben": 3, "Cleo": 2},
            "hands": {"Ben": {"numbers": [4]}, "Cleo": {"numbers": [12, 11, 7]}},
        },
        {
            "finisher": "Cleo",
            "golden12": 3,
            "happy_man": "Ben",
            "passes": {"Ben": 1, "Cleo": 1},
            "hands": {"Anna": {"fifty": 1, "action": 1, "happy_man": 1, "numbers": [7]}, "Ben": {}},
        },
    ],
}
"""The worked examples of the rules, played as one game: 8,5 (ex. 8), 20 (ex. 7), 107 (ex. 3) and more."""


def play_worked_game(driver: TableDriver, token: str) -> None:
    """Enter ``WORKED_GAME`` through the sheet's forms, tap by tap."""
    driver.tap(token, "happy-man", round="0", player="Cleo")
    driver.tap(token, "pass", round="0", player="Ben")
    finish(driver, token, 0, "Anna")
    hand(driver, token, 1, 0, cards="n7 n0 n12")
    hand(driver, token, 2, 0, cards="n9 n8")
    for player, crosses in (("Anna", 3), ("Ben", 3), ("Cleo", 2)):
        for _ in range(crosses):
            driver.tap(token, "pass", round="1", player=player)
    finish(driver, token, 1, "Anna")
    hand(driver, token, 1, 1, cards="n4")
    hand(driver, token, 2, 1, cards="n12 n11 n7")
    driver.tap(token, "pass", round="2", player="Ben")
    driver.tap(token, "pass", round="2", player="Cleo")
    driver.tap(token, "happy-man", round="2", player="Ben")
    finish(driver, token, 2, "Cleo", golden12=3)
    hand(driver, token, 0, 2, cards="fifty action happy_man n7")
    hand(driver, token, 1, 2, cards="")


@pytest.mark.parametrize(("language", "separator"), [("de", ","), ("en", ".")])
def test_every_number_on_the_sheet_is_the_scored_record(driver: TableDriver, token: str, language: str, separator: str) -> None:
    """Round scores and totals on the sheet are exactly ``record.scored`` of the same game, in the reader's notation."""
    play_worked_game(driver, token)
    result = record.scored(record.parse(WORKED_GAME))["result"]
    assert record.scored(driver.table(token).game)["result"] == result
    response = driver.client.get(f"/g/{token}", headers={"Accept-Language": language})
    expected_cells = [display(round_[p], separator) for round_ in result["rounds"] for p in PLAYERS]
    assert sheet_cells(response) == expected_cells
    assert sheet_totals(response) == [display(result["totals"][p], separator) for p in PLAYERS]
    assert expected_cells == ["−5", "24", f"8{separator}5", "10", "19", "20", "107", f"2{separator}5", "−10"]
    assert sheet_totals(response) == ["112", f"45{separator}5", f"18{separator}5"]


def test_the_sheet_explains_a_halved_score(driver: TableDriver, token: str) -> None:
    """Each cell explains itself: hand 9+8 halved by the Happy-Man gives 8.5."""
    driver.tap(token, "happy-man", round="0", player="Cleo")
    finish(driver, token, 0, "Anna")
    hand(driver, token, 1, 0, typed=0)
    hand(driver, token, 2, 0, cards="n9 n8")
    page = driver.client.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    assert "Hand 17 = 17; Happy-Man: ½ × 17 = 8.5" in html.unescape(page)


def test_explanations_write_every_number_with_its_operator(driver: TableDriver, token: str) -> None:
    """A finisher with a cross, two Golden 12 and the figure: "1 cross × 5 + 2 Golden 12 × −5 = −5", never numbers run together."""
    driver.tap(token, "pass", round="0", player="Anna")
    driver.tap(token, "happy-man", round="0", player="Anna")
    driver.tap(token, "pass", round="0", player="Ben")
    driver.tap(token, "pass", round="0", player="Ben")
    finish(driver, token, 0, "Anna", golden12=2)
    hand(driver, token, 1, 0, typed=12)
    hand(driver, token, 2, 0, typed=0)
    page = html.unescape(driver.client.get(f"/g/{token}", headers=EN).get_data(as_text=True))
    assert "Anna, round 1:</strong> 1 cross × 5 + 2 Golden 12 × −5 = −5; Happy-Man: nothing to halve" in page
    assert "Ben, round 1:</strong> Hand 12 + 2 crosses × 5 = 22" in page
    german = html.unescape(driver.client.get(f"/g/{token}", headers={"Accept-Language": "de"}).get_data(as_text=True))
    assert "1 Kreuz × 5 + 2 Goldene 12 × −5 = −5" in german and "Hand 12 + 2 Kreuze × 5 = 22" in german


@pytest.mark.parametrize(("rounding", "shown"), [("exact", "8,5"), ("floor", "8"), ("ceil", "9")])
def test_the_rounding_house_rule_shows_on_the_sheet(driver: TableDriver, rounding: str, shown: str) -> None:
    """Hand 9+8 halved shows 8,5, or 8 / 9 when the table rounds down / up."""
    token = driver.start("auruxxx", rounding=rounding)
    driver.tap(token, "happy-man", round="0", player="Cleo")
    finish(driver, token, 0, "Anna")
    hand(driver, token, 1, 0, typed=0)
    hand(driver, token, 2, 0, cards="n9 n8")
    assert sheet_cells(driver.client.get(f"/g/{token}")) == ["−5", "0", shown]


# --- End of the game and rematch -------------------------------------------------------------------


def test_after_three_rounds_the_winners_are_shown(driver: TableDriver, token: str) -> None:
    """Once the 3rd round is scored the sheet names the winner and offers a rematch instead of taps."""
    play_worked_game(driver, token)
    response = driver.client.get(f"/g/{token}", headers=EN)
    page = response.get_data(as_text=True)
    assert re.search(r'<p class="result-title">Winner</p>\s*<p class="result-names">Cleo</p>', page)
    assert re.search(r'<td class="total winner" data-seat="\d">18.5</td>', page)
    assert f'action="/g/{token}/rematch"' in page
    assert f'action="/g/{token}/pass"' not in page and "Round 3 of 3" not in page


def test_equal_totals_share_the_win(driver: TableDriver) -> None:
    """Two players on the same lowest total both win: 20 − 5 + 15 = 30 and −5 + 25 + 10 = 30."""
    token = driver.start("auruxxx", ["Anna", "Ben"])
    for round_, finisher, other, typed in ((0, "Ben", 0, 20), (1, "Anna", 1, 25)):
        finish(driver, token, round_, finisher)
        hand(driver, token, other, round_, typed=typed)
    for _ in range(3):
        driver.tap(token, "pass", round="2", player="Ben")
    finish(driver, token, 2, "Ben")
    hand(driver, token, 0, 2, typed=15)
    response = driver.client.get(f"/g/{token}", headers=EN)
    page = response.get_data(as_text=True)
    assert re.search(r'<p class="result-title">Winners</p>\s*<p class="result-names">Anna · Ben</p>', page)
    assert sheet_cells(response) == ["20", "−5", "−5", "25", "15", "10"]
    assert sheet_totals(response) == ["30", "30"]


def test_rematch_starts_the_same_table_again_with_the_deal_moved_on(driver: TableDriver, plain_app: Flask) -> None:
    """A rematch keeps players and house rules, moves the first dealer on by 3 seats and links the games."""
    token = driver.start("auruxxx", ["Anna", "Ben", "Cleo", "Dora"], dealer="2", rounding="ceil")
    response = driver.client.post(f"/g/{token}/rematch")
    assert response.status_code == 303
    new_token = str(response.headers["Location"]).removeprefix("/g/")
    assert new_token != token and len(new_token) >= 32
    with plain_app.app_context():
        old = db.session.scalar(select(Game).where(Game.token == token))
        new = db.session.scalar(select(Game).where(Game.token == new_token))
        assert old is not None and new is not None
        assert new.player_names == old.player_names == ("Anna", "Ben", "Cleo", "Dora")
        assert new.options["house_rules"] == old.options["house_rules"] and new.options["house_rules"]["rounding"] == "ceil"
        assert (old.options["first_dealer"], new.options["first_dealer"]) == (2, (2 + 3) % 4)
        assert new.previous_id == old.id
        assert stored_events(new) == []
        watch_old = old.read_token
    page = driver.client.get(f"/g/{new_token}", headers=EN).get_data(as_text=True)
    assert "Earlier games at this table" in page and f'href="/g/{watch_old}"' in page
    assert f'href="/g/{token}"' not in page, "an earlier game is linked read-only"
    assert "Ben deals, Cleo starts" in page


def test_rematch_of_a_rematch_lists_the_whole_evening(driver: TableDriver) -> None:
    """The third game of an evening lists both earlier games; two players wrap the dealer round."""
    first = driver.start("auruxxx", ["Anna", "Ben"], dealer="1")
    second = str(driver.client.post(f"/g/{first}/rematch").headers["Location"]).removeprefix("/g/")
    third = str(driver.client.post(f"/g/{second}/rematch").headers["Location"]).removeprefix("/g/")
    page = driver.client.get(f"/g/{third}", headers=EN).get_data(as_text=True)
    with driver.client.application.app_context():
        watch = [db.session.scalar(select(Game.read_token).where(Game.token == t)) for t in (first, second)]
    assert f'href="/g/{watch[0]}"' in page and f'href="/g/{watch[1]}"' in page
    assert "Anna deals, Ben starts" in driver.client.get(f"/g/{second}", headers=EN).get_data(as_text=True)
    assert "Ben deals, Anna starts" in page


# --- Correcting a finished round ---------------------------------------------------------------------


def play_two_rounds(driver: TableDriver, token: str) -> None:
    """Round 1: Cleo holds the figure, Ben ends it, hands 20 and 17; round 2: Anna ends it, hands 10 and 30."""
    driver.tap(token, "happy-man", round="0", player="Cleo")
    finish(driver, token, 0, "Ben")
    hand(driver, token, 0, 0, typed=20)
    hand(driver, token, 2, 0, cards="n9 n8")
    finish(driver, token, 1, "Anna")
    hand(driver, token, 1, 1, typed=10)
    hand(driver, token, 2, 1, typed=30)


def seen_of(response: TestResponse) -> str:
    """Return the history position a correction form was filled in at."""
    found = re.search(r'name="seen" value="(\d+)"', response.get_data(as_text=True))
    assert found is not None
    return found.group(1)


def correction(seen: str, **changes: str) -> dict[str, str]:
    """Return the correction form of round 1 of ``play_two_rounds`` as shown, with some fields changed."""
    form = {
        "seen": seen,
        "finisher": "Ben",
        "golden12": "1",
        "happy_man": "Cleo",
        "passes-0": "0",
        "passes-1": "0",
        "passes-2": "0",
        "hand-0": "20",
        "hand-1": "",
        "hand-2": "17",
    }
    return {**form, **changes}


def test_correction_form_is_shown_for_a_finished_round(driver: TableDriver, token: str) -> None:
    """The correction form of round 1 is filled in with the round as it stands, page or ``#correct`` fragment."""
    play_two_rounds(driver, token)
    response = driver.client.get(f"/g/{token}/rounds/1/correct", headers=EN)
    assert response.status_code == 200
    assert_page(response, "correct")
    page = response.get_data(as_text=True)
    assert "Correct round 1" in page and seen_of(response) == "7"
    assert 'name="finisher" value="Ben" checked' in page and 'name="happy_man" value="Cleo" checked' in page
    assert re.search(r'name="hand-2"[^>]*value="17"', page)
    fragment = driver.client.get(f"/g/{token}/rounds/2/correct", headers=HTMX)
    assert fragment.status_code == 200
    assert_fragment(fragment, "correct")


def test_correction_form_takes_a_cross_or_the_figure_from_its_query_string(driver: TableDriver, token: str) -> None:
    """A link may fill in one change (a cross, the figure) over the stored round; anything else in it is left out."""
    play_two_rounds(driver, token)
    asked = driver.client.get(f"/g/{token}/rounds/1/correct?passes-1=2&happy_man=Anna", headers=EN)
    assert asked.status_code == 200
    page = asked.get_data(as_text=True)
    assert 'name="happy_man" value="Anna" checked' in page
    assert re.search(r'name="passes-1" value="2"[^>]*checked', page)
    assert re.search(r'name="passes-0" value="0"[^>]*checked', page), "the rest is as stored"
    assert "Filled in with the change that was not counted" in page
    assert driver.events(token)[-1][0] == "hand", "a link stores nothing"
    for hostile in ("passes-1=9", "passes-1=%C2%B2", "passes-1=" + "9" * 40, "happy_man=Zoe", "passes-7=1", "finisher=Anna", "hand-0=99"):
        ignored = driver.client.get(f"/g/{token}/rounds/1/correct?{hostile}", headers=EN)
        assert ignored.status_code == 200, hostile
        text = ignored.get_data(as_text=True)
        assert "Filled in with the change" not in text, hostile
        assert 'name="happy_man" value="Cleo" checked' in text and 'name="finisher" value="Ben" checked' in text


def test_a_tap_refused_for_a_finished_round_links_its_correction_filled_in_with_it(driver: TableDriver, token: str) -> None:
    play_two_rounds(driver, token)
    for route, field, link in (
        ("pass", {"player": "Ben"}, f"/g/{token}/rounds/1/correct?passes-1=1"),
        ("happy-man", {"player": "Anna"}, f"/g/{token}/rounds/1/correct?happy_man=Anna"),
    ):
        refused = driver.post(token, route, headers={**EN, "HX-Request": "true"}, round="0", **field)
        assert refused.status_code == 422
        page = refused.get_data(as_text=True)
        assert f'<a class="fix" href="{link}">Correct round 1 with it</a>' in page
    for _ in range(3):
        driver.tap(token, "pass", round="2", player="Ben")
    fourth = driver.post(token, "pass", headers={**EN, "HX-Request": "true"}, round="2", player="Ben")
    assert fourth.status_code == 422
    assert 'class="fix"' not in fourth.get_data(as_text=True), "the round being played has no correction"


@pytest.mark.parametrize("number", [0, 2, 3, 4])
def test_correction_of_a_round_not_finished_is_not_found(driver: TableDriver, token: str, number: int) -> None:
    """Only finished rounds can be corrected: any other number is a missing page, for GET and POST."""
    driver.tap(token, "happy-man", round="0", player="Cleo")
    finish(driver, token, 0, "Ben")
    hand(driver, token, 0, 0, typed=20)
    hand(driver, token, 2, 0, typed=17)
    before = driver.events(token)
    assert driver.client.get(f"/g/{token}/rounds/{number}/correct").status_code == 404
    assert driver.client.post(f"/g/{token}/rounds/{number}/correct", data=correction("4")).status_code == 404
    assert driver.events(token) == before


def test_correction_changes_the_round_and_recomputes_later_rounds(driver: TableDriver, token: str) -> None:
    """Giving round 1's figure to Anna changes round 1 and, carried on, round 2 as well."""
    play_two_rounds(driver, token)
    assert sheet_cells(driver.client.get(f"/g/{token}", headers=EN)) == ["20", "−5", "8.5", "−5", "10", "15"]
    response = driver.client.post(f"/g/{token}/rounds/1/correct", data=correction("7", happy_man="Anna"), headers=EN)
    assert response.status_code == 303 and response.headers["Location"] == f"/g/{token}"
    kind, payload = driver.events(token)[-1]
    assert kind == "correct_round" and payload["round"] == 0
    assert payload["record"]["happy_man"] == "Anna" and payload["record"]["finisher"] == "Ben"
    assert payload["record"]["hands"]["Cleo"] == {**EMPTY_CARDS, "numbers": [9, 8]}  # unchanged total keeps the cards
    assert payload["record"]["hands"]["Anna"] == {"points": 20}
    rounds = driver.table(token).game.rounds
    assert [r.happy_man for r in rounds] == ["Anna", "Anna"]
    assert sheet_cells(driver.client.get(f"/g/{token}", headers=EN)) == ["10", "−5", "17", "−5", "10", "30"]


def test_correction_under_htmx_navigates_back_to_the_sheet(driver: TableDriver, token: str) -> None:
    """htmx gets 204 with ``HX-Redirect`` after a saved correction."""
    play_two_rounds(driver, token)
    response = driver.client.post(f"/g/{token}/rounds/1/correct", data=correction("7", **{"hand-0": "21"}), headers=HTMX)
    assert response.status_code == 204 and response.headers["HX-Redirect"] == f"/g/{token}"


def test_the_409_page_keeps_what_the_loser_typed(driver: TableDriver, token: str) -> None:
    """Issue 12, item 11: two phones correct round 1 from one form; the second gets 409, its entries, and the round now."""
    play_two_rounds(driver, token)
    seen = seen_of(driver.client.get(f"/g/{token}/rounds/1/correct"))
    first = driver.client.post(f"/g/{token}/rounds/1/correct", data=correction(seen, **{"hand-0": "22"}))
    assert first.status_code == 303
    before = driver.events(token)
    second = driver.post(token, "rounds/1/correct", **correction(seen, happy_man="Anna", **{"hand-0": "30", "passes-2": "2"}))
    assert second.status_code == 409
    assert_page(second, "correct")
    assert driver.problems() == [
        "Someone else changed this round meanwhile. What you entered is still in the form; "
        "compare it with how the round stands now and save again."
    ]
    page = second.get_data(as_text=True)
    assert re.search(r'name="hand-0"[^>]*value="30"', page)
    assert 'name="happy_man" value="Anna" checked' in page and 'name="passes-2" value="2" checked' in page
    stands_now = re.search(r'<section class="stands-now".*?</section>', page, re.S)
    assert stands_now is not None
    now = html.unescape(stands_now.group(0))
    assert "Ended by Ben with 1 Golden 12; Happy-Man figure: Cleo." in now
    assert re.search(r"<th scope=\"row\">Anna</th><td>0</td><td>22</td>", now)
    assert seen_of(second) == str(len(before))
    assert driver.events(token) == before
    again = driver.client.post(f"/g/{token}/rounds/1/correct", data=correction(seen_of(second), happy_man="Anna", **{"hand-0": "30"}))
    assert again.status_code == 303
    assert driver.events(token)[-1][1]["record"]["hands"]["Anna"] == {"points": 30}


def test_a_correction_of_another_round_meanwhile_is_no_conflict(driver: TableDriver, token: str) -> None:
    """Taps and corrections elsewhere since the form was opened do not block a correction of round 1."""
    play_two_rounds(driver, token)
    seen = seen_of(driver.client.get(f"/g/{token}/rounds/1/correct"))
    driver.tap(token, "pass", round="2", player="Ben")
    round_two = {
        "seen": seen,
        "finisher": "Anna",
        "golden12": "1",
        "happy_man": "Cleo",
        "passes-0": "0",
        "passes-1": "0",
        "passes-2": "0",
        "hand-1": "11",
        "hand-2": "30",
    }
    assert driver.client.post(f"/g/{token}/rounds/2/correct", data=round_two).status_code == 303
    response = driver.client.post(f"/g/{token}/rounds/1/correct", data=correction(seen, **{"hand-0": "22"}))
    assert response.status_code == 303
    assert [kind for kind, _ in driver.events(token)[-3:]] == ["pass", "correct_round", "correct_round"]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"golden12": "9"}, "The deck has only 5 Golden 12 (got 9)"),
        ({"passes-0": "4"}, "at most 3 passes per round (got 4)"),
    ],
    ids=["golden12 9", "4 passes"],
)
def test_an_illegal_correction_is_refused(driver: TableDriver, token: str, changes: dict[str, str], message: str) -> None:
    """A correction the rules refuse answers 422 with the message, keeps what was typed, and writes nothing."""
    play_two_rounds(driver, token)
    before = driver.events(token)
    response = driver.post(token, "rounds/1/correct", **correction("7", **changes))
    assert response.status_code == 422
    assert_page(response, "correct")
    assert any(text.endswith(message) for text in driver.problems()), driver.problems()
    assert driver.events(token) == before


# --- Undo and history ----------------------------------------------------------------------------------


def test_undo_takes_back_the_named_change(driver: TableDriver, token: str) -> None:
    """The sheet's undo button names the last change; posting it stores an ``undo`` of that change."""
    driver.tap(token, "pass", round="0", player="Anna")
    driver.tap(token, "pass", round="0", player="Ben")
    page = html.unescape(driver.client.get(f"/g/{token}", headers=EN).get_data(as_text=True))
    assert 'Undo: <span class="undo-what">Round 1: pass cross for Ben</span>' in page
    assert 'name="event" value="2"' in page
    response = driver.post(token, "undo", event="2")
    assert response.status_code == 303
    assert driver.events(token)[-1] == ("undo", {"event": 2})
    current = driver.table(token).current
    assert current is not None and current.passes == {"Anna": 1}
    page = html.unescape(driver.client.get(f"/g/{token}", headers=EN).get_data(as_text=True))
    assert "Round 1: pass cross for Anna</span>" in page


def test_an_undo_names_the_event_it_undoes(driver: TableDriver, token: str) -> None:
    """Issue 12, item 13: an undo without a change, or naming one that is no longer the last, changes nothing.

    Without a change it answers 422 on the sheet; a change another phone has already
    followed with its own answers 409 with the sheet as it stands; the last one is undone.
    """
    driver.tap(token, "pass", round="0", player="Anna")
    driver.tap(token, "happy-man", round="0", player="Ben")
    before = driver.events(token)
    unnamed = driver.post(token, "undo", headers={**HTMX, **EN})
    assert unnamed.status_code == 422
    assert_fragment(unnamed, "sheet")
    assert driver.problems() == ["This undo does not say which change it takes back. Tap undo on the sheet again."]
    superseded = driver.post(token, "undo", event="1")
    assert superseded.status_code == 409
    assert_page(superseded, "sheet")
    assert driver.problems() == [
        "Someone else changed the game meanwhile, so that was no longer the last change. Nothing was undone; this is the sheet now."
    ]
    assert 'name="event" value="2"' in superseded.get_data(as_text=True)
    assert driver.events(token) == before
    assert driver.post(token, "undo", event="2").status_code == 303
    assert driver.events(token)[-1] == ("undo", {"event": 2})


@pytest.mark.parametrize(
    ("target", "message"),
    [("99", "An undo names an earlier change of this game"), ("1", "That change was already undone")],
    ids=["unknown event", "already undone"],
)
def test_undo_of_a_change_that_cannot_be_undone_is_refused(driver: TableDriver, token: str, target: str, message: str) -> None:
    """Undoing a change the game does not have, or one already undone, answers 422 and writes nothing."""
    driver.tap(token, "pass", round="0", player="Anna")
    driver.tap(token, "undo", event="1")
    before = driver.events(token)
    response = driver.post(token, "undo", event=target)
    assert response.status_code == 422
    assert any(text.endswith(message) for text in driver.problems()), driver.problems()
    assert driver.events(token) == before


def test_history_lists_the_changes_in_words_and_marks_undone_ones(driver: TableDriver, token: str) -> None:
    """The history names every change, newest first, with undone changes and undos marked."""
    driver.tap(token, "pass", round="0", player="Anna")
    driver.tap(token, "happy-man", round="0", player="Cleo")
    driver.tap(token, "undo", event="2")
    finish(driver, token, 0, "Ben", golden12=2)
    hand(driver, token, 0, 0, typed=3)
    response = driver.client.get(f"/g/{token}/history", headers=EN)
    assert response.status_code == 200
    entries = re.findall(
        r'<li class="([^"]*)">\s*<span class="seq">(\d+)</span>\s*<span class="what">(.*?)</span>',
        response.get_data(as_text=True),
    )
    assert [(cls.strip(), int(seq), html.unescape(text)) for cls, seq, text in entries] == [
        ("", 5, "Round 1: hand of Anna entered"),
        ("", 4, "Round 1: Ben ends it with 2 Golden 12"),
        ("is-undo", 3, "Change no. 2 undone"),
        ("undone", 2, "Round 1: Cleo takes the Happy-Man figure"),
        ("", 1, "Round 1: pass cross for Anna"),
    ]


def test_history_of_a_fresh_game_says_nothing_was_entered(driver: TableDriver, token: str) -> None:
    """A game without changes has an empty history page."""
    response = driver.client.get(f"/g/{token}/history", headers=EN)
    assert response.status_code == 200
    assert "Nothing has been entered yet." in response.get_data(as_text=True)


def test_a_refused_correction_keeps_what_was_typed_and_names_the_player(driver: TableDriver, plain_app: Flask, token: str) -> None:
    """After a refusal the form shows every total as typed (cards-entered hands too) and says whose field is wrong."""
    play_two_rounds(driver, token)
    form = driver.client.get(f"/g/{token}/rounds/1/correct", headers=EN)
    before = event_count(plain_app)
    response = driver.post(token, "rounds/1/correct", headers=EN, **correction(seen_of(form), **{"hand-0": "-3"}))
    assert response.status_code == 422
    assert driver.problems() == ["Anna: hand points cannot be negative (got -3)"]
    page = response.get_data(as_text=True)
    assert re.search(r'name="hand-0"[^>]*value="-3"', page) and re.search(r'name="hand-2"[^>]*value="17"', page)
    assert event_count(plain_app) == before


def test_a_blank_hand_in_a_correction_asks_for_that_players_points(driver: TableDriver, plain_app: Flask, token: str) -> None:
    """Making another player the finisher leaves the old finisher's field blank: the refusal says whose it is."""
    play_two_rounds(driver, token)
    form = driver.client.get(f"/g/{token}/rounds/1/correct", headers=EN)
    before = event_count(plain_app)
    response = driver.post(token, "rounds/1/correct", headers=EN, **correction(seen_of(form), finisher="Anna", **{"hand-1": ""}))
    assert response.status_code == 422
    assert driver.problems() == ["Ben: type the points in hand (0 for an empty hand)."]
    assert event_count(plain_app) == before
