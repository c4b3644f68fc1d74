"""Every phone at the table shows a tap made on another within a second, without a reload."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, expect

from tests.browser.taps import start_game

pytestmark = pytest.mark.browser


def test_a_tap_on_one_phone_shows_on_the_other(
    browser: Browser, playwright: Playwright, live_server: str, screenshot_dir: Path
) -> None:
    """Ben's phone sees Anna's pass cross and the Happy-Man change without reloading, and keeps its own state."""
    phones = [browser.new_context(**playwright.devices["Pixel 7"], locale="de-DE") for _ in range(2)]
    anna, ben = (context.new_page() for context in phones)
    sheet = start_game(anna, live_server, ["Anna", "Ben", "Cleo"])
    ben.goto(sheet)
    ben.wait_for_timeout(300)

    anna.locator(".pass-boxes").first.click()
    expect(ben.locator(".pass-boxes").first.locator(".box.crossed")).to_have_count(1, timeout=1000)

    anna.locator(".give-figure").nth(2).click()
    expect(ben.locator(".holder")).to_have_count(1, timeout=1000)
    ben.screenshot(path=str(screenshot_dir / "live-second-phone.png"), full_page=True)

    ben.locator(".pass-boxes").nth(1).click()
    expect(anna.locator(".pass-boxes").nth(1).locator(".box.crossed")).to_have_count(1, timeout=1000)
    for context in phones:
        context.close()
