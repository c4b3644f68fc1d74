"""A late tap never replays an old intent: taps that move something carry the state they were made on, and keys are never made up.

A tap that moves something rather than adds (the Happy-Man figure, the round's end, a revealed
card in 12 Days, a hand) says which change its sheet showed (``seen``). If another phone moved
the same thing after that, nothing is stored and the player chooses: keep theirs, or replace it
with theirs. A form without ``seen``, or with one the game never reached, and a tap without a
usable key are refused with a reason, and store nothing.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.helpers import HTMX_EN
from tests.web.driver import TableDriver


def version(driver: TableDriver, token: str) -> str:
    """Return the game's newest change, as a sheet shown now carries it."""
    return str(len(driver.events(token)))


def test_a_held_back_happy_man_tap_does_not_take_the_figure_back(driver: TableDriver) -> None:
    """Issue 18, defect 3: A hands the figure to Cleo; B's "Ben", made before, arrives late: 409, Cleo keeps it until B replaces it."""
    token = driver.start("auruxxx")
    driver.tap(token, "pass", round="0", player="Anna")
    made_on = version(driver, token)
    driver.tap(token, "happy-man", round="0", player="Cleo")
    late = driver.post(token, "happy-man", round="0", player="Ben", seen=made_on)
    assert late.status_code == 409
    page = late.get_data(as_text=True)
    assert "Another phone handed the Happy-Man figure to Cleo meanwhile. You tapped Ben." in page
    assert "Keep theirs" in page and "Replace it with mine" in page
    assert driver.table(token).current.holder == "Cleo"
    assert driver.events(token)[-1] == ("happy_man", {"round": 0, "player": "Cleo"})
    replace = re.search(r'<form method="post" action="(/g/[^"]+/happy-man)".*?name="seen" value="(\d+)"', page, re.S)
    assert replace is not None and replace.group(2) == version(driver, token)
    driver.tap(token, "happy-man", round="0", player="Ben", seen=replace.group(2))
    assert driver.table(token).current.holder == "Ben"


def test_a_tap_about_something_else_meanwhile_leaves_the_figure_tap_valid(driver: TableDriver) -> None:
    """A pass cross on another phone moves no figure: the Happy-Man tap made before it still counts."""
    token = driver.start("auruxxx")
    made_on = version(driver, token)
    driver.tap(token, "pass", round="0", player="Anna")
    driver.tap(token, "happy-man", round="0", player="Ben", seen=made_on)
    assert driver.table(token).current.holder == "Ben"


def test_the_choice_answers_htmx_on_the_sheet(driver: TableDriver) -> None:
    """Sent by htmx (the phone's outbox), the 409 is the sheet fragment with the choice on it."""
    token = driver.start("auruxxx")
    made_on = version(driver, token)
    driver.tap(token, "happy-man", round="0", player="Cleo")
    late = driver.post(token, "happy-man", headers=HTMX_EN, round="0", player="Ben", seen=made_on)
    assert late.status_code == 409
    fragment = late.get_data(as_text=True)
    assert fragment.lstrip().startswith('<section id="sheet"') and 'class="problems conflict"' in fragment


def test_a_late_round_end_does_not_overwrite_another_phones(driver: TableDriver) -> None:
    """Two phones say who ended the round: the later one, made on the earlier state, is asked, not stored."""
    token = driver.start("auruxxx")
    made_on = version(driver, token)
    driver.tap(token, "finish", round="0", player="Ben", golden12="2")
    late = driver.post(token, "finish", round="0", player="Anna", golden12="1", seen=made_on)
    assert late.status_code == 409
    page = late.get_data(as_text=True)
    assert "Another phone said meanwhile who ended the round: Ben with 2 Golden 12. Yours: Anna with 1 Golden 12." in page
    assert re.search(r'value="Anna" checked', page), "the form keeps this phone's choice"
    current = driver.table(token).current
    assert (current.finisher, current.golden12) == ("Ben", 2)
    driver.tap(token, "finish", round="0", player="Anna", golden12="1", seen=version(driver, token))
    assert driver.table(token).current.finisher == "Anna"


