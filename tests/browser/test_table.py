"""One table, one flow, on real (emulated) phones and a 1920×1080 TV: the table card, rematches, the TV.

The table card is photographed and its QR code read back, as a phone's camera would.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect

from tests.browser.pictures import keep_picture
from tests.browser.taps import WAIT
from tests.browser.test_join import open_live, scan
from tests.examples import finished_auruxxx, twelve_days

pytestmark = pytest.mark.browser

LIVE_MS = WAIT


@pytest.fixture
def phones(browser: Browser, playwright: Playwright) -> Iterator[list[Page]]:
    """Yield four phones (Pixel 7, German), each with its own cookies."""
    contexts: list[BrowserContext] = [browser.new_context(**playwright.devices["Pixel 7"], locale="de-DE") for _ in range(4)]
    yield [context.new_page() for context in contexts]
    for context in contexts:
        context.close()


def imported(page: Page, base: str, record: dict[str, object]) -> str:
    """Import a finished game's record and return its sheet's address."""
    answer = page.request.post(f"{base}/import", data=json.dumps(record), headers={"Content-Type": "application/json"})
    assert answer.status == 201, answer.text()
    return str(answer.json()["location"])


def test_the_table_card_opens_the_current_game_mid_game_and_after_a_rematch(
    live_server: str, phones: list[Page], screenshot_dir: Path
) -> None:
    """Print the card once: Ben scans it on the old game, asked nothing there, and follows the rematch by himself; Cleo scans it mid-rematch."""
    anna, ben, cleo, onlooker = phones
    first = imported(anna, live_server, finished_auruxxx())
    anna.goto(f"{first}/join")
    anna.get_by_role("link", name="Tischkarte drucken").click()
    anna.wait_for_url(re.compile(r"/table-card$"))
    card = anna.locator(".table-card")
    expect(card.locator(".table-card-name")).to_have_text("Anna · Ben · Cleo")
    table = scan(card.locator("figure.qr"), screenshot_dir / "table-1-card.png")
    assert re.fullmatch(rf"{re.escape(live_server)}/t/[^/]+", table)
    anna.emulate_media(media="print")
    keep_picture(anna, str(screenshot_dir / "table-2-card-printed.png"))
    anna.emulate_media(media="screen")

    open_live(ben, table)
    assert ben.url == first
    expect(ben.locator("#sheet .result")).to_be_visible()
    expect(ben.locator(".seat-ask")).to_have_count(0)  # a finished game asks nobody who holds the phone; its rematch does
    anna.goto(f"{first}/join")
    watch = (anna.locator("details.watch p.address a").first.text_content() or "").strip()
    open_live(onlooker, watch)
    open_live(anna, first)
    anna.get_by_role("button", name="Revanche – dieselben Spieler noch mal").click()
    anna.wait_for_url(lambda url: url != first and "/g/" in url)
    second = anna.url

    ben.wait_for_url(second, timeout=LIVE_MS)  # the phone follows the rematch by itself, as the TV does
    expect(ben.locator("button.pass-boxes")).to_have_count(3)
    with ben.expect_request(re.compile(r"/live\?"), timeout=LIVE_MS):
        ben.get_by_role("button", name="Ich bin Ben").click()
    expect(ben.locator("body")).to_have_attribute("data-my-seat", "1")
    expect(ben.locator(".seat-line")).to_contain_text("Ben")
    keep_picture(ben, str(screenshot_dir / "table-3-rematch-followed.png"), full_page=True)

    onlooker.wait_for_url(lambda url: url != watch and "/g/" in url, timeout=LIVE_MS)
    assert onlooker.url != second, "read-only stays read-only"
    expect(onlooker.locator(".pad")).to_be_visible()
    assert onlooker.locator("button.pass-boxes").count() == 0

    open_live(cleo, table)
    assert cleo.url == second, "scanned mid-game, the card opens the rematch"
    cleo.locator("button.pass-boxes").first.click()
    expect(anna.locator(".pass-boxes").first.locator(".box.crossed")).to_have_count(1, timeout=LIVE_MS)
    expect(anna.locator(".earlier a")).to_have_count(1)


def test_two_phones_tapping_rematch_at_once_start_one_game(live_server: str, phones: list[Page]) -> None:
    """Both buttons are tapped before either answer arrives: both phones land in the same new game."""
    anna, ben = phones[:2]
    first = imported(anna, live_server, twelve_days(hands=True))
    for page in (anna, ben):
        # No live stream: the first rematch's push would take a phone to the new game before its own tap is sent.
        page.route(re.compile(r"/live\?"), lambda route: route.abort())
        page.goto(first)
    for page in (anna, ben):
        expect(page.get_by_role("button", name="Revanche – dieselben Spieler noch mal")).to_be_visible()
    for page in (anna, ben):  # both sent before either answer (or the live update it causes) arrives
        # Sent from a task of the page's own: the navigation it starts may not end the evaluation that asks for it.
        page.evaluate("setTimeout(() => document.querySelector(\"form[action$='/rematch']\").requestSubmit())")
    for page in (anna, ben):
        page.wait_for_url(lambda url: url != first and "/g/" in url)
    assert anna.url == ben.url
    second = anna.url
    anna.goto(first)
    expect(anna.locator(".rematch-notice a")).to_have_attribute("href", second.removeprefix(live_server))
    expect(anna.get_by_role("button", name="Revanche – dieselben Spieler noch mal")).to_have_count(0)


def test_the_tv_shows_the_whole_sheet_large_with_the_code_and_follows_the_table(
    browser: Browser, live_server: str, phones: list[Page], screenshot_dir: Path
) -> None:
    """At 1920×1080 nothing scrolls, the totals are large, round, holder and code are in view; taps and a rematch reach it live.

    Between two games (a finished game, no rematch yet) the TV shows the result with the evening's standings.
    """
    anna = phones[0]
    first = imported(anna, live_server, finished_auruxxx())
    anna.goto(f"{first}/join")
    tv_address = (anna.locator("details.watch p.address a").nth(1).text_content() or "").strip()
    table = (anna.locator("p.address a").first.text_content() or "").strip()
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="de-DE")
    tv = context.new_page()
    try:
        open_live(tv, tv_address)
        expect(tv.locator("body.on-tv")).to_have_count(1)
        expect(tv.locator(".evening--tv h1")).to_contain_text("Ben")  # between two games: the result and the evening
        assert scan(tv.locator(".tv-join figure.qr"), screenshot_dir / "tv-1-code.png") == table
        keep_picture(tv, str(screenshot_dir / "tv-2-result-1920.png"))
        open_live(anna, first)
        anna.get_by_role("button", name="Revanche – dieselben Spieler noch mal").click()
        anna.wait_for_url(lambda url: url != first and "/g/" in url)
        expect(tv.locator(".status")).to_contain_text("Runde 1 von 3", timeout=LIVE_MS)
        anna.locator(".give-figure").nth(2).click()
        expect(tv.locator(".holder img")).to_have_attribute("alt", re.compile("Cleo"), timeout=LIVE_MS)
        expect(tv.locator(".holder-line")).to_have_text("Cleo hat die Happy-Man-Figur")
        sizes = tv.evaluate(
            "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight,"
            " innerWidth, innerHeight, parseFloat(getComputedStyle(document.querySelector('.total')).fontSize)]"
        )
        assert sizes[0] <= sizes[2] and sizes[1] <= sizes[3], f"the TV scrolls: {sizes}"
        assert sizes[4] >= 40, "the totals are not large"
        expect(tv.locator(".tv-join figure.qr")).to_be_in_viewport()
        keep_picture(tv, str(screenshot_dir / "tv-3-rematch-1920.png"))

        days = imported(anna, live_server, twelve_days(hands=True))
        anna.goto(f"{days}/join")
        tv.goto((anna.locator("details.watch p.address a").nth(1).text_content() or "").strip())
        expect(tv.locator(".evening--tv h1")).to_contain_text("Ben")
        height = tv.evaluate("[document.documentElement.scrollHeight, innerHeight]")
        assert height[0] <= height[1], f"twelve days scroll on the TV: {height}"
        keep_picture(tv, str(screenshot_dir / "tv-4-twelve-days-1920.png"))
    finally:
        context.close()
