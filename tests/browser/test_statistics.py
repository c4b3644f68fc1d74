"""The table's statistics in Chromium after an evening of three finished games: on a Pixel 7, 360 px wide, at 200 % text, dark, and on a TV.

The evening is played through the app (two AURUXXX games and a 12 Days game, ``tests.web.evenings``);
each phone opens the statistics once, through the read-only address the sheet shares, and must
show every player's card, the chart and the records without scrolling sideways, with targets a
thumb can hit. A record leads to its game's sheet, read-only. Screenshots are kept.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, Playwright, expect

from tests.browser.checks import enlarge_text, sideways_scroll, small_targets
from tests.browser.pictures import keep_picture
from tests.browser.taps import WAIT
from tests.helpers import phone_of
from tests.web.evenings import game_of, three_games

pytestmark = pytest.mark.browser

LOOKS: dict[str, dict[str, Any]] = {
    "pixel7": {},
    "360px": {"viewport": {"width": 360, "height": 740}},
    "text200": {"enlarge": True},
    "dark": {"color_scheme": "dark"},
    "tv": {"tv": True},
}
"""How a family looks at the page: a phone, a small phone, large text, at night, and the TV on the sofa."""


@pytest.fixture(scope="module")
def statistics_address(live_app: Flask, live_server: str) -> str:
    """Play the evening of three games once (through the app, its forms posted without their CSRF token) and return its statistics."""
    client = phone_of(live_app)
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(live_app.config, "WTF_CSRF_ENABLED", False)
        games = three_games(client)
    with live_app.app_context():
        read = game_of(live_app, games[2]).read_token
    return f"{live_server}/g/{read}/statistics"


def open_look(browser: Browser, playwright: Playwright, look: str) -> Page:
    """Open a fresh German browser as this look asks: a Pixel 7 unless it is the TV."""
    options = LOOKS[look]
    if options.get("tv"):
        context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="de-DE")
    else:
        device = {**playwright.devices["Pixel 7"], "locale": "de-DE"}
        if "viewport" in options:
            device["viewport"] = options["viewport"]
        if "color_scheme" in options:
            device["color_scheme"] = options["color_scheme"]
        context = browser.new_context(**device)
    context.set_default_timeout(WAIT)
    return context.new_page()


@pytest.mark.parametrize("look", list(LOOKS))
def test_the_statistics_page_reads_at_every_size_after_three_finished_games(
    browser: Browser, playwright: Playwright, statistics_address: str, screenshot_dir: Path, look: str
) -> None:
    """Each player's card, the chart and the records show; nothing scrolls sideways; every control is thumb-sized; a record opens its game."""
    page = open_look(browser, playwright, look)
    try:
        page.goto(statistics_address)
        expect(page.locator("h1")).to_have_text("Statistik dieses Tisches")
        expect(page.locator("article.player-card")).to_have_count(3)
        expect(page.locator(".statistics-chart, .statistics-game").first).to_be_visible()
        expect(page.locator(".record-list a")).to_have_count(4)
        expect(page.locator(".player-card").first).to_contain_text("Siegquote")
        assert "Als eine Person zählen" not in page.content(), "a read-only address offers no merge"
        if LOOKS[look].get("enlarge"):
            enlarge_text(page)
        assert sideways_scroll(page) == []
        assert small_targets(page) == []
        keep_picture(page, screenshot_dir / f"statistics-{look}.png", full_page=not LOOKS[look].get("tv"))
        if look == "pixel7":
            page.locator(".record-list a").first.click()
            page.wait_for_url(lambda url: "/statistics" not in url)
            expect(page.locator("#sheet")).to_be_visible()
            expect(page.locator("button[name=player]")).to_have_count(0)
    finally:
        page.context.close()
