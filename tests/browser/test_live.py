"""Every phone at the table shows a tap made on another without a reload: the sheet is pushed, not fetched."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, Request, expect

from tests.browser.pictures import keep_picture
from tests.browser.taps import settled, start_game

pytestmark = pytest.mark.browser

SECONDS = 10_000
"""How long a phone may take to show a change; it passes as soon as the change shows."""


def test_a_tap_on_one_phone_is_pushed_to_the_other(
    browser: Browser, playwright: Playwright, live_server: str, screenshot_dir: Path
) -> None:
    """Ben's phone shows Anna's taps without asking for the sheet, and his own taps on the pushed sheet count."""
    phones = [browser.new_context(**playwright.devices["Pixel 7"], locale="de-DE") for _ in range(2)]
    anna, ben = (context.new_page() for context in phones)
    sheet = start_game(anna, live_server, ["Anna", "Ben", "Cleo"])
    with ben.expect_request(re.compile(r"/live\?"), timeout=SECONDS):
        ben.goto(sheet)
    fetched: list[Request] = []
    ben.on("request", lambda request: fetched.append(request) if request.url == sheet else None)

    anna.locator(".pass-boxes").first.click()
    expect(ben.locator(".pass-boxes").first.locator(".box.crossed")).to_have_count(1, timeout=SECONDS)

    settled(anna)  # Anna's own answer replaces her sheet; a tap must not land in between
    anna.locator(".give-figure").nth(2).click()
    expect(ben.locator(".holder")).to_have_count(1, timeout=SECONDS)
    keep_picture(ben, str(screenshot_dir / "live-second-phone.png"), full_page=True)
    assert fetched == [], "the second phone fetched the sheet instead of taking the pushed one"

    ben.locator(".pass-boxes").nth(1).click()
    expect(anna.locator(".pass-boxes").nth(1).locator(".box.crossed")).to_have_count(1, timeout=SECONDS)
    expect(ben.locator("#notices .notice")).to_have_count(0)
    for context in phones:
        context.close()


def test_the_tapping_phone_swaps_its_sheet_once_per_tap(browser: Browser, playwright: Playwright, live_server: str) -> None:
    """A tap's answer is the sheet every phone is pushed: the phone that tapped lets that push go by instead of swapping the same
    sheet in again (two swaps a tap, twice the work on a phone, and a picker opened in between snapped shut)."""
    phones = [browser.new_context(**playwright.devices["Pixel 7"], locale="de-DE") for _ in range(2)]
    anna, ben = (context.new_page() for context in phones)
    sheet = start_game(anna, live_server, ["Anna", "Ben", "Cleo"])
    with ben.expect_request(re.compile(r"/live\?"), timeout=SECONDS):
        ben.goto(sheet)
    with anna.expect_request(re.compile(r"/live\?"), timeout=SECONDS):
        anna.goto(sheet)
    anna.evaluate(
        """() => {
            window.sheetSwaps = 0;
            window.pushesHeard = 0;
            const shown = new WeakSet([document.getElementById("sheet")]);
            new MutationObserver(() => {
                const sheet = document.getElementById("sheet");
                if (sheet && !shown.has(sheet)) { shown.add(sheet); window.sheetSwaps += 1; }
            }).observe(document.body, { childList: true, subtree: true });
            document.addEventListener("htmx:sse:before:message", (event) => { if (!event.detail.message.event) window.pushesHeard += 1; });
        }"""
    )
    anna.locator(".pass-boxes").first.click()
    expect(ben.locator(".pass-boxes").first.locator(".box.crossed")).to_have_count(1, timeout=SECONDS)
    anna.wait_for_function("() => window.pushesHeard >= 1", timeout=SECONDS)
    settled(anna)
    settled(ben)
    ben.locator(".pass-boxes").nth(1).click()  # a change Anna's phone must swap in: every earlier swap is done by the time it shows
    expect(anna.locator(".pass-boxes").nth(1).locator(".box.crossed")).to_have_count(1, timeout=SECONDS)
    assert anna.evaluate("() => window.sheetSwaps") == 2, "Anna's answer, then Ben's push: her own tap's push is let go by"
    for context in phones:
        context.close()
