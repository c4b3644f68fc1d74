"""The 12 Days endpoints through the test client: every tap, every refusal, and what is stored."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from models import Game, db, folded
from rules import record
from rules.twelve_days.history import TwelveDaysTable
from tests.helpers import EN, HTMX_EN, PhoneClient, event_count, problems, start

PLAYERS = ["A", "B", "C"]


def post(client: FlaskClient, token: str, route: str, headers: dict[str, str] | None = None, **data: Any) -> TestResponse:
    """Post a form of the game, in English unless told otherwise."""
    return client.post(f"/g/{token}/{route}", data=data, headers=headers or EN)


def reveal_day(client: FlaskClient, token: str, day: int, *cards: str) -> None:
    """Reveal one card per player (A, B, C …) for a day; each tap must count."""
    for player, card in zip(PLAYERS, cards, strict=True):
        response = post(client, token, "card", day=str(day), player=player, card=card)
        assert response.status_code == 303, problems(response)


def stored(app: Flask, token: str) -> TwelveDaysTable:
    """Return what the game's history adds up to."""
    with app.app_context():
        game = db.session.scalars(db.select(Game).where(Game.token == token)).one()
        table = folded(game).table
        assert isinstance(table, TwelveDaysTable)
        return table


@pytest.fixture
def token(phone: PhoneClient) -> str:
    """Return a fresh standard game for A, B and C."""
    return start(phone, "12days", PLAYERS, variant="standard")


def test_a_day_resolves_when_the_last_card_is_in(plain_app: Flask, phone: PhoneClient, token: str) -> None:
    """Three cards in, the lowest single value takes the day; the sheet says how it was decided."""
    reveal_day(phone, token, 0, "3", "3", "5")
    table = stored(plain_app, token)
    assert record.scored(table.game)["result"]["rounds"] == [{"A": 0, "B": 0, "C": 1}]
    page = phone.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    assert "C wins with 5" in page and "cancelled: 3" in page


def test_a_card_tap_under_htmx_answers_with_the_sheet_fragment(phone: PhoneClient, token: str) -> None:
    """htmx gets only ``#sheet``, marked as varying with HX-Request."""
    response = post(phone, token, "card", headers=HTMX_EN, day="0", player="A", card="7")
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert "<html" not in body and 'id="sheet"' in body and "HX-Request" in response.headers["Vary"]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"player": "A", "card": "13"}, "gift cards in 12 Days go from 1 to 12 (got 13)"),
        ({"player": "A", "card": "joker"}, 'a card is a number, "santa" or "mrs_claus" (got "joker")'),
    ],
)
def test_a_card_that_does_not_exist_is_refused(
    plain_app: Flask, phone: PhoneClient, token: str, fields: dict[str, str], message: str
) -> None:
    """Only the variant's cards can be revealed; nothing is stored otherwise."""
    response = post(phone, token, "card", day="0", **fields)
    assert response.status_code == 422
    assert problems(response) == [f"A: {message}"]
    assert event_count(plain_app) == 0


def test_more_copies_than_the_deck_holds_are_refused(plain_app: Flask, phone: PhoneClient, token: str) -> None:
    """The deck has two 2s: a third on one day is refused."""
    post(phone, token, "card", day="0", player="A", card="2")
    post(phone, token, "card", day="0", player="B", card="2")
    response = post(phone, token, "card", day="0", player="C", card="2")
    assert response.status_code == 422
    assert problems(response) == ["The deck has 2 of card 2, but this day shows 3"]
    assert event_count(plain_app) == 2


def test_a_card_for_an_unknown_player_or_a_finished_day_is_refused(plain_app: Flask, phone: PhoneClient, token: str) -> None:
    """A name not at the table is a bad request; a late tap for a finished day is refused."""
    assert post(phone, token, "card", day="0", player="Z", card="3").status_code == 400
    reveal_day(phone, token, 0, "1", "2", "3")
    before = event_count(plain_app)
    late = post(phone, token, "card", day="0", player="A", card="4")
    assert late.status_code == 422
    assert problems(late) == ["Day 1 is finished; day 2 is being played"]
    assert event_count(plain_app) == before


