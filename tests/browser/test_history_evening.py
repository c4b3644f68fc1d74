"""An evening at one table played by taps on one Pixel 7, then the table's statistics as the family reads them.

Anna, Ben and Cleo play three games, each started from the evening page of the game before:

1. AURUXXX (lowest wins): Anna ends all three rounds with one Golden 12 (−5 each); Ben keeps
   10 in hand, Cleo 20: Anna −15, Ben 30, Cleo 60. Anna wins.
2. "Wizard" on a plain sheet (highest wins, open-ended), on the points keypad: round 1 Anna 20,
   Ben −10, Cleo 30; round 2 Anna 5, Ben 40, Cleo −20; then ended by a tap: Anna 25, Ben 30,
   Cleo 10. Ben wins.
3. 12 Days, 8 Nights: Cleo takes all eight days (1 + … + 8 = 36) and scores her sixes and twos
   (6 + 2), Anna her eights (8), Ben his sevens and the one (7 + 1): Cleo 44, Anna 8, Ben 8.
   Cleo wins.

So the statistics count 3 finished games, one of each, and a win for each player (3 games
each). The places (ties share one): Anna 1, 2, 2 and Ben 2, 1, 2 (average 1.7); Cleo 3, 3, 1
(average 2.3). The records, best first: AURUXXX Anna −15, Wizard Ben 30, 8 Nights Cleo 44; then the
worst: AURUXXX Cleo 60, Wizard Cleo 10, 8 Nights 8 (Anna and Ben share it).
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.pictures import keep_picture
from tests.browser.taps import settled, start_game
from tests.browser.test_evening import play_auruxxx, play_eight_nights
from tests.browser.test_plain_game import enter_points, row
from tests.helpers import PLAYERS

pytestmark = pytest.mark.browser

WIZARD = (
    {0: (["2", "0"], "20"), 1: (["minus", "1", "0"], "−10"), 2: (["3", "0"], "30")},
    {0: (["5"], "5"), 1: (["4", "0"], "40"), 2: (["minus", "2", "0"], "−20")},
)
"""The two rounds of Wizard by seat: the keys tapped and the number the keypad shows."""


def next_game_from_the_evening(page: Page, title: str) -> None:
    """From a finished sheet, open the evening page and choose another game there: its new-game form opens with the players filled in."""
    sheet = page.url
    page.locator(".evening-link a").tap()
    page.wait_for_url(f"{sheet}/evening")
    page.locator(".next-game-choices a", has_text=title).tap()
    page.wait_for_url(re.compile(r"/next/"))
    for seat, name in enumerate(PLAYERS):
        expect(page.locator("input[name=player]").nth(seat)).to_have_value(name)


def headline(card: Locator, label: str) -> Locator:
    """Return the figure a player's card shows under ``label`` ("Siege", not "Meiste Siege in Folge")."""
    return card.locator(".player-headline > div").filter(has=card.page.get_by_text(label, exact=True)).locator("dd")


def started(page: Page, before: list[str]) -> str:
    """Tap "start" on the new-game form and return the new game's sheet (not one of the games before)."""
    page.locator("button[value=start]").tap()
    page.wait_for_url(lambda url: url not in before and re.search(r"/g/[^/]+$", url) is not None)
    return page.url


