"""Every number, name and card on a sheet stays whole: at 360 px with six or eight players, and at 150 and 200 % text.

A number broken over two lines ("21" / "4"), a name or a card cut mid-word ("Maxi" / "mili…",
"Sant" / "a") is measured, not looked at: each number's text is laid out on one line (its
text's client rects share one line box) inside its own cell, each name's and card's words are
each on one line, and names are shown whole (nothing clipped). Numbers grow with the text as
everything else does.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Playwright

from tests.browser.checks import redrawn, sideways_scroll, small_targets
from tests.browser.pictures import keep_picture

pytestmark = pytest.mark.browser

SIX = ["Maximiliane", "Begitta", "Christoph", "Dorothea", "Emil", "Friederike"]
EIGHT = ["Maximilian", "Begitta", "Christoph", "Dorothea", "Emil", "Friederike", "Gustav", "Henriette"]
FIVE = SIX[:5]


def hands(names: list[str], points: list[int]) -> dict[str, object]:
    """Return the hands of a round given as typed totals."""
    return {name: {"points": value} for name, value in zip(names, points)}


SIX_PLAYER_GAME = {
    "game": "auruxxx",
    "players": SIX,
    "house_rules": {"golden12_in_hand": 12, "two_in_hand": 2, "halving": "net", "rounding": "exact"},
    "rounds": [
        {
            "finisher": SIX[0],
            "golden12": 1,
            "happy_man": SIX[1],
            "passes": {SIX[1]: 2, SIX[2]: 3},
            "hands": hands(SIX[1:], [99, 107, 88, 71, 95]),
        },
        {
            "finisher": SIX[1],
            "golden12": 2,
            "happy_man": SIX[3],
            "passes": {SIX[3]: 3},
            "hands": hands([SIX[0], *SIX[2:]], [88, 97, 79, 64, 99]),
        },
        {
            "finisher": SIX[2],
            "golden12": 1,
            "happy_man": SIX[4],
            "passes": {SIX[0]: 1},
            "hands": hands([*SIX[:2], *SIX[3:]], [38, 49, 61, 99, 75]),
        },
    ],
}
"""Six long names, totals of three digits and halves ("184,5", "214")."""

SIX_PLAYERS_PLAYING = {**SIX_PLAYER_GAME, "rounds": SIX_PLAYER_GAME["rounds"][:2]}
"""The same game in its last round: boxes to cross and the figure's row (a TV shows it, not the result)."""

EIGHT_NIGHTS = {
    "game": "12days",
    "variant": "8nights",
    "players": ["Anna", "Ben", "Cleo"],
    "days": [{"taken_by": "Anna"}, {"taken_by": None}, {"played": {"Anna": 3, "Ben": 5, "Cleo": 7}}],
}
"""8 Nights: "Nächte" heads the row of night points in the narrow first column."""

FIVE_PLAYER_DAYS = {
    "game": "12days",
    "variant": "standard",
    "players": FIVE,
    "days": [{"taken_by": None}] * 5 + [{"taken_by": FIVE[day % 5]} for day in range(6)],
}
"""Five long names; the first won day takes a pot of five days (+21), two-digit days after it."""

EIGHT_PLAYER_DAYS = {
    "game": "12days",
    "variant": "8players",
    "players": EIGHT,
    "days": [{"taken_by": EIGHT[day % 8]} for day in range(1, 12)],
}
"""8 Players: eight names in eight narrow columns, "+10" to "+11"."""

EIGHT_PLAYERS_CLAUS = {
    "game": "12days",
    "variant": "8players",
    "players": EIGHT,
    "days": [
        {"played": dict(zip(EIGHT, ["santa", 3, 5, 7, 2, 9, 11, 12])), "gift_to": EIGHT[2]},
        {"played": dict(zip(EIGHT, [2, "mrs_claus", 4, 6, 8, 10, 12, 1])), "gift_to": EIGHT[3]},
        {"played": dict(zip(EIGHT, [12, 12, 10, 9, "santa", 1, 3, 5])), "gift_to": EIGHT[0]},
    ],
}
"""8 Players with the cards on the pad: "Santa" and "Mrs. Claus" in eight narrow columns, days of the open game."""

