"""The plain sheet through the test client: starting one, the keypad, finishing, corrections, and where its name is shown."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote

from tests.helpers import phone_of
from tests.web.driver import TableDriver

WIZARD = {"name": "Wizard", "wins": "highest", "end": "rounds", "rounds": "3"}


def keyed(driver: TableDriver, token: str, seat: int, keys: str) -> Any:
    """Tap keys on a player's keypad one by one, as a phone sends them, and return the last answer."""
    opened = driver.get(token, f"points/{seat}")
    assert opened.status_code == 200
    shown = driver.context("plain/hand.html")
    typed, stored, seen = shown["typed"], shown["stored"], shown["seen"]
    for key in keys.split():
        sent = {"round": str(shown["round_index"]), "typed": typed, "seen": str(seen), "action": key, **({"stored": "1"} if stored else {})}
        answer = driver.post(token, f"points/{seat}", **sent)
        assert answer.status_code == 200, driver.problems()
        typed, stored = driver.context("plain/hand.html")["typed"], driver.context("plain/hand.html")["stored"]
    return typed, seen


def enter(driver: TableDriver, token: str, seat: int, keys: str) -> None:
    """Tap a number on a player's keypad and save it; it must count."""
    typed, seen = keyed(driver, token, seat, keys)
    round_index = driver.context("plain/hand.html")["round_index"]
    driver.hand(token, f"points/{seat}", round=str(round_index), typed=typed, seen=str(seen))


def test_the_keypad_builds_a_number_by_taps_with_a_minus_key_and_back(driver: TableDriver) -> None:
    token = driver.start("plain", **WIZARD)
    typed, _ = keyed(driver, token, 0, "1 2 3 back minus 0 0")
    assert typed == "-1200"
    assert driver.context("plain/hand.html")["number"] == "−1200"
    typed, _ = keyed(driver, token, 1, "0 0 7 minus minus")
    assert typed == "7", "leading zeros go, and a second minus turns the sign back"


def test_a_whole_game_by_keypads_closes_rounds_ends_after_its_rounds_and_names_the_winners(driver: TableDriver) -> None:
    """Rules example 1 tapped in: Anna and Ben share the win with 35."""
    token = driver.start("plain", **WIZARD)
    rounds = [("2 0", "minus 1 0", "3 0"), ("0", "4 0", "minus 2 0"), ("1 5", "5", "1 0")]
    for keys in rounds:
        for seat, number in enumerate(keys):
            enter(driver, token, seat, number)
    assert driver.events(token)[1] == ("hand", {"round": 0, "player": "Ben", "points": -10})
    record = driver.client.get(f"/g/{token}/record.json").get_json()
    assert record["result"]["totals"] == {"Anna": 35, "Ben": 35, "Cleo": 20}
    assert record["result"]["winners"] == ["Anna", "Ben"] and record["result"]["complete"] is True
    sheet = driver.get(token)
    assert sheet.status_code == 200
    shown = driver.context("plain/sheet.html")["sheet"]
    assert shown.winners == ("Anna", "Ben") and shown.open_index is None
    assert "Anna and Ben win with 35 points" in sheet.get_data(as_text=True)
    assert driver.get(token, "points/0").status_code == 303, "a game over opens no keypad"


def test_a_round_shows_who_is_still_to_enter_and_a_number_can_be_changed_before_it_closes(driver: TableDriver) -> None:
    token = driver.start("plain", **WIZARD)
    enter(driver, token, 0, "5")
    typed, _ = keyed(driver, token, 0, "")
    assert typed == "5" and driver.context("plain/hand.html")["stored"], "the keypad opens with the number saved"
    enter(driver, token, 0, "minus 6")
    driver.get(token)
    shown = driver.context("plain/sheet.html")["sheet"]
    assert shown.missing == ("Ben", "Cleo") and shown.cells[0].entered == "−6"
    assert "Still to enter: Ben, Cleo" in driver.get(token).get_data(as_text=True)
    assert driver.table(token).game.open_round == {"Anna": -6}