def test_a_late_card_does_not_replace_the_card_another_phone_entered(driver: TableDriver) -> None:
    """12 Days: a second card for a player replaces the first, so a late one made before another phone's is asked."""
    token = driver.start("12days", variant="standard")
    made_on = version(driver, token)
    driver.tap(token, "card", day="0", player="Anna", card="7")
    late = driver.post(token, "card", day="0", player="Anna", card="3", seen=made_on)
    assert late.status_code == 409
    assert "Another phone entered 7 for Anna meanwhile. You tapped 3." in late.get_data(as_text=True)
    assert driver.table(token).current.played == {"Anna": 7}


def test_clearing_the_day_takes_back_only_the_cards_the_sheet_showed(driver: TableDriver) -> None:
    """Quick mode: a clear made before another phone revealed a card would undo a card nobody here saw: it is asked."""
    token = driver.start("12days", variant="standard")
    driver.tap(token, "card", day="0", player="Anna", card="7")
    made_on = version(driver, token)
    driver.tap(token, "card", day="0", player="Ben", card="5")
    late = driver.post(token, "clear-day", day="0", seen=made_on)
    assert late.status_code == 409
    assert driver.table(token).current.played == {"Anna": 7, "Ben": 5}


@pytest.mark.parametrize(
    ("cleared", "revealed_after"),
    [(["Anna", "Ben"], ["Cleo", "Anna"]), (["Anna", "Ben"], ["Cleo"]), (["Anna"], ["Ben", "Cleo"])],
    ids=["two cleared, two revealed after", "two cleared, one revealed after", "one cleared, two revealed after"],
)
@pytest.mark.parametrize("headers", [None, HTMX_EN], ids=["plain form", "htmx"])
def test_a_resent_clear_answers_as_the_first_did_after_another_phone_revealed_cards(
    driver: TableDriver, cleared: list[str], revealed_after: list[str], headers: dict[str, str] | None
) -> None:
    """Issue 36, R4: quick mode's clear was stored, its answer got lost, and the phone sends it again with its key after
    another phone revealed cards: it counts once and answers the sheet as it is now, never a refusal or a choice."""
    token = driver.start("12days", variant="standard")
    for player in cleared:
        driver.tap(token, "card", day="0", player=player, card="7")
    made_on = version(driver, token)
    driver.tap(token, "clear-day", day="0", seen=made_on, key="clear-1")
    for player in revealed_after:
        driver.tap(token, "card", day="0", player=player, card="5")
    before = driver.events(token)
    resent = driver.post(token, "clear-day", headers=headers, day="0", seen=made_on, key="clear-1")
    assert resent.status_code == (200 if headers else 303), driver.problems()
    assert driver.events(token) == before
    assert driver.table(token).current.played == dict.fromkeys(revealed_after, 5)


@pytest.mark.parametrize("seen", [None, "", "latest", "-1"])
def test_a_move_without_the_state_it_was_made_on_is_refused(driver: TableDriver, seen: str | None) -> None:
    """A figure tap or a hand without ``seen`` (or with one that is no number) answers 400 with a reason: no check is skipped."""
    token = driver.start("auruxxx")
    driver.tap(token, "finish", round="0", player="Ben", golden12="1")
    before = driver.events(token)
    for route, form in (
        ("happy-man", {"round": "0", "player": "Anna"}),
        ("hand/0", {"round": "0", "action": "save-points", "points": "5"}),
    ):
        refused = driver.post(token, route, seen=seen, **form)
        assert refused.status_code == 400, route
        assert "This form does not say which state of the game it was made on." in refused.get_data(as_text=True)
    assert driver.events(token) == before


