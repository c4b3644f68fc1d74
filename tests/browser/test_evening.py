"""A whole evening at one table on two Pixel 7 phones and a 1920×1080 TV: seats, three games, the TV between them, the evening, BG Stats.

Anna starts AURUXXX and says on the join page that the phone is hers; Ben scans the table's
code and taps "Ich bin Ben". Ben wins the first game, Anna the rematch; then Anna starts
8 Nights from the evening page, which Cleo wins. The TV shows each game and, between two
games, the last result with the evening's standings. Screenshots are kept at phone size and
at 1920×1080.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, Route, expect

from tests.browser.pictures import keep_picture
from tests.browser.taps import eventually, start_game
from tests.browser.test_auruxxx_game import finish_round, type_hand
from tests.browser.test_join import open_live, scan
from tests.helpers import PLAYERS

pytestmark = pytest.mark.browser

LIVE_MS = 10_000
FAKE_SHARE = """
window.__shared = [];
navigator.canShare = (data) => Boolean(data && data.files && data.files.length);
navigator.share = async (data) => { window.__shared.push(data.files.map((f) => [f.name, f.type, f.size])); };
"""
"""A phone whose browser shares files (Chromium on Linux has no share sheet): what it was asked to share is kept."""


@pytest.fixture
def table(browser: Browser, playwright: Playwright) -> Iterator[tuple[Page, Page, Page]]:
    """Yield Anna's and Ben's phones (Pixel 7, German; Ben's browser shares files) and a 1920×1080 TV."""
    contexts: list[BrowserContext] = [browser.new_context(**playwright.devices["Pixel 7"], locale="de-DE") for _ in range(2)]
    contexts[1].add_init_script(FAKE_SHARE)
    contexts.append(browser.new_context(viewport={"width": 1920, "height": 1080}, locale="de-DE"))
    anna, ben, tv = (context.new_page() for context in contexts)
    yield anna, ben, tv
    for context in contexts:
        context.close()


def shot(page: Page, folder: Path, name: str) -> None:
    """Keep a screenshot: the whole page on a phone, the screen as it is on the TV."""
    keep_picture(page, str(folder / f"evening-{name}.png"), full_page=page.viewport_size is not None and page.viewport_size["width"] < 1000)


def play_auruxxx(phone: Page, finisher: str, hands: dict[int, int]) -> None:
    """Play three rounds: ``finisher`` ends each with one Golden 12, the others type their hands."""
    for _ in range(3):
        finish_round(phone, finisher, 1)
        for seat, points in hands.items():
            type_hand(phone, seat, points)
    expect(phone.locator("#sheet .result")).to_be_visible()


def play_eight_nights(phone: Page) -> None:
    """Cleo takes all eight days (quickly noted), then each final hand is counted: Anna eight 8s, Ben seven 7s and the 1, Cleo six 6s and both 2s."""
    for day in range(8):
        quick = phone.locator("details.quick")
        if not quick.evaluate("details => details.open"):
            quick.locator("summary").click()
        with phone.expect_response(lambda response: response.request.method == "POST"):
            quick.locator("form:has(input[name=player][value='Cleo']) button").click()
        expect(phone.locator("table.pad--days tbody tr.round--done")).to_have_count(day + 1)
    sheet = phone.url
    for seat, cards in enumerate(({8: 8}, {7: 7, 1: 1}, {6: 6, 2: 2})):
        phone.locator("a.hand-button").nth(seat).click()
        phone.wait_for_url(re.compile(rf"/final-hand/{seat}$"))
        held = 0
        for card, count in cards.items():
            for _ in range(count):
                phone.locator(f"button[value='more:{card}']").click()
                held += 1
                # The form comes back as a whole: the next tap must land on the swapped form, not the one in flight.
                expect(phone.locator(".hand-total .sum")).to_have_text(str(held))
        with phone.expect_response(lambda response: response.request.method == "POST"):
            phone.locator("button[value=save]").click()
        phone.wait_for_url(sheet)
    expect(phone.locator("#sheet .result")).to_be_visible()


def test_a_whole_evening_of_three_games_with_seats_the_tv_and_bg_stats(
    live_server: str, table: tuple[Page, Page, Page], screenshot_dir: Path
) -> None:
    """Three short games through the table address; the TV follows; the evening page ranks it; each result goes to BG Stats."""
    anna, ben, tv = table
    first = start_game(anna, live_server, PLAYERS)
    anna.goto(f"{first}/join")
    anna.get_by_role("button", name="Ich bin Anna").click()
    anna.wait_for_url(f"{first}/join")
    table_address = scan(anna.locator("#join figure.qr").first, screenshot_dir / "evening-01-table-code.png")
    tv_address = (anna.locator("details.watch p.address a").nth(1).text_content() or "").strip()

    open_live(ben, table_address)
    expect(ben.get_by_role("heading", name="Wer hält dieses Handy?")).to_be_visible()
    shot(ben, screenshot_dir, "02-ben-asked-who-holds-the-phone")
    ben.get_by_role("button", name="Ich bin Ben").click()
    ben.wait_for_url(first)
    expect(ben.locator(".seat-line")).to_contain_text("Dieses Handy: Ben")
    expect(ben.locator("body")).to_have_attribute("data-my-seat", "1")

    open_live(tv, tv_address)
    expect(tv.locator(".status")).to_contain_text("Runde 1 von 3")
    assert tv.locator(".seat-line, .seat-ask, [data-my-seat]").count() == 0, "the TV shows no seats"

    open_live(anna, first)
    expect(anna.locator("body")).to_have_attribute("data-my-seat", "0")
    ben.locator("#sheet tr.round--current .pass-boxes").nth(1).tap()
    expect(anna.locator("#sheet tr.round--current .pass-boxes").nth(1).locator(".box.crossed")).to_have_count(1, timeout=LIVE_MS)
    ben.goto(f"{first}/history")
    expect(ben.locator(".history li").first.locator(".phone")).to_have_text("auf dem Handy von Ben")
    shot(ben, screenshot_dir, "03-history-names-the-phone")
    ben.goto(first)

    # Game 1: Ben ends every round; Anna keeps 10, Cleo 5.
    play_auruxxx(anna, "Ben", {0: 10, 2: 5})
    shot(anna, screenshot_dir, "04-game-1-over-phone")
    expect(tv.locator(".evening--tv h1")).to_have_text(re.compile("Ben gewinnt mit"), timeout=LIVE_MS)
    expect(tv.locator(".tv-join figure.qr")).to_be_in_viewport()
    assert scan(tv.locator(".tv-join figure.qr"), screenshot_dir / "evening-05-tv-code.png") == table_address
    assert tv.locator("a.bgstats-button, .picture-button").count() == 0, "BG Stats is for phones"
    shot(tv, screenshot_dir, "06-tv-between-games-1")

    # Into BG Stats and as a picture, from Ben's phone.
    open_live(ben, first)
    sent: list[str] = []

    def bg_stats(route: Route) -> None:
        sent.append(route.request.url)
        route.fulfill(status=200, content_type="text/html", body="<title>BG Stats</title><h1>BG Stats</h1>")

    ben.context.route("https://app.bgstatsapp.com/**", bg_stats)
    ben.get_by_role("link", name="Als Bild teilen").click()
    eventually(ben, "() => window.__shared.length === 1")
    [[(name, kind, size)]] = ben.evaluate("window.__shared")
    assert re.fullmatch(r"tischblock-auruxxx-\d{4}-\d\d-\d\d\.png", name) and kind == "image/png" and size > 10_000
    ben.get_by_role("link", name="In BG Stats speichern").click()
    ben.wait_for_url(re.compile(r"^https://app\.bgstatsapp\.com/createPlay\.html\?data="))
    play = json.loads(parse_qs(urlsplit(sent[0]).query)["data"][0])
    assert play["game"]["name"] == "AURUXXX – Die Goldene Zwölf" and play["game"]["highestWins"] is False
    assert [(p["name"], p["winner"]) for p in play["players"]] == [("Anna", False), ("Ben", True), ("Cleo", False)]
    assert first.rsplit("/", 1)[1] not in sent[0] and table_address.rsplit("/", 1)[1] not in sent[0]

    # Game 2, the rematch: the TV moves on, Anna wins.
    open_live(anna, first)
    anna.get_by_role("button", name="Revanche – dieselben Spieler noch mal").click()
    anna.wait_for_url(lambda url: url != first and "/g/" in url)
    second = anna.url
    expect(tv.locator(".status")).to_contain_text("Runde 1 von 3", timeout=LIVE_MS)
    expect(anna.locator(".seat-line")).to_contain_text("Dieses Handy: Anna")  # the rematch keeps the seat
    play_auruxxx(anna, "Anna", {1: 10, 2: 5})
    expect(tv.locator(".evening--tv h1")).to_have_text(re.compile("Anna gewinnt mit"), timeout=LIVE_MS)
    expect(tv.locator(".standings tbody tr")).to_have_count(3)
    shot(tv, screenshot_dir, "07-tv-between-games-2")

    # Game 3: another game at the table, from the evening page.
    anna.locator(".evening-link a").click()
    anna.wait_for_url(f"{second}/evening")
    anna.get_by_role("link", name="12 Days").click()
    expect(anna.locator("input[name=player]").nth(0)).to_have_value("Anna")
    expect(anna.locator("input[name=player]").nth(2)).to_have_value("Cleo")
    anna.locator("label.choice:has(input[value='8nights'])").click()
    anna.locator("button[value=start]").click()
    anna.wait_for_url(lambda url: url not in (first, second) and re.search(r"/g/[^/]+$", url) is not None)
    third = anna.url
    expect(tv.locator("table.pad--days")).to_be_visible(timeout=LIVE_MS)
    open_live(anna, third)
    play_eight_nights(anna)
    expect(tv.locator(".evening--tv h1")).to_have_text(re.compile("Cleo gewinnt mit"), timeout=LIVE_MS)
    sizes = tv.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight, innerWidth, innerHeight]")
    assert sizes[0] <= sizes[2] and sizes[1] <= sizes[3], f"the TV between games scrolls: {sizes}"
    shot(tv, screenshot_dir, "08-tv-between-games-3")

    # The evening: Cleo first (a win and two second places), Anna and Ben sharing second.
    open_live(ben, table_address)
    assert ben.url == third, "the table address opens the evening's current game"
    expect(ben.locator(".earlier li")).to_have_count(2)
    expect(ben.locator(".earlier li").first).to_contain_text("Anna")
    ben.locator(".evening-link a").click()
    ben.wait_for_url(re.compile(r"/evening$"))
    ranks = ben.locator(".standings tbody tr")
    expect(ranks).to_have_count(3)
    assert [ranks.nth(i).locator("th").text_content() for i in range(3)] == ["Cleo", "Anna", "Ben"]
    assert [ranks.nth(i).locator(".standings-rank").text_content() for i in range(3)] == ["1.", "2.", "2."]
    expect(ben.locator(".evening-game")).to_have_count(3)
    shot(ben, screenshot_dir, "09-evening-page-phone")
    ben.locator(".evening-game").nth(2).get_by_role("link", name="In BG Stats speichern").click()
    ben.wait_for_url(re.compile(r"^https://app\.bgstatsapp\.com/"))
    play = json.loads(parse_qs(urlsplit(sent[-1]).query)["data"][0])
    assert play["game"]["name"] == "12 Days – 8 Nights" and play["game"]["highestWins"] is True
    assert [(p["name"], p["rank"], p["winner"]) for p in play["players"]] == [("Anna", 2, False), ("Ben", 2, False), ("Cleo", 1, True)]
