"""Hand entry on real (emulated) phones: a clash between two phones is a choice, and a reload keeps the tapped cards."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect

from tests.browser.pictures import keep_picture
from tests.browser.taps import press_at_once, start_game, type_hand

pytestmark = pytest.mark.browser


@pytest.fixture
def two_phones(browser: Browser, playwright: Playwright) -> Iterator[tuple[Page, Page]]:
    """Yield Anna's and Ben's phones (Pixel 7, German)."""
    contexts = [browser.new_context(**playwright.devices["Pixel 7"], locale="de-DE") for _ in range(2)]
    pages = [context.new_page() for context in contexts]
    yield pages[0], pages[1]
    for context in contexts:
        context.close()


def round_ended_by_ben(page: Page, base: str) -> str:
    """Start a game for Anna, Ben and Cleo and let Ben end round 1 with one Golden 12; return the sheet's address."""
    sheet = start_game(page, base, ["Anna", "Ben", "Cleo"])
    page.locator("a[href$='/finish']").first.click()
    page.wait_for_url(re.compile(r"/finish$"))
    page.locator("label.choice", has_text="Ben").click()
    page.locator("label.choice--number").first.click()
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url(sheet)
    return sheet


def tap_cards(page: Page, *faces: str) -> None:
    """Tap cards on the keypad, waiting for each to show among the entered ones."""
    for count, face in enumerate(faces, start=1):
        page.locator(".keys .key", has_text=re.compile(rf"^{re.escape(face)}$")).click()
        expect(page.locator(".entered .card")).to_have_count(count)


def test_keys_pressed_faster_than_the_server_answers_all_count(two_phones: tuple[Page, Page], live_server: str) -> None:
    """Three 7s tapped in a burst on patchy Wi-Fi: the keypad shows three 7s and 21, not one 7."""
    anna, _ = two_phones
    sheet = round_ended_by_ben(anna, live_server)
    anna.goto(f"{sheet}/hand/2")
    press_at_once(anna, ".keys button.key[value='add:n7']", 3)
    expect(anna.locator(".entered .card")).to_have_text(["7", "7", "7"])
    expect(anna.locator(".hand-total .sum")).to_have_text("21")
    anna.get_by_role("button", name="Fertig – 21 Punkte").click()
    anna.wait_for_url(sheet)


def test_a_hand_saved_on_another_phone_meanwhile_is_a_choice(two_phones: tuple[Page, Page], live_server: str, screenshot_dir: Path) -> None:
    """Anna and Ben both count Anna's hand; Ben saves first; Anna's save asks, and "replace" makes hers count."""
    anna, ben = two_phones
    sheet = round_ended_by_ben(anna, live_server)
    anna.goto(f"{sheet}/hand/0")
    tap_cards(anna, "5")
    ben.goto(f"{sheet}/hand/0")
    tap_cards(ben, "6")
    ben.get_by_role("button", name="Fertig – 6 Punkte").click()
    ben.wait_for_url(sheet)

    anna.get_by_role("button", name="Fertig – 5 Punkte").click()
    conflict = anna.locator(".conflict")
    expect(conflict).to_contain_text("Ein anderes Handy hat die Hand von Anna inzwischen gespeichert: 6 Punkte. Deine: 5 Punkte.")
    keep_picture(anna, str(screenshot_dir / "hand-1-conflict.png"), full_page=True)
    anna.get_by_role("button", name="Durch meine ersetzen").click()
    anna.wait_for_url(sheet)
    ben.goto(f"{sheet}/hand/0")
    expect(ben.locator(".entered .card")).to_have_text(["5"])


def test_cards_tapped_on_the_keypad_survive_a_reload(two_phones: tuple[Page, Page], live_server: str) -> None:
    """Three cards tapped, the page reloaded (a locked phone, a stray swipe): the cards and the sum are still there."""
    anna, _ = two_phones
    sheet = round_ended_by_ben(anna, live_server)
    anna.goto(f"{sheet}/hand/2")
    tap_cards(anna, "7", "11", "50")
    anna.reload()
    expect(anna.locator(".entered .card")).to_have_text(["7", "11", "50"])
    expect(anna.locator(".hand-total .sum")).to_have_text("68")
    expect(anna.locator(".note")).to_contain_text("Noch nicht gespeichert")
    anna.get_by_role("button", name="Fertig – 68 Punkte").click()
    anna.wait_for_url(sheet)
    anna.goto(f"{sheet}/hand/2")
    expect(anna.locator(".note")).to_have_count(0)


def test_a_keypad_left_open_while_another_phone_closes_the_round_says_so_and_leads_back_to_the_live_sheet(
    two_phones: tuple[Page, Page], live_server: str, screenshot_dir: Path
) -> None:
    """Ben taps 7 on Anna's keypad; Anna's phone saves the last hands, closing round 1; Ben's next key is told, not swallowed."""
    anna, ben = two_phones
    sheet = round_ended_by_ben(anna, live_server)
    ben.goto(f"{sheet}/hand/0")
    tap_cards(ben, "7")
    type_hand(anna, 2, 3)
    type_hand(anna, 0, 5)
    expect(anna.locator("#sheet tr.round--current th .round-number")).to_have_text("2")

    ben.locator(".keys .key", has_text=re.compile(r"^4$")).click()
    closed = ben.locator("#keypad .keypad-closed")
    expect(closed).to_contain_text("nicht gespeichert")
    expect(closed).to_contain_text("7, 4")
    expect(closed).to_contain_text("Ein anderes Handy hat die Hand von Anna als 5 Punkte gespeichert.")
    expect(ben.locator("#keypad .keys")).to_have_count(0)
    expect(ben.locator("h1")).to_have_text("Hand von Anna")
    keep_picture(ben, str(screenshot_dir / "hand-2-round-closed-meanwhile.png"), full_page=True)
    closed.get_by_role("link", name="Zum Blatt, wie es jetzt steht").click()
    ben.wait_for_url(sheet)
    anna.locator("#sheet tr.round--current .pass-boxes").nth(1).click()
    expect(ben.locator("#sheet tr.round--current .pass-boxes").nth(1).locator(".box.crossed")).to_have_count(1)