NUMBERS = """
() => {
  const broken = [];
  const cells = document.querySelectorAll(
    "#sheet .pad .points, #sheet .pad .total, #sheet .pad tfoot td, #sheet .pad .round-number");
  for (const element of cells) {
    const text = element.textContent.trim();
    if (!/^[−+-]?[0-9]/.test(text)) continue;
    const range = document.createRange();
    range.selectNodeContents(element);
    const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
    const lines = new Set(rects.map((rect) => Math.round(rect.top + rect.height / 2)));
    const cell = element.closest("td, th").getBoundingClientRect();
    const outside = rects.some((rect) => rect.left < cell.left - 1 || rect.right > cell.right + 1);
    if (lines.size > 1) broken.push(`"${text}" on ${lines.size} lines`);
    else if (outside) broken.push(`"${text}" spills out of its cell`);
  }
  return broken;
}
"""

NAMES = """
() => {
  const cut = [];
  for (const corner of document.querySelectorAll("#sheet .pad .round-number, #sheet .pad tfoot th, #sheet .pad .corner:not(:has(.visually-hidden))")) {
    const range = document.createRange();
    range.selectNodeContents(corner);
    const cell = corner.closest("th").getBoundingClientRect();
    const text = [...range.getClientRects()].filter((rect) => rect.width > 0);
    if (text.some((rect) => rect.left < cell.left - 1 || rect.right > cell.right + 1)) cut.push(`"${corner.textContent.trim()}" spills out of its row heading`);
  }
  for (const marker of document.querySelectorAll("#sheet .pad thead .marker")) {
    if (marker.scrollWidth > marker.clientWidth + 1 || marker.scrollHeight > marker.clientHeight + 1) cut.push(`"${marker.textContent.trim()}" is clipped`);
  }
  for (const element of document.querySelectorAll("#sheet .pad thead .name")) {
    const name = element.textContent.trim();
    if (element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1) {
      cut.push(`"${name}" is clipped`);
      continue;
    }
    const text = element.firstChild;
    let start = 0;
    for (const word of name.split(" ")) {
      const at = element.textContent.indexOf(word, start);
      start = at + word.length;
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + word.length);
      const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
      const lines = new Set(rects.map((rect) => Math.round(
        getComputedStyle(element).writingMode.startsWith("vertical") ? rect.left + rect.width / 2 : rect.top + rect.height / 2)));
      if (lines.size > 1) cut.push(`"${word}" of "${name}" is broken over ${lines.size} lines`);
    }
  }
  for (const card of document.querySelectorAll("#sheet .pad .played")) {
    const label = card.textContent.trim();
    const text = card.firstChild;
    let start = 0;
    for (const word of label.split(" ")) {
      const at = card.textContent.indexOf(word, start);
      start = at + word.length;
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + word.length);
      const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top + rect.height / 2)));
      if (lines.size > 1) cut.push(`card "${word}" is broken over ${lines.size} lines`);
    }
  }
  return cut;
}
"""


@pytest.fixture(scope="module")
def sheets(browser: Browser, playwright: Playwright, live_server: str) -> Iterator[dict[str, str]]:
    """Import the crowded games once and return their sheets' addresses by what they show."""
    context = browser.new_context(**playwright.devices["Pixel 7"], locale="de-DE")
    page = context.new_page()
    found = {}
    for name, record in (
        ("AURUXXX, six players", SIX_PLAYER_GAME),
        ("AURUXXX, six players, round 3", SIX_PLAYERS_PLAYING),
        ("12 Days, five players", FIVE_PLAYER_DAYS),
        ("8 Nights", EIGHT_NIGHTS),
        ("8 Players", EIGHT_PLAYER_DAYS),
        ("8 Players, cards", EIGHT_PLAYERS_CLAUS),
    ):
        answer = page.request.post(f"{live_server}/import", data=json.dumps(record), headers={"Content-Type": "application/json"})
        assert answer.status == 201, answer.text()
        found[name] = str(answer.json()["location"])
    context.close()
    yield found