def test_an_evening_of_auruxxx_wizard_and_8_nights_shows_in_the_tables_statistics(
    phone: Page, live_server: str, screenshot_dir: Path
) -> None:
    """Three games in a row by taps, then the statistics from the last sheet: 3 games, one of each, a win each, records leading to their games."""
    first = start_game(phone, live_server, PLAYERS)
    play_auruxxx(phone, "Anna", {1: 10, 2: 20})
    expect(phone.locator("#sheet .result")).to_contain_text("Anna")
    expect(phone.locator("#sheet tfoot td.total")).to_have_text(["−15", "30", "60"])

    next_game_from_the_evening(phone, "Freier Block")
    phone.locator("#game-name").fill("Wizard")
    second = started(phone, [first])
    expect(phone.locator("h1.sheet-title")).to_have_text("Wizard")
    for number, entries in enumerate(WIZARD, start=1):
        for seat, (keys, shown) in entries.items():
            enter_points(phone, seat, keys, shown)
        expect(phone.locator("#sheet table.pad--plain tbody tr.round--done")).to_have_count(number)
    assert row(phone, 1) == ["20", "−10", "30"] and row(phone, 2) == ["5", "40", "−20"]
    settled(phone)
    phone.locator("#sheet form.finish button").tap()
    expect(phone.locator("#sheet .result-names")).to_have_text("Ben")
    expect(phone.locator("#sheet tfoot td.total")).to_have_text(["25", "30", "10"])

    next_game_from_the_evening(phone, "12 Days")
    phone.locator("label.choice:has(input[value='8nights'])").tap()
    third = started(phone, [first, second])
    play_eight_nights(phone)
    expect(phone.locator("#sheet .result")).to_contain_text("Cleo")

    phone.locator(".statistics-link a").tap()
    phone.wait_for_url(f"{third}/statistics")
    expect(phone.locator("h1")).to_have_text("Statistik dieses Tisches")
    expect(phone.locator(".statistics .lead")).to_contain_text("3 beendete Partien")
    games = phone.locator(".statistics-game")
    expect(games.locator("h3")).to_have_text(["AURUXXX – Die Goldene Zwölf", "Wizard", "12 Days – 8 Nights"])
    expect(games.locator(".statistics-big")).to_have_text([re.compile(r"^1 Partie\b")] * 3)
    cards = phone.locator("article.player-card")
    expect(cards.locator("h3")).to_have_text(PLAYERS)
    for seat, (won, place) in enumerate([("AURUXXX – Die Goldene Zwölf", "1,7"), ("Wizard", "1,7"), ("12 Days – 8 Nights", "2,3")]):
        expect(headline(cards.nth(seat), "Partien")).to_have_text("3")
        expect(headline(cards.nth(seat), "Siege")).to_have_text("1")
        expect(headline(cards.nth(seat), "Mittlerer Platz")).to_have_text(place)
        expect(cards.nth(seat).locator("summary", has_text=won)).to_have_text(f"{won}: 1 von 1 gewonnen")
    records = phone.locator(".record-list a")
    expect(records.locator(".record-who")).to_have_text(["Anna −15", "Ben 30", "Cleo 44", "Cleo 60", "Cleo 10", "Anna, Ben 8"])
    expect(records.locator(".record-what")).to_have_text(
        [
            "Beste Summe in AURUXXX – Die Goldene Zwölf",
            "Beste Summe in Wizard",
            "Beste Summe in 12 Days – 8 Nights",
            "Schlechteste Summe in AURUXXX – Die Goldene Zwölf",
            "Schlechteste Summe in Wizard",
            "Schlechteste Summe in 12 Days – 8 Nights",
        ]
    )
    links = [records.nth(index).get_attribute("href") for index in range(6)]
    assert links[:3] == links[3:] and len(set(links)) == 3, f"each game's two records lead to that game: {links}"
    assert links[2] == urlsplit(third).path, "the game the page was opened from links with its own address"
    keep_picture(phone, screenshot_dir / "history-evening-statistics-pixel7.png", full_page=True)

    records.nth(1).tap()
    phone.wait_for_url(lambda url: "/statistics" not in url and url != second)  # an earlier game opens read-only
    expect(phone.locator("h1.sheet-title")).to_have_text("Wizard")
    expect(phone.locator("#sheet .result-names")).to_have_text("Ben")
    expect(phone.locator("#sheet tfoot td.total")).to_have_text(["25", "30", "10"])
    expect(phone.locator("#sheet button.undo, #sheet a.entry")).to_have_count(0)
