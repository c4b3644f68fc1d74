"""What a player reads at a glance, measured on the rendered page: counted crosses look counted however many there are,
a pad scrolled sideways at large text stays where the thumb left it, and a TV is read from the sofa."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.checks import enlarge_text, redrawn
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


def playing(players: list[str]) -> dict[str, object]:
    """Return an AURUXXX record in its second round: round 1's points on the pad, crosses and the figure in round 2."""
    hands = {name: {"points": 40 + 17 * seat} for seat, name in enumerate(players[1:])}
    return {
        "game": "auruxxx",
        "players": players,
        "rounds": [{"finisher": players[0], "golden12": 2, "happy_man": players[1], "passes": {players[1]: 2}, "hands": hands}],
        "open_round": {"happy_man": players[2], "passes": {players[0]: 3, players[1]: 1}},
    }


TV_LEGIBLE = """
() => {
  const pad = document.querySelector("#sheet .pad").getBoundingClientRect();
  const size = (selector) => [...document.querySelectorAll(selector)].map((element) => parseFloat(getComputedStyle(element).fontSize));
  return {
    padWidth: pad.width,
    boxes: [...document.querySelectorAll("#sheet .pad .box")].map((box) => box.getBoundingClientRect().height),
    marks: size("#sheet .pad .marks"),
    numbers: size("#sheet .pad .points, #sheet .pad .total"),
    scrolls: document.documentElement.scrollHeight > innerHeight || document.documentElement.scrollWidth > innerWidth,
  };
}
"""
"""What a TV shows of the pad: its width, every box's height and every cross's and number's size, and whether the page scrolls."""

SOFA_PX = 48
"""The least height, on a 1080p TV, of a cross or a number's text read from the sofa: about 3 cm on a 55" screen, seen from 3 m."""


@pytest.mark.parametrize("players", [SIX[:3], SIX], ids=["3 players", "6 players"])
def test_the_tv_shows_crosses_and_numbers_readable_from_the_sofa(
    browser: Browser, live_server: str, screenshot_dir: Path, players: list[str]
) -> None:
    """On a 1920×1080 TV in round 2: the pad takes most of the screen's width, each box and cross and each number is sofa-sized, nothing scrolls."""
    host = browser.new_context(locale="de-DE").new_page()
    answer = host.request.post(f"{live_server}/import", data=json.dumps(playing(players)), headers={"Content-Type": "application/json"})
    assert answer.status == 201, answer.text()
    host.goto(f"{answer.json()['location']}/join")
    tv_address = (host.locator("details.watch p.address a").nth(1).text_content() or "").strip()
    host.context.close()
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="de-DE")
    tv = context.new_page()
    try:
        tv.goto(tv_address)
        expect(tv.locator("body.on-tv #sheet .pad")).to_be_visible()
        redrawn(tv)
        shown = tv.evaluate(TV_LEGIBLE)
        keep_picture(tv, str(screenshot_dir / f"legible-tv-{len(players)}-players.png"))
    finally:
        context.close()
    problems = []
    if shown["padWidth"] < 0.55 * 1920:
        problems.append(f"the pad takes {shown['padWidth']:.0f} of 1920 px")
    problems += [f"a box is {height:.0f} px high" for height in shown["boxes"] if height < SOFA_PX]
    problems += [f"crosses are {size:.0f} px" for size in shown["marks"] if size < SOFA_PX]
    problems += [f"a number is {size:.0f} px" for size in shown["numbers"] if size < SOFA_PX]
    if shown["scrolls"]:
        problems.append("the page scrolls")
    assert not problems, "\n".join(sorted(set(problems)))