def test_a_number_too_large_is_refused_with_the_rules_words_and_the_keypad_as_it_was(driver: TableDriver) -> None:
    token = driver.start("plain", **WIZARD)
    answer = driver.post(token, "points/0", round="0", typed="999999", action="save")
    assert answer.status_code == 422
    assert driver.problems() == ["A round's points are a whole number from -100000 to 100000 (got 999999)"]
    assert driver.context("plain/hand.html")["typed"] == "999999"
    assert driver.events(token) == []
    assert driver.post(token, "points/0", round="0", typed="", action="save").status_code == 422
    assert driver.problems() == ["Tap the number first, then save it."]
    assert driver.post(token, "points/0", round="0", typed="1x", action="save").status_code == 422


def test_another_phone_saving_first_asks_whose_number_counts(driver: TableDriver) -> None:
    token = driver.start("plain", **WIZARD)
    typed, seen = keyed(driver, token, 0, "8")
    other = phone_of(driver.app)
    assert other.post(f"/g/{token}/points/0", data={"round": "0", "typed": "3", "action": "save"}).status_code == 303
    clash = driver.post(token, "points/0", round="0", typed=typed, seen=str(seen), action="save")
    assert clash.status_code == 409
    assert "Another phone saved 3 for Anna meanwhile. Yours: 8." in clash.get_data(as_text=True)


def test_an_open_ended_game_is_finished_by_a_tap_and_undo_reopens_it(driver: TableDriver) -> None:
    token = driver.start("plain", name="Kniffel", wins="lowest", end="open")
    assert driver.post(token, "over", round="0").status_code == 422
    assert driver.problems() == ["A game is finished after at least one round"]
    for seat, keys in enumerate(["1 2", "7", "9"]):
        enter(driver, token, seat, keys)
    driver.get(token)
    assert driver.context("plain/sheet.html")["sheet"].can_finish
    driver.tap(token, "over", round="1")
    record = driver.client.get(f"/g/{token}/record.json").get_json()
    assert record["finished"] is True and record["result"]["winners"] == ["Ben"]
    finish = max(seq for seq, (kind, _) in enumerate(driver.events(token), start=1) if kind == "finish")
    driver.tap(token, "undo", event=str(finish))
    assert driver.client.get(f"/g/{token}/record.json").get_json()["finished"] is False


def test_a_closed_round_is_corrected_and_a_bad_correction_changes_nothing(driver: TableDriver) -> None:
    token = driver.start("plain", name="Skat", wins="highest", end="target", target="50")
    for seat in range(3):
        enter(driver, token, seat, "2 0")
    form = driver.get(token, "round/1/correct")
    assert form.status_code == 200
    seen = str(driver.context("plain/correct.html")["seen"])
    assert driver.post(token, "round/1/correct", seen=seen, **{"points-0": "5", "points-1": "", "points-2": "1"}).status_code == 422
    assert driver.problems() == ["Ben: enter a number (0 if nothing)."]
    assert driver.post(token, "round/1/correct", seen=seen, **{"points-0": "60", "points-1": "0", "points-2": "0"}).status_code == 303
    assert driver.client.get(f"/g/{token}/record.json").get_json()["result"]["complete"] is True, "the correction reached the target"
    assert driver.post(token, "round/2/correct", seen=seen, **{"points-0": "1", "points-1": "1", "points-2": "1"}).status_code == 404
    assert "Round 1 corrected" in driver.get(token, "history").get_data(as_text=True)


def test_the_new_game_form_asks_the_name_and_refuses_none_and_offers_the_names_played_before(driver: TableDriver) -> None:
    page = driver.client.get("/new/plain", headers=driver.headers).get_data(as_text=True)
    assert 'name="name"' in page and 'name="end" value="target"' in page and page.count('name="player"') == 12
    refused = driver.client.post("/new/plain", data={"player": ["Anna"], "action": "start", "name": "  "}, headers=driver.headers)
    assert refused.status_code == 422 and "the game&#39;s name cannot be empty" in refused.get_data(as_text=True)
    token = driver.start("plain", name="Wizard")
    chips = driver.client.get(f"/g/{token}/next/plain", headers=driver.headers).get_data(as_text=True)
    assert 'value="set:name=Wizard"' in chips
    chosen = driver.client.post(f"/g/{token}/next/plain", data={"player": ["Anna"], "action": "set:name=Wizard"}, headers=driver.headers)
    assert 'value="Wizard"' in chosen.get_data(as_text=True)


