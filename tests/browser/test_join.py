"""Joining by QR code on real (emulated) phones: the code as rendered scans, and the read-only address watches live.

The QR element is photographed by the browser and read back with zxing-cpp, so the test
fails if the page squashes, crops or recolours the code so that a camera could not read it.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import Browser, Locator, Page, Playwright, Route, expect

from tests.browser.pictures import keep_picture
from tests.browser.taps import start_game

pytestmark = pytest.mark.browser

LIVE_MS = 10_000
"""How long a tap on one phone may take to show on the others; the wait ends as soon as it shows."""


def scan(element: Locator, path: Path) -> str:
    """Photograph an element as the phone renders it, keep the picture, and return the one QR code read from it."""
    png = element.screenshot(path=str(path))
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)), formats=zxingcpp.BarcodeFormat.QRCode)
    assert len(found) == 1, f"the reader found {len(found)} QR codes in {path.name}"
    return str(found[0].text)


def open_live(page: Page, url: str) -> None:
    """Open a sheet and wait until it has opened its live stream."""
    with page.expect_request(re.compile(r"/live\?"), timeout=LIVE_MS):
        page.goto(url)


def settle(page: Page) -> None:
    """Wait until the page's service worker has cached the FAQ: a new phone's first visit fetches every answer page.

    That burst of requests competes with the live update, so the one-second promise is timed after it.
    """
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")


def test_the_rendered_code_scans_and_the_read_only_address_watches_live(
    browser: Browser, playwright: Playwright, live_server: str, phone: Page, screenshot_dir: Path
) -> None:
    """Scan the big code on phone 1, open it on phone 2, watch the read-only code on a TV; a pass cross shows everywhere."""
    sheet = start_game(phone, live_server, ["Anna", "Ben", "Cleo"])
    phone.locator("a.join-button").click()
    phone.wait_for_url(re.compile(r"/g/[^/]+/join$"))
    expect(phone.locator("figure.qr").first).to_be_visible()
    keep_picture(phone, str(screenshot_dir / "join-1-page.png"), full_page=True)

    edit_code = phone.locator("figure.qr").first
    box = edit_code.bounding_box()
    viewport = phone.viewport_size
    assert box is not None and viewport is not None
    assert box["width"] >= 0.6 * viewport["width"], "the code should fill most of the screen's width"
    assert abs(box["width"] - box["height"]) <= 2, "the code is drawn square"
    scanned = scan(edit_code, screenshot_dir / "join-2-qr.png")
    assert re.fullmatch(rf"{re.escape(live_server)}/t/[^/]+", scanned), "the big code is the table's address"
    assert phone.locator("p.address a").first.inner_text().strip() == scanned

    phone.locator("details.watch summary").click()
    watch_code = phone.locator("details.watch figure.qr")
    expect(watch_code).to_be_visible()
    watch = scan(watch_code, screenshot_dir / "join-3-qr-read-only.png")
    assert re.fullmatch(rf"{re.escape(live_server)}/g/[^/]+", watch) and watch != sheet
    assert phone.locator("details.watch p.address a").first.inner_text().strip() == watch
    keep_picture(phone, str(screenshot_dir / "join-4-page-read-only-open.png"), full_page=True)

    contexts = [browser.new_context(**playwright.devices["Pixel 7"], locale="de-DE") for _ in range(2)]
    joined, tv = (context.new_page() for context in contexts)
    try:
        open_live(joined, scanned)
        assert joined.url == sheet, "the table address opens the game being played, with edit rights"
        expect(joined.locator("button.pass-boxes")).to_have_count(3)
        open_live(tv, watch)
        expect(tv.locator(".pass-boxes")).to_have_count(3)
        assert tv.locator("form[method=post], [hx-post], button").count() == 0, "the read-only sheet offers a control"
        assert tv.locator("a.join-button, a.correct-link").count() == 0
        open_live(phone, sheet)
        for page in (phone, joined, tv):
            expect(page.locator("#live")).to_be_attached()
            settle(page)

        phone.locator("button.pass-boxes").first.click()
        expect(tv.locator(".pass-boxes").first.locator(".box.crossed")).to_have_count(1, timeout=LIVE_MS)
        expect(joined.locator(".pass-boxes").first.locator(".box.crossed")).to_have_count(1, timeout=LIVE_MS)
        keep_picture(tv, str(screenshot_dir / "join-5-read-only-live.png"), full_page=True)
        keep_picture(joined, str(screenshot_dir / "join-6-joined-phone.png"), full_page=True)

        joined.locator("button.pass-boxes").nth(1).click()
        expect(tv.locator(".pass-boxes").nth(1).locator(".box.crossed")).to_have_count(1, timeout=LIVE_MS)
        expect(phone.locator(".pass-boxes").nth(1).locator(".box.crossed")).to_have_count(1, timeout=LIVE_MS)
        assert tv.locator("form[method=post], [hx-post], button").count() == 0
    finally:
        for context in contexts:
            context.close()


def test_a_new_address_shows_a_new_code_and_shuts_the_old_one(
    browser: Browser, playwright: Playwright, live_server: str, phone: Page, screenshot_dir: Path
) -> None:
    """After "new address" the code on screen scans to a new table address; a phone still on an old address gets nothing."""
    sheet = start_game(phone, live_server, ["Anna", "Ben"])
    phone.goto(f"{sheet}/join")
    watch = (phone.locator("details.watch p.address a").first.text_content() or "").strip()
    assert watch.startswith(f"{live_server}/g/")
    table = scan(phone.locator("figure.qr").first, screenshot_dir / "join-6-table-qr.png")
    phone.locator("details.renew summary").click()
    phone.locator("details.renew button[type=submit]").click()
    phone.wait_for_url(lambda url: url.endswith("/join") and not url.startswith(f"{sheet}/"))
    fresh = scan(phone.locator("figure.qr").first, screenshot_dir / "join-7-new-address-qr.png")
    assert fresh.startswith(f"{live_server}/t/") and fresh != table
    assert (phone.locator("details.watch p.address a").first.text_content() or "").strip() == watch
    keep_picture(phone, str(screenshot_dir / "join-8-new-address.png"), full_page=True)

    context = browser.new_context(**playwright.devices["Pixel 7"], locale="de-DE")
    try:
        old = context.new_page()
        for address in (sheet, table):
            response = old.goto(address)
            assert response is not None and response.status == 404
        response = old.goto(fresh)
        assert response is not None and response.status == 200
        assert old.url == phone.url.removesuffix("/join")
        expect(old.locator("button.pass-boxes")).to_have_count(2)
    finally:
        context.close()


def test_the_live_stream_opens_even_when_its_script_comes_late(live_server: str, browser: Browser, playwright: Playwright) -> None:
    """A sheet opens its live stream even if ``hx-sse.js`` reaches the phone a moment after htmx (a slow network).

    Without the service worker, which would serve the script from the phone at once.
    """
    context = browser.new_context(**playwright.devices["Pixel 7"], locale="de-DE", service_workers="block")
    phone = context.new_page()
    sheet = start_game(phone, live_server, ["Anna", "Ben"])
    held: list[Route] = []
    script = re.compile(r"/vendor/hx-sse\.js(\?|$)")
    phone.route(script, lambda route: held.append(route))  # noqa: PLW0108 (Playwright wraps a Python function, not a bound builtin)
    streams: list[str] = []
    phone.on("request", lambda request: streams.append(request.url) if "/live?" in request.url else None)
    with phone.expect_request(script, timeout=LIVE_MS):
        phone.goto(sheet, wait_until="commit")
    phone.wait_for_function("() => window.htmx !== undefined", timeout=LIVE_MS)  # htmx runs while its extension is still away
    assert held, "the sheet did not ask for hx-sse.js"
    with phone.expect_request(re.compile(r"/live\?"), timeout=LIVE_MS):
        for route in held:
            route.continue_()
    assert streams, "the sheet never opened its live stream"
    context.close()
