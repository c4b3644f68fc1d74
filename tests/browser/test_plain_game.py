"""A whole plain sheet by taps on two phones: the name typed once, numbers on the keypad (a negative one), a correction and undo."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect

from tests.browser.pictures import keep_picture
from tests.browser.taps import WAIT, settled

pytestmark = pytest.mark.browser


def enter_points(page: Page, seat: int, keys: list[str], shown: str, *, shot: Path | None = None) -> None:
    """Open a player's keypad from the sheet, tap the keys one by one, check the number and save it."""
    settled(page)
    page.locator(f"#sheet a.entry[data-seat='{seat}']").tap()
    page.wait_for_url(re.compile(rf"/points/{seat}$"))
    for key in keys:
        page.locator(f"#keypad button[name=action][value='{key}']").tap()
    expect(page.locator("#keypad output.number-display")).to_have_text(shown)
    if shot is not None:
        keep_picture(page, shot, full_page=True)
    page.locator("#keypad button[value=save]").tap()
    page.wait_for_url(re.compile(r"/g/[^/]+$"))


def row(page: Page, number: int) -> list[str]:
    """Return the numbers of a closed round as the sheet shows them."""
    return page.locator("#sheet table.pad--plain tbody tr.round--done").nth(number - 1).locator("td.points").all_inner_texts()


def test_two_phones_play_a_plain_game_with_a_negative_number_a_correction_and_undo(
    browser: Browser, playwright: Playwright, live_server: str, screenshot_dir: Path
) -> None:
    """Anna starts "Wizard" over 2 rounds; Ben enters −10 on his phone; Ben corrects it to 40; an undo takes back a number of the last round."""
    phones = [browser.new_context(**playwright.devices["Pixel 7"], locale="de-DE") for _ in range(2)]
    for context in phones:
        context.set_default_timeout(WAIT)
    anna, ben = (context.new_page() for context in phones)

    anna.goto(f"{live_server}/new/plain")
    anna.locator("#game-name").fill("Wizard")
    for seat, name in enumerate(["Anna", "Ben"]):
        anna.locator("input[name=player]").nth(seat).fill(name)
    anna.locator("label.choice:has(input[name=end][value=rounds])").tap()
    anna.locator("select[name=rounds]").select_option("2")
    anna.locator("button[value=start]").click()
    anna.wait_for_url(re.compile(r"/g/[^/]+$"))
    expect(anna.locator("h1.sheet-title")).to_have_text("Wizard")
    with ben.expect_request(re.compile(r"/live\?"), timeout=WAIT):
        ben.goto(anna.url)

    enter_points(ben, 1, ["minus", "1", "0"], "−10", shot=screenshot_dir / "plain-keypad-pixel7.png")
    expect(anna.locator("#sheet a.entry[data-seat='1'] .entry-state")).to_contain_text("−10")
    enter_points(anna, 0, ["2", "0"], "20")
    for page in (anna, ben):
        expect(page.locator("#sheet table.pad--plain tbody tr.round--done")).to_have_count(1)
        assert row(page, 1) == ["20", "−10"]

    ben.locator("#sheet a.correct-link").first.tap()
    ben.wait_for_url(re.compile(r"/round/1/correct$"))
    ben.locator("#points-1").fill("40")
    ben.locator("#correct button.primary").tap()
    ben.wait_for_url(re.compile(r"/g/[^/]+$"))
    for page in (anna, ben):
        expect(page.locator("#sheet tfoot td.total")).to_have_text(["20", "40"])

    enter_points(anna, 0, ["5"], "5")
    enter_points(anna, 1, ["7"], "7")
    for page in (anna, ben):
        expect(page.locator("#sheet .result-names")).to_have_text("Ben")
        expect(page.locator("#sheet tfoot td.total")).to_have_text(["25", "47"])
    keep_picture(anna, screenshot_dir / "plain-over-pixel7.png", full_page=True)

    anna.locator("#sheet button.undo").tap()
    for page in (anna, ben):
        expect(page.locator("#sheet .result-names")).to_have_count(0)
        expect(page.locator("#sheet a.entry[data-seat='1'] .entry-state")).not_to_contain_text("7")
    enter_points(ben, 1, ["minus", "3", "0"], "−30")
    for page in (anna, ben):
        expect(page.locator("#sheet .result-names")).to_have_text("Anna")
        expect(page.locator("#sheet tfoot td.total")).to_have_text(["25", "10"])
    for context in phones:
        context.close()