@pytest.mark.parametrize("route", ["happy-man", "rounds/1/correct"])
def test_a_state_the_game_never_reached_is_refused(driver: TableDriver, route: str) -> None:
    """``seen`` beyond the newest change (999999999) answers 400, not 204 or a stored change."""
    token = driver.start("auruxxx")
    driver.tap(token, "finish", round="0", player="Ben", golden12="1")
    driver.hand(token, "hand/0", round="0", action="save-points", points="5")
    driver.hand(token, "hand/2", round="0", action="save-points", points="5")
    before = driver.events(token)
    form = {"round": "1", "player": "Anna"} if route == "happy-man" else {"finisher": "Ben", "golden12": "1", "hand-0": "5", "hand-2": "5"}
    refused = driver.post(token, route, headers=HTMX_EN, seen="999999999", **form)
    assert refused.status_code == 400
    assert "This form names a state of the game that never was." in refused.get_data(as_text=True)
    assert driver.events(token) == before


@pytest.mark.parametrize("key", ["", "k" * 65, None])
def test_a_tap_without_a_usable_key_is_refused_not_given_a_fresh_one(driver: TableDriver, key: str | None) -> None:
    """An empty, missing or over-long key answers 400 with a reason: a fresh key would count a resent tap twice."""
    token = driver.start("auruxxx")
    for _ in range(2):
        refused = driver.post(token, "pass", key=key, round="0", player="Anna")
        assert refused.status_code == 400
        assert "This tap carries no usable key" in refused.get_data(as_text=True)
    assert driver.events(token) == []


def test_every_tap_form_a_phone_is_given_carries_a_key_and_the_moves_their_state(driver: TableDriver) -> None:
    """The sheet's own page fills every key in; the page every phone shares leaves them for the phone's script (static/js/app.js)."""
    token = driver.start("auruxxx")
    page = driver.get(token).get_data(as_text=True)
    forms = re.findall(r"<form method=\"post\" action=\"/g/[^\"]+/(pass|happy-man)\".*?</form>", page, re.S)
    assert forms and all(
        re.search(r'name="key" value="[0-9a-f]{32}"', form) for form in re.findall(r"<form.*?</form>", page, re.S) if 'name="key"' in form
    )
    figure = re.findall(r'action="/g/[^"]+/happy-man".*?</form>', page, re.S)
    assert figure and all('name="seen" value="0"' in form for form in figure)


def test_the_choice_is_also_said_as_data_for_the_outbox(driver: TableDriver) -> None:
    """The 409's ``Tischblock-Refusal`` header holds the choice's words and the form "Replace it with mine" sends, made on the newest change."""
    token = driver.start("auruxxx")
    made_on = version(driver, token)
    driver.tap(token, "happy-man", round="0", player="Cleo")
    late = driver.post(token, "happy-man", headers=HTMX_EN, round="0", player="Ben", seen=made_on)
    said = json.loads(late.headers["Tischblock-Refusal"])
    assert said["reasons"] == ["Another phone handed the Happy-Man figure to Cleo meanwhile. You tapped Ben."]
    assert said["fix"] is None
    resend = said["replace"]
    assert resend["action"] == f"/g/{token}/happy-man" and (resend["label"], resend["keep"]) == ("Replace it with mine", "Keep theirs")
    fields = dict(resend["body"])
    assert (fields["round"], fields["player"], fields["seen"]) == ("0", "Ben", version(driver, token)) and fields["key"]
    driver.tap(token, "happy-man", **{name: value for name, value in fields.items() if name != "key"})
    assert driver.table(token).current.holder == "Ben"


def test_a_refusal_without_a_sheet_is_said_as_data_too(driver: TableDriver) -> None:
    """A tap refused before it reaches the rules (no usable key) answers with its reason in the header as well."""
    token = driver.start("auruxxx")
    refused = driver.post(token, "pass", headers=HTMX_EN, key="", round="0", player="Anna")
    assert refused.status_code == 400
    (reason,) = json.loads(refused.headers["Tischblock-Refusal"])["reasons"]
    assert reason.startswith("This tap carries no usable key")
