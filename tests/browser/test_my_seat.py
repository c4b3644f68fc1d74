"""My seat on my phone: its column framed on the sheet, and its own hand keypad one tap away, on this phone only.

The sheet every phone is pushed is the same for all; what is this phone's comes from
``<body data-my-seat>`` through the stylesheet, so a live update keeps the frame and the link.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pictures import keep_picture
from tests.browser.taps import WAIT, finish_round, start_game
from tests.conftest import PhoneMaker
from tests.helpers import PLAYERS

pytestmark = pytest.mark.browser


def framed(page: Page, seat: int) -> bool:
    """Return whether a column's heading carries this phone's frame."""
    shadow: str = page.locator(f"#sheet .pad thead [data-seat='{seat}']").evaluate("th => getComputedStyle(th).boxShadow")
    return shadow != "none"


def test_my_column_is_framed_and_my_hand_is_one_tap_away(live_server: str, new_phone: PhoneMaker, screenshot_dir: Path) -> None:
    """Ben's phone frames Ben's column and offers "Meine Karten" once Anna ends the round; a phone for everyone shows neither."""
    ben = new_phone()
    sheet = start_game(ben, live_server, PLAYERS)
    ben.get_by_role("button", name="Ich bin Ben").click()
    expect(ben.locator("body")).to_have_attribute("data-my-seat", "1")
    assert framed(ben, 1) and not framed(ben, 0) and not framed(ben, 2)
    finish_round(ben, "Anna", 1)
    mine = ben.locator(".my-hand:visible")
    expect(mine).to_have_count(1)
    expect(mine).to_have_text("Meine Karten: meine Hand eintragen")
    box = mine.bounding_box()
    assert box is not None and box["height"] >= 44
    keep_picture(ben, str(screenshot_dir / "my-seat-1-column-and-my-cards.png"), full_page=True)
    ben.emulate_media(color_scheme="dark")
    keep_picture(ben.locator("#sheet .pad-wrap"), str(screenshot_dir / "my-seat-2-column-dark.png"))
    mine.click()
    ben.wait_for_url(f"{sheet}/hand/1", timeout=WAIT)

    everyone = new_phone()
    everyone.goto(sheet)
    everyone.get_by_role("button", name="Dieses Handy ist für alle").click()
    everyone.locator("#sheet .pad").wait_for()
    expect(everyone.locator(".my-hand:visible")).to_have_count(0)
    assert not any(framed(everyone, seat) for seat in range(3))