def test_a_claus_winner_gives_the_day_to_another_player(plain_app: Flask, phone: PhoneClient, token: str) -> None:
    """The sheet asks whom to give the day to, offers only the others, and refuses the winner."""
    reveal_day(phone, token, 0, "santa", "2", "7")
    page = phone.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    assert "Who do you give the day to?" in page
    offered = re.findall(
        r'name="player" value="([^"]+)">\s*<input type="hidden" name="seen" value="\d+">\s*<button type="submit" class="gift"', page
    )
    assert offered == ["B", "C"]
    refused = post(phone, token, "gift", day="0", player="A")
    assert refused.status_code == 422
    assert problems(refused) == ["A won with a Claus card and must give the day to another player"]
    assert post(phone, token, "gift", day="0", player="C").status_code == 303
    assert record.scored(stored(plain_app, token).game)["result"]["totals"] == {"A": 0, "B": 0, "C": 1}


def test_quick_mode_and_the_pot(plain_app: Flask, phone: PhoneClient, token: str) -> None:
    """Unwon days wait in the pot, visibly, and go to the next winner with their own day."""
    assert post(phone, token, "taken", day="0", player="").status_code == 303
    assert post(phone, token, "taken", day="1", player="").status_code == 303
    page = phone.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    assert "Days 1 and 2 go to the next winner." in page
    assert post(phone, token, "taken", day="2", player="B").status_code == 303
    assert record.scored(stored(plain_app, token).game)["result"]["totals"]["B"] == 6


def test_an_unwon_last_day_is_shown_as_lost(plain_app: Flask, phone: PhoneClient, token: str) -> None:
    """Days 11 and 12 unwon: 23 points go to nobody, and the sheet says so, once."""
    for day in range(10):
        post(phone, token, "taken", day=str(day), player="A")
    post(phone, token, "taken", day="10", player="")
    post(phone, token, "taken", day="11", player="")
    page = phone.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    shown = re.sub(r'<p class="explain">.*?</p>', "", page, flags=re.S)  # each score's explanation, opened by a tap
    assert shown.count("points are lost") == 1, "the loss is said once"
    assert '<p class="latest" role="status">Day 12: nobody wins: days 11 and 12 go to nobody, 23 points are lost</p>' in shown
    assert "waits in the pot" not in page.split("Day 12:")[-1], "an unwon last day waits for nobody"
    assert record.scored(stored(plain_app, token).game)["result"]["lost"] == 23


def finish_days(client: FlaskClient, token: str) -> None:
    """Play all twelve days quickly, A taking each."""
    for day in range(12):
        assert post(client, token, "taken", day=str(day), player="A").status_code == 303


def test_the_final_hand_steppers_change_nothing_until_saved(plain_app: Flask, phone: PhoneClient, token: str) -> None:
    """+ and − only redraw the form; saving needs exactly 12 cards."""
    finish_days(phone, token)
    before = event_count(plain_app)
    response = post(phone, token, "final-hand/0", **{"count-12": "11", "action": "more:12"})
    assert response.status_code == 200 and "12 of 12 cards" in response.get_data(as_text=True)
    assert event_count(plain_app) == before
    short = post(phone, token, "final-hand/0", **{"count-12": "11", "action": "save"})
    assert short.status_code == 422
    assert problems(short) == ["A: a hand holds exactly 12 cards at the end (got 11)"]
    assert event_count(plain_app) == before


def test_final_hands_complete_the_game_with_majorities(plain_app: Flask, phone: PhoneClient, token: str) -> None:
    """All three hands in: bonuses, totals and the winner, with the majority table on the sheet."""
    finish_days(phone, token)
    assert post(phone, token, "final-hand/0", **{"count-12": "12", "action": "save"}).status_code == 303
    assert post(phone, token, "final-hand/1", **{"count-11": "11", "count-1": "1", "action": "save"}).status_code == 303
    over = post(phone, token, "final-hand/2", **{"count-10": "10", "count-1": "1", "count-9": "1", "action": "save"})
    assert over.status_code == 422
    assert problems(over) == ["The deck has 1 of card 1, but the hands hold 2"]
    assert post(phone, token, "final-hand/2", **{"count-10": "10", "count-9": "2", "action": "save"}).status_code == 303
    result = record.scored(stored(plain_app, token).game)["result"]
    assert result["complete"] is True and result["bonus"] == {"A": 12, "B": 12, "C": 19}
    page = phone.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    assert "Who holds the most?" in page and "Winner" in page


