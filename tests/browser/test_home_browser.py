"""The front page on a real phone-sized Chromium."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pictures import keep_picture

pytestmark = pytest.mark.browser


def test_home_on_a_phone(live_server: str, phone: Page, screenshot_dir: Path) -> None:
    phone.goto(live_server + "/")
    expect(phone.locator("html")).to_have_attribute("lang", "de")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Der Spielblock für euren Kartentisch")
    expect(phone.get_by_role("heading", name="AURUXXX – Die Goldene Zwölf")).to_be_visible()
    expect(phone.get_by_role("heading", name="12 Days")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    keep_picture(phone, screenshot_dir / "home-de-pixel7.png", full_page=True)

    phone.get_by_role("link", name="EN", exact=True).tap()
    expect(phone.locator("html")).to_have_attribute("lang", "en")
    expect(phone.get_by_role("heading", level=1)).to_have_text("The score pad for your card table")
    expect(phone.get_by_role("heading", name="12 Days")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    keep_picture(phone, screenshot_dir / "home-en-pixel7.png", full_page=True)


def test_tap_targets_are_large_enough(live_server: str, phone: Page) -> None:
    phone.goto(live_server + "/")
    for link in phone.get_by_role("link").all():
        box = link.bounding_box()
        assert box is not None
        assert box["width"] >= 44 and box["height"] >= 44, link.inner_text()


def test_no_sideways_scrolling_on_a_small_phone(live_server: str, phone: Page) -> None:
    phone.set_viewport_size({"width": 360, "height": 740})
    for language in ("de", "en"):
        phone.goto(f"{live_server}/lang/{language}")
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_htmx_is_loaded(live_server: str, phone: Page) -> None:
    phone.goto(live_server + "/")
    phone.wait_for_load_state("load")
    assert re.match(r"4\.", phone.evaluate("window.htmx.version"))
