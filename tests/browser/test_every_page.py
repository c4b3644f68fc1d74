"""Every page of the app on a Pixel 7, in light and dark: no serious axe finding, nothing sideways, big targets, one h1, 200 % text.

The games behind the pages are built once for the module: by taps where a phone would tap,
by importing a record where a whole finished game is needed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, Playwright

from tests.browser.checks import axe_problems, enlarge_text, headings, redrawn, sideways_scroll, small_targets
from tests.browser.taps import settled, start_game
from tests.examples import finished_auruxxx, twelve_days
from tests.helpers import PLAYERS

pytestmark = pytest.mark.browser


def imported(page: Page, base: str, game: dict[str, object]) -> str:
    """Import a record and return the new game's sheet address."""
    answer = page.request.post(f"{base}/import", data=json.dumps(game), headers={"Content-Type": "application/json"})
    assert answer.status == 201, answer.text()
    return str(answer.json()["location"])


@pytest.fixture(scope="module")
def pages(browser: Browser, playwright: Playwright, live_server: str) -> Iterator[dict[str, str]]:
    """Return the address of every kind of page by what it shows, with games in the states that show each part of a sheet."""
    context = browser.new_context(**playwright.devices["Pixel 7"], locale="de-DE")
    page = context.new_page()
    base = live_server
    playing = start_game(page, base, PLAYERS)
    page.locator("button.pass-boxes").first.click()
    page.locator(".pass-boxes .box.crossed").first.wait_for()
    settled(page)
    page.locator(".give-figure").nth(2).click()
    page.locator(".holder").wait_for()
    settled(page)
    page.locator("a[href$='/finish']").first.click()
    page.wait_for_url(re.compile(r"/finish$"))
    finish = page.url
    page.locator("label.choice", has_text="Ben").click()
    page.locator("label.choice--number").first.click()
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url(playing)
    page.goto(f"{playing}/join")
    watching = (page.locator("details.watch p.address a").first.text_content() or "").strip()
    tv = (page.locator("details.watch p.address a").nth(1).text_content() or "").strip()
    over = imported(page, base, finished_auruxxx())
    page.goto(f"{over}/join")
    tv_between = (page.locator("details.watch p.address a").nth(1).text_content() or "").strip()
    days = imported(page, base, twelve_days(hands=False))
    days_over = imported(page, base, twelve_days(hands=True))
    fresh_days = start_game(page, base, ["Anna", "Ben", "Cleo", "Dora", "Emil"], kind="12days")
    entry = page.request.get(f"{base}/faq/search?game=auruxxx&q=passen", headers={"Accept": "application/json"}).json()[0]
    context.close()
    yield {
        "front page": f"{base}/",
        "new AURUXXX game": f"{base}/new/auruxxx",
        "new 12 Days game": f"{base}/new/12days",
        "import": f"{base}/import",
        "FAQ games": f"{base}/faq",
        "FAQ of AURUXXX": f"{base}/faq/auruxxx",
        "FAQ of one control": f"{base}/faq/12days?control=pot",
        "FAQ answer": f"{base}/faq/auruxxx/{entry['id']}",
        "FAQ search": f"{base}/faq/search?game=auruxxx&q=passen",
        "missing page": f"{base}/no-such-page",
        "offline page": f"{base}/offline",
        "AURUXXX round being counted": playing,
        "who ended the round": finish,
        "hand keypad": f"{playing}/hand/0",
        "join": f"{playing}/join",
        "history": f"{playing}/history",
        "read-only sheet": watching,
        "table card": f"{playing}/table-card",
        "TV": tv,
        "AURUXXX result": over,
        "round correction": f"{over}/rounds/1/correct",
        "12 Days, five players": fresh_days,
        "12 Days final hands due": days,
        "final hand": f"{days}/final-hand/0",
        "day correction": f"{days}/days/2/correct",
        "12 Days result": days_over,
        "who holds this phone": f"{playing}/me",
        "the evening": f"{over}/evening",
        "TV between two games": tv_between,
    }


def test_every_page_passes_the_phone_checks_in_light_and_dark(browser: Browser, playwright: Playwright, pages: dict[str, str]) -> None:
    """axe finds nothing serious in either colour scheme; at 360 px and at 200 % text nothing scrolls sideways."""
    context = browser.new_context(**playwright.devices["Pixel 7"], locale="de-DE", bypass_csp=True)
    page = context.new_page()
    problems: list[str] = []
    try:
        for name, url in pages.items():
            found: list[str] = []
            page.set_viewport_size({"width": 412, "height": 839})
            page.emulate_media(color_scheme="light")
            page.goto(url)
            found += axe_problems(page)
            page.emulate_media(color_scheme="dark")
            found += [f"dark: {problem}" for problem in axe_problems(page, rules=("color-contrast",))]
            found += headings(page) + small_targets(page)
            page.set_viewport_size({"width": 360, "height": 740})
            redrawn(page)
            found += [f"360 px: {problem}" for problem in sideways_scroll(page)]
            page.set_viewport_size({"width": 412, "height": 839})
            enlarge_text(page)
            found += [f"200 % text: {problem}" for problem in sideways_scroll(page)]
            problems += [f"{name}: {problem}" for problem in found]
    finally:
        context.close()
    assert not problems, "\n".join(problems)


FIRST_VIEW_BYTES = 60 * 1024
"""A sheet's first view (page, styles, scripts, icons; nothing cached) must stay under this, compressed as sent."""


def test_a_sheet_first_view_stays_under_60_kb(browser: Browser, playwright: Playwright, pages: dict[str, str]) -> None:
    """The five-player 12 Days sheet, the heaviest one, opened by a phone that has never seen the app.

    The browser's own resource timing says what each file cost on the wire (compressed, with
    headers) once the page has loaded; the live stream never finishes and is not counted.
    """
    context = browser.new_context(**playwright.devices["Pixel 7"], locale="de-DE")
    page = context.new_page()
    try:
        sheet = pages["12 Days, five players"]
        with page.expect_request(re.compile(r"/live\?"), timeout=10_000):
            page.goto(sheet)
        page.wait_for_load_state("load")
        entries = [
            (str(name), int(size))
            for name, size in page.evaluate(
                "performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
                ".map(entry => [entry.name, entry.transferSize])"
            )
        ]
    finally:
        context.close()
    files = {name.rsplit("/", 1)[-1].split("?")[0] for name, _ in entries}
    assert {"app.css", "htmx.min.js", "hx-sse.js", "app.js"} <= files, files
    total = sum(size for _, size in entries)
    assert total < FIRST_VIEW_BYTES, "\n".join(f"{size:>7} {name}" for name, size in entries)