def looked_at(page: Page, url: str, *, text: str | None) -> list[str]:
    """Open a sheet (its text enlarged if asked) and return every broken number and cut name on it."""
    page.goto(url)
    if text:
        page.evaluate("size => { document.documentElement.style.fontSize = size; }", text)
    page.locator("#sheet .pad").first.wait_for()
    redrawn(page)  # the names are fitted again when the pad's size is observed to change
    found: list[str] = page.evaluate(NUMBERS) + page.evaluate(NAMES)
    return found


@pytest.mark.parametrize(
    ("size", "text"),
    [({"width": 360, "height": 740}, None), ({"width": 412, "height": 839}, "150%"), ({"width": 412, "height": 839}, "200%")],
    ids=["360 px", "Pixel 7 at 150 % text", "Pixel 7 at 200 % text"],
)
def test_no_number_breaks_and_no_name_is_cut(
    browser: Browser, playwright: Playwright, sheets: dict[str, str], size: dict[str, int], text: str | None, screenshot_dir: Path
) -> None:
    """Six players, five players with a pot, eight players: every number on one line in its cell, every name whole."""
    context = browser.new_context(**{**playwright.devices["Pixel 7"], "viewport": size}, locale="de-DE")
    page = context.new_page()
    problems: list[str] = []
    try:
        for name, url in sheets.items():
            found = looked_at(page, url, text=text)
            found += [problem for problem in small_targets(page) if not name.startswith("8 Players")]
            problems += [f"{name}: {problem}" for problem in found]
            label = f"{size['width']}px" + (f"-{text.rstrip('%')}pct" if text else "")
            keep_picture(
                page.locator("#sheet .pad-wrap").first, str(screenshot_dir / f"fit-{name.replace(' ', '-').replace(',', '')}-{label}.png")
            )
    finally:
        context.close()
    assert not problems, "\n".join(problems)


NUMBER_SIZES = """
() => [...document.querySelectorAll("#sheet .pad .points, #sheet .pad .total, #sheet .pad tfoot td")]
  .filter((element) => /[0-9]/.test(element.textContent))
  .map((element) => parseFloat(getComputedStyle(element).fontSize))
"""


@pytest.mark.parametrize("width", [360, 412])
def test_numbers_grow_with_the_text_like_everything_else(
    browser: Browser, playwright: Playwright, sheets: dict[str, str], width: int, screenshot_dir: Path
) -> None:
    """At 150 and 200 % text every score and total is at least 1.5 and 2 times its size at 100 %, and the page still does not scroll sideways.

    The pad may grow wider than the screen for it; it then scrolls sideways by itself, the page around it does not.
    """
    context = browser.new_context(**{**playwright.devices["Pixel 7"], "viewport": {"width": width, "height": 839}}, locale="de-DE")
    page = context.new_page()
    problems: list[str] = []
    try:
        for name, url in sheets.items():
            page.goto(url)
            page.locator("#sheet .pad").first.wait_for()
            redrawn(page)
            normal = page.evaluate(NUMBER_SIZES)
            for text, scale in (("150%", 1.5), ("200%", 2.0)):
                page.evaluate("size => { document.documentElement.style.fontSize = size; }", text)
                redrawn(page)
                grown = page.evaluate(NUMBER_SIZES)
                behind = [
                    f"{before:.1f} → {after:.1f} px" for before, after in zip(normal, grown, strict=True) if after < 0.97 * scale * before
                ]
                if behind:
                    problems.append(f"{name} at {text}: {len(behind)} numbers do not grow with the text, e.g. {behind[0]}")
                problems += [f"{name} at {text}: {problem}" for problem in sideways_scroll(page)]
            keep_picture(
                page.locator("#sheet .pad-wrap").first,
                str(screenshot_dir / f"fit-grown-{name.replace(' ', '-').replace(',', '')}-{width}px-200pct.png"),
            )
    finally:
        context.close()
    assert not problems, "\n".join(problems)