def test_a_card_refused_for_a_day_over_links_its_correction_filled_in_with_it(plain_app: Flask, phone: PhoneClient, token: str) -> None:
    """A card sent late for day 1 leads to day 1's correction with that card; a link's other wishes are left out."""
    reveal_day(phone, token, 0, "4", "7", "9")
    before = event_count(plain_app)
    late = post(phone, token, "card", headers=HTMX_EN, day="0", player="A", card="5")
    assert late.status_code == 422
    assert f'<a class="fix" href="/g/{token}/days/1/correct?card-0=5">Correct day 1 with it</a>' in late.get_data(as_text=True)
    said = json.loads(late.headers["Tischblock-Refusal"])
    assert said["fix"] == {"href": f"/g/{token}/days/1/correct?card-0=5", "text": "Correct day 1 with it"}
    assert said["reasons"] == problems(late) and said["replace"] is None
    form = phone.get(f"/g/{token}/days/1/correct?card-0=5", headers=EN).get_data(as_text=True)
    assert re.search(r'<select id="card-0".*?<option value="5" selected>', form, re.S)
    assert re.search(r'<select id="card-1".*?<option value="7" selected>', form, re.S), "the rest as stored"
    assert "Filled in with the change that was not counted" in form
    for hostile in ("card-0=99", "card-0=%00", "gift_to=Z", "card-5=4", "taken_by=A"):
        ignored = phone.get(f"/g/{token}/days/1/correct?{hostile}", headers=EN)
        assert ignored.status_code == 200, hostile
        assert "Filled in with the change" not in ignored.get_data(as_text=True), hostile
    assert event_count(plain_app) == before, "links store nothing"


def test_correcting_a_day_moves_the_pot_and_a_refusal_keeps_the_form(plain_app: Flask, phone: PhoneClient, token: str) -> None:
    """A corrected day recomputes the pot; a refused correction shows what was entered, not the old day."""
    post(phone, token, "taken", day="0", player="A")
    post(phone, token, "taken", day="1", player="B")
    form = phone.get(f"/g/{token}/days/1/correct", headers=EN)
    assert form.status_code == 200
    seen = re.search(r'name="seen" value="(\d+)"', form.get_data(as_text=True))
    assert seen is not None
    refused = post(
        phone,
        token,
        "days/1/correct",
        mode="played",
        seen=seen.group(1),
        **{"card-0": "santa", "card-1": "4", "card-2": "9", "gift_to": "A"},
    )
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert re.search(r'<option value="santa" selected>', page) and re.search(r'<option value="9" selected>', page)
    fixed = post(phone, token, "days/1/correct", mode="taken", taken_by="", seen=seen.group(1))
    assert fixed.status_code == 303
    assert record.scored(stored(plain_app, token).game)["result"]["totals"] == {"A": 0, "B": 3, "C": 0}


def test_a_stale_day_correction_is_refused_with_the_day_as_it_stands(plain_app: Flask, phone: PhoneClient, token: str) -> None:
    """Two phones correcting the same day: the second gets 409, its own entries and the day as it stands; nothing is overwritten."""
    post(phone, token, "taken", day="0", player="A")
    form = phone.get(f"/g/{token}/days/1/correct", headers=EN).get_data(as_text=True)
    seen = re.search(r'name="seen" value="(\d+)"', form)
    assert seen is not None
    assert post(phone, token, "days/1/correct", mode="taken", taken_by="B", seen=seen.group(1)).status_code == 303
    before = event_count(plain_app)
    stale = post(phone, token, "days/1/correct", mode="played", seen=seen.group(1), **{"card-0": "4", "card-1": "7", "card-2": "9"})
    assert stale.status_code == 409
    assert problems(stale) == [
        "Someone else changed this day meanwhile. What you entered is still in the form; "
        "compare it with how the day stands now and save again."
    ]
    page = stale.get_data(as_text=True)
    assert '<option value="7" selected>' in page and 'name="mode" value="played" checked' in page
    assert "<p>Only who took it: B</p>" in page
    assert event_count(plain_app) == before
    assert record.scored(stored(plain_app, token).game)["result"]["totals"]["B"] == 1


def test_only_finished_days_can_be_corrected(phone: PhoneClient, token: str) -> None:
    """The open day and days not played yet are missing pages."""
    assert phone.get(f"/g/{token}/days/1/correct").status_code == 404


