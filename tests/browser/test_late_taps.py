"""A late tap on a real phone: a figure tap kept offline, while another phone handed the figure on, asks before it counts."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect

from tests.browser.pictures import keep_picture
from tests.browser.taps import start_game

pytestmark = pytest.mark.browser

SECONDS = 10_000


@pytest.fixture
def table(browser: Browser, playwright: Playwright, live_server: str) -> Iterator[tuple[Page, Page, str]]:
    """Yield Anna's and Ben's phones (Pixel 7, German) on a new AURUXXX sheet, Ben's live stream open, and the sheet's address."""
    phones = [browser.new_context(**playwright.devices["Pixel 7"], locale="de-DE") for _ in range(2)]
    anna, ben = (context.new_page() for context in phones)
    sheet = start_game(anna, live_server, ["Anna", "Ben", "Cleo"])
    with ben.expect_request(re.compile(r"/live\?"), timeout=SECONDS):
        ben.goto(sheet)
    yield anna, ben, sheet
    for context in phones:
        context.close()


def test_a_figure_tap_kept_offline_asks_keep_theirs_or_replace_once_it_arrives_late(
    table: tuple[Page, Page, str], screenshot_dir: Path
) -> None:
    """Issue 18, defect 3: Ben's phone taps "Ben" offline; Anna hands the figure to Cleo; online again, Ben is asked, and replaces."""
    anna, ben, _ = table
    ben.context.set_offline(True)
    ben.locator(".give-figure").nth(1).click()
    anna.locator(".give-figure").nth(2).click()
    expect(anna.locator("td .holder")).to_have_count(1, timeout=SECONDS)
    ben.context.set_offline(False)
    notice = ben.locator("#notices .notice")
    expect(notice).to_contain_text("Cleo", timeout=SECONDS)
    keep_picture(ben, str(screenshot_dir / "late-tap-choice.png"), full_page=True)
    expect(anna.locator("tr.happy-man-row td").nth(2).locator(".holder")).to_have_count(1)
    notice.get_by_role("button", name="Durch meine ersetzen").click()
    expect(anna.locator("tr.happy-man-row td").nth(1).locator(".holder")).to_have_count(1, timeout=SECONDS)
    expect(ben.locator("#notices .notice")).to_have_count(0)


def test_the_phone_on_a_replaced_address_is_told_at_once(table: tuple[Page, Page, str]) -> None:
    """Confusing spot: Anna makes new addresses; Ben's phone on the old one says so at once, before his next tap is lost."""
    anna, ben, sheet = table
    expect(ben.locator("#retired")).to_be_hidden()
    anna.goto(f"{sheet}/join")
    anna.locator("details.renew summary").click()
    anna.locator("details.renew button").click()
    anna.wait_for_url(lambda url: url != f"{sheet}/join" and url.endswith("/join"))
    expect(ben.locator("#retired")).to_be_visible(timeout=SECONDS)
    expect(ben.locator("#retired")).to_contain_text("neuen Code")


def test_the_tv_on_a_replaced_table_address_says_so_and_takes_its_dead_code_off_the_screen(
    table: tuple[Page, Page, str], browser: Browser, screenshot_dir: Path
) -> None:
    """A TV shows the code to join, which new addresses replace: it says where the new TV address is, and hides the old code."""
    anna, _, sheet = table
    anna.goto(f"{sheet}/join")
    tv_address = (anna.locator("details.watch p.address a").nth(1).text_content() or "").strip()
    screen = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="de-DE")
    tv = screen.new_page()
    with tv.expect_request(re.compile(r"/live\?"), timeout=SECONDS):
        tv.goto(tv_address)
    expect(tv.locator(".tv-join figure.qr")).to_be_visible()
    expect(tv.locator("#retired")).to_be_hidden()
    anna.locator("details.renew summary").click()
    anna.locator("details.renew button").click()
    anna.wait_for_url(lambda url: url != f"{sheet}/join" and url.endswith("/join"))
    expect(tv.locator("#retired")).to_be_visible(timeout=SECONDS)
    expect(tv.locator("#retired")).to_contain_text("Fernseher-Adresse")
    expect(tv.locator(".tv-join figure.qr")).to_be_hidden()
    keep_picture(tv, str(screenshot_dir / "tv-replaced-address.png"))
    screen.close()