def test_the_games_own_name_is_what_the_sheet_evening_result_and_bgstats_link_show(driver: TableDriver) -> None:
    token = driver.start("plain", name="Wizard", end="rounds", rounds="1")
    for seat in range(3):
        enter(driver, token, seat, str(seat + 1))
    assert '<h1 class="sheet-title">Wizard</h1>' in driver.get(token).get_data(as_text=True)
    links = driver.context("plain/sheet.html")["result_links"]
    play = json.loads(unquote(links.bgstats.split("?data=", 1)[1]))
    assert play["game"]["name"] == "Wizard"
    assert "1. Wizard" in driver.get(token, "evening").get_data(as_text=True)
    picture = driver.get(token, "result.png")
    assert picture.status_code == 200 and picture.mimetype == "image/png"
    assert driver.context("result/card.svg")["title"] == "Wizard"


def test_an_export_in_the_middle_of_a_round_imports_and_plays_on(driver: TableDriver) -> None:
    token = driver.start("plain", name="Wizard")
    for seat in range(3):
        enter(driver, token, seat, "1")
    enter(driver, token, 1, "minus 4")
    exported = driver.client.get(f"/g/{token}/record.json").get_json()
    assert exported["open_round"] == {"points": {"Ben": -4}}
    imported = driver.client.post("/import", data=json.dumps(exported), content_type="application/json")
    assert imported.status_code == 201
    copy = imported.headers["Location"].rsplit("/", 1)[1]
    assert driver.client.get(f"/g/{copy}/record.json").get_json() == exported
    broken = {**exported, "rounds": [{"points": {"Anna": 1, "Ben": 1}}]}
    refused = driver.client.post("/import", data=json.dumps(broken), content_type="application/json")
    assert refused.status_code == 422 and "rounds[0].points.Cleo: is missing" in refused.get_data(as_text=True)


def test_the_sheets_rules_link_explains_the_plain_sheet_in_both_languages(driver: TableDriver) -> None:
    """The app knows no rules of the game: its FAQ page says how the sheet is used, with the way back to it."""
    token = driver.start("plain", name="Wizard")
    sheet = driver.get(token).get_data(as_text=True)
    assert "/faq/plain?" in sheet
    english = driver.client.get(f"/faq/plain?back={token}", headers={"Accept-Language": "en"})
    assert english.status_code == 200
    page = english.get_data(as_text=True)
    assert "How do I enter my points?" in page and f"/g/{token}" in page
    german = driver.client.get("/faq/plain", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Wie trage ich meine Punkte ein?" in german and "Freier Block" in german
    assert driver.client.get("/faq/chess").status_code == 404


def test_the_tv_shows_the_sheet_by_its_name_without_keypads_and_then_the_result(driver: TableDriver) -> None:
    """The table's TV shows the running plain sheet read-only, who is still to enter, and once it is over the result by the game's name."""
    token = driver.start("plain", name="Wizard", end="rounds", rounds="1")
    with driver.app.app_context():
        game = driver.game(token)
        read, table = game.read_token, game.card_table.token
    enter(driver, token, 0, "minus 5")
    tv = driver.client.get(f"/g/{read}?tv={table}", headers=driver.headers)
    page = tv.get_data(as_text=True)
    assert tv.status_code == 200 and '<h1 class="sheet-title">Wizard</h1>' in page
    assert "/points/" not in page and "Still to enter: Ben, Cleo" in page and "−5" in page
    for seat in (1, 2):
        enter(driver, token, seat, "3")
    over = driver.client.get(f"/t/{table}/tv", headers=driver.headers).get_data(as_text=True)
    assert "Wizard" in over and "Ben and Cleo win with 3 points" in over