EXPLANATIONS = """
() => {
  const cut = [];
  for (const score of document.querySelectorAll("#sheet .pad details.score")) {
    score.open = true;
    const explain = score.querySelector(".explain");
    const box = explain.getBoundingClientRect();
    if (box.left < 0 || box.right > innerWidth) cut.push(`"${explain.textContent.trim()}" runs off the screen`);
    else if (explain.scrollWidth > explain.clientWidth + 1) cut.push(`"${explain.textContent.trim()}" runs out of its box`);
    if (document.scrollingElement.scrollWidth > innerWidth + 1) cut.push(`"${explain.textContent.trim()}" makes the page scroll sideways`);
    score.open = false;
  }
  return cut;
}
"""


@pytest.mark.parametrize("width", [360, 412])
def test_every_score_explanation_fits_the_phone(
    browser: Browser, playwright: Playwright, sheets: dict[str, str], width: int, screenshot_dir: Path
) -> None:
    """Tapping a score explains it in a box that wraps its sentence within the screen: nothing cut off, no sideways scrolling."""
    context = browser.new_context(**{**playwright.devices["Pixel 7"], "viewport": {"width": width, "height": 839}}, locale="de-DE")
    page = context.new_page()
    problems: list[str] = []
    try:
        for name, url in sheets.items():
            page.goto(url)
            page.locator("#sheet .pad").first.wait_for()
            problems += [f"{name}: {problem}" for problem in page.evaluate(EXPLANATIONS)]
        page.goto(sheets["AURUXXX, six players"])
        page.locator("#sheet .pad details.score summary").nth(7).click()
        keep_picture(page, str(screenshot_dir / f"fit-explanation-{width}px.png"))
    finally:
        context.close()
    assert not problems, "\n".join(problems[:20])


TV_FILLED = """
() => {
  const pad = document.querySelector("#sheet .pad").getBoundingClientRect();
  const chart = document.querySelector("#sheet .chart").getBoundingClientRect();
  return {padBottom: pad.bottom, padRight: pad.right, chartRight: chart.right, chartHeight: chart.height,
          height: innerHeight, width: innerWidth, scrolls: document.documentElement.scrollHeight > innerHeight};
}
"""


def test_the_tv_uses_the_whole_screen_for_every_crowd(
    browser: Browser, playwright: Playwright, sheets: dict[str, str], screenshot_dir: Path
) -> None:
    """On a 1920×1080 TV the pad reaches down most of the screen without running off it, the chart beside it, numbers whole."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="de-DE")
    page = context.new_page()
    problems: list[str] = []
    try:
        for name, url in sheets.items():
            if name == "AURUXXX, six players":
                continue  # over: the TV shows the result and the evening instead
            page.goto(f"{url}/join")
            tv = (page.locator("details.watch p.address a").nth(1).text_content() or "").strip()
            page.goto(tv)
            page.locator("#sheet .pad").first.wait_for()
            filled = page.evaluate(TV_FILLED)
            if filled["padBottom"] < 0.8 * filled["height"] or filled["scrolls"]:
                problems.append(
                    f"{name}: the pad ends at {filled['padBottom']:.0f} of {filled['height']} px (scrolls: {filled['scrolls']})"
                )
            if filled["chartRight"] < 0.6 * filled["width"] or filled["padRight"] < 0.4 * filled["width"]:
                problems.append(f"{name}: pad and chart leave the screen's width unused: {filled}")
            problems += [f"{name} on the TV: {problem}" for problem in page.evaluate(NUMBERS)]
            keep_picture(page, str(screenshot_dir / f"fit-tv-{name.replace(' ', '-').replace(',', '')}.png"))
    finally:
        context.close()
    assert not problems, "\n".join(problems)
