"""Several phones reveal their own card for the same 12 Days day at once; the day resolves with the last one."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect

from tests.browser.taps import WAIT, settled

pytestmark = pytest.mark.browser


def reveal(page: Page, seat: int, card: str) -> None:
    """Open one player's card picker on this phone and tap a card.

    This phone's own taps are answered first (the answer replaces the sheet). A live refresh
    already on its way when the picker opens replaces the sheet too, picker closed; then the
    picker is opened again (a person would tap it again too).
    """
    settled(page)
    picker = page.locator("details.reveal").nth(seat)
    button = picker.locator(f'input[name=card][value="{card}"] + button')
    for _ in range(3):
        if picker.get_attribute("open") is None:
            picker.locator("summary").click()
        try:
            expect(button).to_be_visible(timeout=WAIT)
        except AssertionError:
            continue
        break
    button.click()


def test_each_phone_reveals_its_own_card_and_the_day_resolves(browser: Browser, playwright: Playwright, live_server: str) -> None:
    """Anna and Ben tap on their own phones, Cleo on Anna's; both phones then show who took day 1 and why."""
    phones = [browser.new_context(**playwright.devices["Pixel 7"], locale="de-DE") for _ in range(2)]
    anna, ben = (context.new_page() for context in phones)
    anna.goto(f"{live_server}/new/12days")
    for seat, name in enumerate(["Anna", "Ben", "Cleo"]):
        anna.locator("input[name=player]").nth(seat).fill(name)
    anna.locator("button[value=start]").click()
    anna.wait_for_url(re.compile(r"/g/[^/]+$"))
    with ben.expect_request(re.compile(r"/live\?"), timeout=WAIT):
        ben.goto(anna.url)

    reveal(ben, 1, "3")
    expect(anna.locator("details.reveal").nth(1).locator(".card-face")).to_have_text("3", timeout=10_000)
    reveal(anna, 0, "3")
    expect(ben.locator("details.reveal").nth(0).locator(".card-face")).to_have_text("3", timeout=10_000)
    reveal(anna, 2, "9")

    for page in (anna, ben):
        expect(page.locator(".latest")).to_contain_text("Cleo", timeout=10_000)
        expect(page.locator("table.pad--days tbody tr.round--done").first.locator(".points")).to_have_text(["", "", "+1"])
    for context in phones:
        context.close()
