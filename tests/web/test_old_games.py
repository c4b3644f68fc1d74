"""Old games and old addresses: a game over and followed is read-only on every address, and a replaced address hands out nothing new.

A table's games follow one another; once a rematch (or another game) runs, the one before is
over for good: undo, corrections and taps on it are refused with the way to the running game.
"Make a new address" replaces the running game's edit address and the table's; an older
game's edit address from before still shows its own game, read-only, and leads nowhere newer.
"""

from __future__ import annotations

import re

from tests.helpers import HTMX_EN
from tests.web.auruxxx_states import auruxxx_over
from tests.web.driver import TableDriver


def test_a_long_table_name_sent_by_htmx_is_refused_with_the_form(driver: TableDriver) -> None:
    """Issue 18, defect 7: a name over 40 characters from the htmx form answers 422 with the form, not 500."""
    token = driver.start("auruxxx")
    refused = driver.post(token, "table-card", headers=HTMX_EN, name="K" * 41)
    assert refused.status_code == 422
    fragment = refused.get_data(as_text=True)
    assert fragment.lstrip().startswith('<section id="card"') and "name has at most 40 characters." in fragment
    with driver.app.app_context():
        assert driver.game(token).card_table.name is None


def tokens(driver: TableDriver, token: str) -> tuple[str, str]:
    """Return a game's read-only address and its table's address."""
    with driver.app.app_context():
        game = driver.game(token)
        return str(game.read_token), game.card_table.token


def rematch(driver: TableDriver, token: str) -> str:
    """Tap "rematch" on a finished game; return the edit address it leads to."""
    response = driver.post(token, "rematch")
    assert response.status_code == 303, response.status_code
    return str(response.headers["Location"]).removeprefix("/g/")


def new_address(driver: TableDriver, token: str) -> str:
    """Make new addresses from a game's join page; return the running game's new edit address."""
    response = driver.post(token, "new-address")
    assert response.status_code == 303, response.status_code
    return str(response.headers["Location"]).removeprefix("/g/").removesuffix("/join")


def finished_and_followed(driver: TableDriver) -> tuple[str, str]:
    """Return a finished AURUXXX game's edit address and its running rematch's."""
    first = auruxxx_over(driver.client)
    return first, rematch(driver, first)


def test_undo_on_a_finished_game_after_its_rematch_is_refused_with_the_way_on(driver: TableDriver) -> None:
    """Issue 18, defect 5: undo no longer reopens round 3 of a game whose rematch runs: 409, the winner stays."""
    first, second = finished_and_followed(driver)
    before = driver.events(first)
    page = driver.get(first).get_data(as_text=True)
    last = [int(seq) for seq in re.findall(r'name="event" value="(\d+)"', page)] or [len(before) - 1]
    refused = driver.post(first, "undo", event=str(last[0]))
    assert refused.status_code == 409
    answer = refused.get_data(as_text=True)
    assert "This game is over and the next one is running at this table" in answer
    assert f'href="/g/{second}"' in answer
    assert driver.events(first) == before
    assert driver.table(first).current is None, "round 3 stays finished"


def test_every_change_to_a_followed_game_is_refused_on_every_route(driver: TableDriver) -> None:
    """Corrections, keypads and taps on a game over and followed answer 409 with its sheet; nothing is stored."""
    first, second = finished_and_followed(driver)
    before = driver.events(first)
    for route, form in (
        ("rounds/1/correct", {"finisher": "Ben", "golden12": "1", "hand-0": "5", "hand-2": "5"}),
        ("pass", {"round": "2", "player": "Anna"}),
        ("happy-man", {"round": "2", "player": "Anna"}),
        ("finish", {"round": "2", "player": "Anna", "golden12": "1"}),
        ("hand/0", {"round": "2", "action": "save-points", "points": "5"}),
    ):
        refused = driver.post(first, route, headers=HTMX_EN, **form)
        assert refused.status_code == 409, route
        assert f'href="/g/{second}"' in refused.get_data(as_text=True), route
    assert driver.get(first, "rounds/1/correct").status_code == 409
    assert driver.events(first) == before


def test_the_followed_game_shows_read_only_with_one_way_to_the_running_game(driver: TableDriver) -> None:
    """Its own edit address shows the sheet without controls and says once where the game goes on."""
    first, second = finished_and_followed(driver)
    sheet = driver.get(first).get_data(as_text=True).split('id="sheet"')[1]
    assert "<form" not in sheet and "correct-link" not in sheet
    assert sheet.count("rematch-notice") == 1 and f'href="/g/{second}" data-follow' in sheet


def test_a_new_address_on_the_rematch_retires_the_old_games_address_for_handing_out(driver: TableDriver) -> None:
    """Defect 5: after new addresses on game 2, game 1's old edit address hands out none of game 2's new addresses."""
    first, second = finished_and_followed(driver)
    _, old_table = tokens(driver, second)
    renewed = new_address(driver, second)
    new_watch, new_table = tokens(driver, renewed)
    assert renewed != second and new_table != old_table
    assert driver.get(second).status_code == 404, "the old edit address of game 2 stops working"
    old_sheet = driver.get(first)
    assert old_sheet.status_code == 200, "game 1's address still shows game 1"
    for answer in (
        old_sheet,
        driver.get(first, "evening"),
        driver.get(first, "join"),
        driver.get(first, "table-card"),
        driver.post(first, "rematch"),
        driver.post(first, "next/auruxxx"),
        driver.post(first, "new-address"),
        driver.post(first, "me", name="Anna"),
    ):
        text = answer.get_data(as_text=True) + str(answer.headers.get("Location", "")) + str(answer.headers.get("HX-Redirect", ""))
        assert renewed not in text and new_table not in text, answer.request.path
    assert driver.get(first, "join").status_code == 403
    assert "Ask the table for the new code" in driver.get(first, "join").get_data(as_text=True)
    assert "ask the table for the new code" in old_sheet.get_data(as_text=True)
    assert f'href="/g/{new_watch}"' in old_sheet.get_data(as_text=True), "it may still watch the running game"


def test_a_new_address_on_a_finished_game_retires_the_running_games_address(driver: TableDriver) -> None:
    """The other way round: new addresses made on game 1 replace game 2's edit address too; its old one hands out nothing."""
    first, second = finished_and_followed(driver)
    _, old_table = tokens(driver, second)
    renewed = new_address(driver, first)
    _, new_table = tokens(driver, renewed)
    assert renewed != second and new_table != old_table
    assert driver.get(second).status_code == 404
    assert driver.post(second, "pass", round="0", player="Anna").status_code == 404
    assert driver.get(second, "join").status_code == 404
    with driver.app.app_context():
        running = driver.game(renewed)
        assert running.previous_id is not None and running.rematch is None, "the new address is the running game's"
    assert driver.get(first, "join").status_code == 403, "game 1's address was retired with it"


def test_both_games_note_the_new_addresses_so_their_streams_hear_of_it(driver: TableDriver) -> None:
    """Each game whose address changed notes it in its history (a note, never undone, no score): its streams wake."""
    first, second = finished_and_followed(driver)
    renewed = new_address(driver, second)
    assert driver.events(renewed)[-1] == ("new_addresses", {})
    assert driver.events(first)[-1] == ("new_addresses", {})
    assert "New addresses made for this table" in driver.get(renewed, "history").get_data(as_text=True)
