"""What a player reads at a glance, measured on the rendered page: counted crosses look counted however many there are,
and a pad scrolled sideways at large text stays where the thumb left it."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.checks import enlarge_text
from tests.browser.pictures import keep_picture
from tests.browser.taps import pass_cross, settled, start_game
from tests.conftest import PhoneMaker

pytestmark = pytest.mark.browser

CROSS_LOOKS = """
(box) => {
  let opacity = 1;
  for (let element = box; element; element = element.parentElement) opacity *= Number(getComputedStyle(element).opacity);
  const style = getComputedStyle(box);
  return {opacity, border: style.borderColor, background: style.backgroundImage, filter: style.filter};
}
"""
"""How a cross is drawn: its colours and how much of it shows through everything around it (opacity multiplies down the tree)."""


def cross_looks(phone: Page, seat: int) -> list[dict[str, object]]:
    """Return how each counted cross of a player in the current round is drawn."""
    boxes = phone.locator("#sheet tr.round--current .pass-boxes").nth(seat).locator(".box.crossed")
    return [boxes.nth(index).evaluate(CROSS_LOOKS) for index in range(boxes.count())]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_full_pass_row_looks_counted_like_any_other_cross(
    new_phone: PhoneMaker, live_server: str, screenshot_dir: Path, scheme: str
) -> None:
    """Anna passes three times, Ben once: her three crosses are drawn as Ben's one is, at full strength."""
    phone = new_phone(color_scheme=scheme)
    start_game(phone, live_server, ["Anna", "Ben", "Cleo"])
    pass_cross(phone, 0, 3)
    pass_cross(phone, 1)
    settled(phone)
    expect(phone.locator("#sheet tr.round--current .pass-boxes").nth(0)).to_have_class("pass-boxes full")
    ben = cross_looks(phone, 1)
    anna = cross_looks(phone, 0)
    assert [cross["opacity"] for cross in ben + anna] == [1] * 4, f"crosses show through at {[cross['opacity'] for cross in ben + anna]}"
    assert anna == ben * 3, "a full row's crosses are coloured otherwise than a single cross"
    keep_picture(phone.locator("#sheet .pad").first, str(screenshot_dir / f"legible-full-pass-row-{scheme}.png"))


SIX = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Frida"]


def test_a_pad_scrolled_sideways_at_large_text_stays_put_when_the_sheet_is_swapped_in(
    new_phone: PhoneMaker, live_server: str, screenshot_dir: Path
) -> None:
    """Six players at 200 % text: Frida's column is scrolled into view; her own cross and Ben's, pushed from his phone, leave it there."""
    phone = new_phone()
    with phone.expect_request(lambda request: "/live?" in request.url):  # the sheet's live stream, open before Ben taps
        sheet = start_game(phone, live_server, SIX)
    ben = new_phone()
    enlarge_text(phone)
    pad = phone.locator("#sheet .pad-scroll").first
    assert pad.evaluate("box => box.scrollWidth > box.clientWidth"), "at 200 % text six players' numbers need more than the screen"
    pad.evaluate("box => { box.scrollLeft = box.scrollWidth; }")
    far = pad.evaluate("box => box.scrollLeft")
    pass_cross(phone, 5)
    settled(phone)
    assert phone.locator("#sheet .pad-scroll").first.evaluate("box => box.scrollLeft") == far
    ben.goto(sheet)
    pass_cross(ben, 1)
    expect(phone.locator("#sheet tr.round--current .pass-boxes").nth(1).locator(".box.crossed")).to_have_count(1)
    assert phone.locator("#sheet .pad-scroll").first.evaluate("box => box.scrollLeft") == far
    keep_picture(phone.locator("#sheet .pad-wrap").first, str(screenshot_dir / "legible-pad-scrolled-200pct.png"))
