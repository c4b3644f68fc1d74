"""Taps on a sheet, and ways to wait for the page and its service worker, that the browser tests share."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Locator, Page, expect

from tests.browser.pictures import keep_picture
from tests.waiting import until

WAIT = 10_000
"""Milliseconds to wait for anything the phones do (a generous bound, never a pause)."""


def start_game(page: Page, base: str, names: list[str], kind: str = "auruxxx") -> str:
    """Start a game by taps on the new-game form and return its sheet's address."""
    page.goto(f"{base}/new/{kind}")
    fields = page.locator("input[name=player]")
    for seat, name in enumerate(names):
        fields.nth(seat).fill(name)
    page.locator("button[value=start]").click()
    page.wait_for_url(re.compile(r"/g/[^/]+$"))
    return page.url


def table_address(page: Page, sheet: str, base: str) -> str:
    """Return the table address the sheet's join page shows, on ``base``.

    Opened at 127.0.0.1, the page names this machine's LAN address instead (a phone cannot
    open 127.0.0.1); the tests' phones run here and keep to ``base``.
    """
    page.goto(f"{sheet}/join")
    shown = page.locator("p.address a").first.get_attribute("href")
    assert shown and "/t/" in shown, shown
    return base + urlsplit(shown).path


def eventually(phone: Page, script: str, arg: object = None, timeout: float = 10_000) -> None:
    """Wait until an (async) script in the page answers true: ``wait_for_function`` does not wait for promises."""
    until(lambda: phone.evaluate(script, arg), what=script, seconds=timeout / 1000)


def install(phone: Page) -> None:
    """Wait until the service worker controls the page and has kept it, as on a phone that opened the sheet once."""
    eventually(phone, "() => !!navigator.serviceWorker.controller")
    eventually(phone, "(url) => caches.match(url).then((kept) => !!kept)", phone.url)


def settled(page: Page) -> None:
    """Wait until no tap waits on the sheet: each has been answered and the answer swapped in."""
    expect(page.locator("#sheet [data-pending]")).to_have_count(0, timeout=WAIT)


def crossed(page: Page, seat: int) -> Locator:
    """Return the crossed boxes of a seat in the current round that the server counted (not those still waiting)."""
    return page.locator("#sheet tr.round--current .pass-boxes").nth(seat).locator(".box.crossed:not([data-pending])")


def pass_cross(page: Page, seat: int, times: int = 1) -> None:
    """Tap a player's pass boxes, waiting for each cross to appear."""
    for _ in range(times):
        before = crossed(page, seat).count()
        page.locator("#sheet tr.round--current .pass-boxes").nth(seat).tap()
        expect(crossed(page, seat)).to_have_count(before + 1)


def give_figure(page: Page, seat: int) -> None:
    """Hand the Happy-Man figure to a player and wait until the sheet shows it there."""
    page.locator("#sheet .happy-man-row td").nth(seat).locator(".give-figure").tap()
    expect(page.locator("#sheet .happy-man-row td").nth(seat).locator(".holder")).to_be_visible()
    expect(page.locator("#sheet .happy-man-row .holder")).to_have_count(1)


def finish_round(page: Page, finisher: str, golden12: int, *, shot: Path | None = None) -> None:
    """Tell the sheet who ended the round with how many Golden 12."""
    page.locator("#sheet a[href$='/finish']").first.tap()
    page.wait_for_url(re.compile(r"/finish$"))
    page.locator(f"label.choice:has(input[name=player][value='{finisher}'])").tap()
    page.locator(f"label.choice--number:has(input[name=golden12][value='{golden12}'])").tap()
    expect(page.locator(f"input[name=player][value='{finisher}']")).to_be_checked()
    expect(page.locator(f"input[name=golden12][value='{golden12}']")).to_be_checked()
    if shot is not None:
        keep_picture(page, shot, full_page=True)
    page.locator("#finish button.primary").tap()
    page.wait_for_url(re.compile(r"/g/[^/]+$"))
    expect(page.locator("#sheet a.hand-button").first).to_be_visible()


def open_hand(page: Page, seat: int) -> None:
    """Go from the sheet to a player's keypad."""
    page.locator(f"#sheet a.hand-button[href$='/hand/{seat}']").tap()
    page.wait_for_url(re.compile(rf"/hand/{seat}$"))
    expect(page.locator("#keypad")).to_be_visible()


def press_at_once(page: Page, selector: str, times: int) -> None:
    """Press a keypad key several times within one task of the page: every press after the first comes while the first is on its way."""
    page.evaluate("([selector, times]) => { for (let i = 0; i < times; i++) document.querySelector(selector).click(); }", [selector, times])


def type_hand(page: Page, seat: int, total: int) -> None:
    """Enter a hand as its counted total."""
    open_hand(page, seat)
    page.locator("#keypad details.typed summary").tap()
    page.locator("#keypad input[name=points]").fill(str(total))
    page.locator("#keypad button[value=save-points]").tap()
    page.wait_for_url(re.compile(r"/g/[^/]+$"))


def join_second_phone(host: Page, guest: Page, sheet: str, base: str) -> None:
    """Open the table address on a second phone, as its QR code would, and the sheet again on the first."""
    guest.goto(table_address(host, sheet, base))
    guest.wait_for_url(sheet)
    host.goto(sheet)


def tap_across(anna: Page, ben: Page) -> None:
    """Tap on both phones in turn (a pass cross for Ben, the figure to Cleo, a cross for Anna), each showing on the other."""
    pass_cross(anna, 1)
    expect(crossed(ben, 1)).to_have_count(1)
    give_figure(ben, 2)
    expect(anna.locator("#sheet .happy-man-row td").nth(2).locator(".holder")).to_be_visible()
    pass_cross(ben, 0)
    expect(crossed(anna, 0)).to_have_count(1)


def end_round_across(anna: Page, ben: Page) -> None:
    """Anna ends the round with one Golden 12; Ben's hand (10) is typed on his phone, Cleo's (20) on Anna's; both show it done."""
    finish_round(anna, "Anna", 1)
    type_hand(ben, 1, 10)
    type_hand(anna, 2, 20)
    for phone in (anna, ben):
        expect(phone.locator("#sheet tr.round--done")).to_have_count(1)
