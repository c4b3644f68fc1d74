"""The score chart and the printout on a real Chromium: lines a colour-blind player can tell apart, readable in the dark, a pad on paper."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pictures import keep_picture
from tests.browser.taps import start_game
from tests.examples import finished_auruxxx

pytestmark = pytest.mark.browser

A5_WIDTH = 470
"""The printable width of an A5 page with 12 mm margins, in CSS pixels (96 per inch)."""

LUMINANCE = """
(colour) => {
  const [r, g, b] = colour.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number).map((c) => {
    c /= 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
"""


def contrast(page: Page, foreground: str, background: str) -> float:
    """Return the WCAG contrast ratio of two CSS colours."""
    light, dark = sorted((page.evaluate(LUMINANCE, foreground), page.evaluate(LUMINANCE, background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_chart_shows_each_players_running_total_with_its_own_shape(live_server: str, phone: Page, screenshot_dir: Path) -> None:
    """On the result the chart has a line per player through 0 and every round, a shape each, and a legend with the totals."""
    answer = phone.request.post(f"{live_server}/import", data=json.dumps(finished_auruxxx()), headers={"Content-Type": "application/json"})
    phone.goto(answer.json()["location"])
    chart = phone.locator("#sheet figure.chart")
    expect(chart).to_be_visible()
    expect(chart.locator("figcaption")).to_have_text("Punktestand nach jeder Runde")
    lines = chart.locator(".series polyline")
    expect(lines).to_have_count(3)
    assert [len(line.get_attribute("points").split()) for line in lines.all()] == [4, 4, 4], "start plus three rounds"
    markers = [series.locator("path").first.get_attribute("d") or "" for series in chart.locator(".series").all()]
    outlines = {re.sub(r"-?\d+(\.\d+)?", "#", marker) for marker in markers}
    assert len(outlines) == 3, f"two players share a marker shape: {markers}"
    expect(chart.locator(".chart-legend li")).to_have_text(["Anna 49", "Ben 18,5", "Cleo 58,5"])
    assert "Anna: 32, 22, 49" in (chart.locator("svg.chart-plot").get_attribute("aria-label") or "")
    colours = {line.evaluate("l => getComputedStyle(l).stroke") for line in lines.all()}
    assert len(colours) == 3
    keep_picture(chart, str(screenshot_dir / "chart-light.png"))

    phone.emulate_media(color_scheme="dark")
    background = chart.evaluate("c => getComputedStyle(c).backgroundColor")
    for line in lines.all():
        assert contrast(phone, line.evaluate("l => getComputedStyle(l).stroke"), background) >= 3, "a line fades into the dark"
    keep_picture(chart, str(screenshot_dir / "chart-dark.png"))


def test_the_chart_appears_on_the_sheet_once_a_round_is_over(live_server: str, phone: Page) -> None:
    """A fresh sheet has no chart; it is not drawn from nothing."""
    start_game(phone, live_server, ["Anna", "Ben"])
    expect(phone.locator(".pad")).to_be_visible()
    expect(phone.locator("figure.chart")).to_have_count(0)


def test_the_printout_is_the_pad_on_a5(live_server: str, phone: Page, screenshot_dir: Path) -> None:
    """Printed, the sheet drops the header, buttons and hints and fits an A5 page's width, black on white even in dark mode."""
    answer = phone.request.post(f"{live_server}/import", data=json.dumps(finished_auruxxx()), headers={"Content-Type": "application/json"})
    phone.goto(answer.json()["location"])
    phone.emulate_media(media="print", color_scheme="dark")
    phone.set_viewport_size({"width": A5_WIDTH, "height": 660})
    expect(phone.locator(".site-header")).to_be_hidden()
    expect(phone.locator(".sheet-actions")).to_be_hidden()
    expect(phone.locator(".game-over")).to_be_hidden()
    expect(phone.locator("button:visible")).to_have_count(0)
    pad = phone.locator("table.pad")
    box = pad.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= A5_WIDTH
    assert pad.evaluate("t => getComputedStyle(t).backgroundColor") == "rgb(255, 255, 255)"
    assert phone.locator(".total").first.evaluate("t => getComputedStyle(t).color") == "rgb(0, 0, 0)"
    keep_picture(phone, str(screenshot_dir / "print-a5.png"), full_page=True)
    pages = re.findall(rb"/Type\s*/Page\b(?!s)", phone.pdf(format="A5"))
    assert len(pages) == 1, f"the A5 printout takes {len(pages)} pages"