def test_eight_nights_offers_only_its_cards(phone: PhoneClient) -> None:
    """8 Nights has no Claus cards and values only up to 8."""
    token = start(phone, "12days", PLAYERS, variant="8nights")
    page = phone.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    values = set(re.findall(r'name="card" value="([^"]+)"', page))
    assert values == {str(v) for v in range(1, 9)}


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            (
                "Night 2 of 8",
                '<th scope="col" class="corner">Night</th>',
                "A takes night 1: +1",
                "Correct night 1",
                ">Nights</th>",
                "Nights 2 and 3 go to the next winner.",
                "Totals after each night",
            ),
        ),
        (
            "de",
            (
                "Nacht 2 von 8",
                '<th scope="col" class="corner">Nacht</th>',
                "A bekommt Nacht 1: +1",
                "Nacht 1 korrigieren",
                ">Nächte</th>",
                "Nächte 2 und 3",
                "Punktestand nach jeder Nacht",
            ),
        ),
    ],
)
def test_eight_nights_counts_nights(phone: PhoneClient, language: str, words: tuple[str, ...]) -> None:
    """8 Nights says nights wherever the sheet counts days: the status, the pad, the explanations, the pot and the chart."""
    token = start(phone, "12days", PLAYERS, variant="8nights")
    reveal_day(phone, token, 0, "7", "8", "8")
    page = phone.get(f"/g/{token}", headers={"Accept-Language": language}).get_data(as_text=True)
    assert all(word in page for word in words[:5]), [word for word in words[:5] if word not in page]
    shown = re.sub(r"<[^>]+>", " ", page) + " ".join(re.findall(r'(?:aria-label|data-tap|title)="([^"]*)"', page))
    assert not re.findall(r"\b(?:[Dd]ays?|Tage?|Tageskarte)\b", shown), "no day shows in 8 Nights"
    for night in (1, 2):
        assert post(phone, token, "taken", day=str(night), player="").status_code == 303
    page = phone.get(f"/g/{token}", headers={"Accept-Language": language}).get_data(as_text=True)
    assert words[5] in page and words[6] in page
    correction = phone.get(f"/g/{token}/days/1/correct", headers={"Accept-Language": language}).get_data(as_text=True)
    assert words[3] in correction and "12 Days – 8 Nights" in correction
    shown = re.sub(r"<[^>]+>", " ", correction).replace("12 Days", "")
    assert not re.findall(r"\b(?:[Dd]ays?|Tage?)\b", shown), "the correction of a night says night"


def test_a_claus_gift_with_a_pot_says_the_pot_goes_along(plain_app: Flask, phone: PhoneClient, token: str) -> None:
    """Days 1 and 2 unwon, then a Santa wins day 3: the question and the day's explanation say days 1 and 2 go with it."""
    for day in (0, 1):
        assert post(phone, token, "taken", day=str(day), player="").status_code == 303
    reveal_day(phone, token, 2, "santa", "2", "7")
    page = phone.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    assert "Who do you give the day and the pot (days 1 and 2) to?" in page
    assert post(phone, token, "gift", day="2", player="C").status_code == 303
    page = html.unescape(phone.get(f"/g/{token}", headers=EN).get_data(as_text=True))
    assert "the Claus gives it and the pot (days 1 and 2) to C; C takes days 1, 2, and 3: +6" in page


def test_the_tv_shows_the_days_to_come_as_empty_lines_and_a_phone_only_the_days_played(
    plain_app: Flask, phone: PhoneClient, token: str
) -> None:
    """The TV's pad has every day, as the paper has; a phone's sheet (and every pushed one) leaves the empty lines out."""
    reveal_day(phone, token, 0, "1", "5", "9")
    with plain_app.app_context():
        game = db.session.scalars(db.select(Game).where(Game.token == token)).one()
        watch, table = game.read_token, game.card_table.token
    later = re.compile(r'<tr class="round round--later"')
    tv = phone.get(f"/t/{table}/tv", headers=EN, follow_redirects=True).get_data(as_text=True)
    assert len(later.findall(tv)) == 11, "days 2 to 12"
    for address in (token, watch):
        assert not later.search(phone.get(f"/g/{address}", headers=EN).get_data(as_text=True))
