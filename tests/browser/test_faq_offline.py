"""The rules FAQ on a phone: results update while typing, and search still answers without a network."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.taps import eventually

pytestmark = pytest.mark.browser


def test_results_update_while_typing_without_reload(phone: Page, live_server: str, screenshot_dir: Path) -> None:
    phone.goto(f"{live_server}/faq/auruxxx")
    phone.evaluate("window.__notReloaded = true")
    box = phone.locator("#faq-q")
    box.press_sequentially("wie oft aussetzen", delay=20)
    first = phone.locator("#results .hit").first
    expect(first).to_be_visible()
    expect(first.locator(".hit-question")).to_contain_text("passen")
    expect(phone.locator("#results mark").first).to_be_visible()
    phone.screenshot(path=str(screenshot_dir / "faq-1-search-as-you-type.png"))

    box.fill("")
    box.press_sequentially("Kartentausch", delay=20)
    expect(phone.locator("#results .hit").first.locator(".hit-question")).to_contain_text("Kartentausch")
    assert phone.evaluate("window.__notReloaded") is True  # the page was never reloaded
    assert phone.url == f"{live_server}/faq/auruxxx"


def test_search_works_offline_once_the_faq_was_opened(phone: Page, live_server: str, screenshot_dir: Path) -> None:
    phone.goto(f"{live_server}/faq/auruxxx")
    phone.evaluate("navigator.serviceWorker.ready.then(() => true)")
    phone.wait_for_function("!!navigator.serviceWorker.controller", timeout=10_000)
    # The worker warms every rules page at install, answers included (see sw.js).
    eventually(phone, "caches.match('/faq/offline-index.json').then((r) => !!r)")
    eventually(phone, "caches.match('/faq/auruxxx/happy-man-halving').then((r) => !!r)")

    phone.context.set_offline(True)
    phone.reload()
    expect(phone.locator("h1")).to_contain_text("AURUXXX")
    box = phone.locator("#faq-q")
    box.press_sequentially("happyman halbirt", delay=20)
    box.press("Enter")
    results = phone.locator("#results")
    expect(results).to_have_attribute("data-offline", "true")
    first = results.locator(".hit").first
    expect(first).to_be_visible()
    expect(first.locator(".hit-question")).to_contain_text("Happy-Man")
    phone.screenshot(path=str(screenshot_dir / "faq-2-offline-results.png"))

    results.locator("a[href='/faq/auruxxx/happy-man-halving']").click()
    expect(phone.locator("article.faq-entry h1")).to_contain_text("Happy-Man")
    assert phone.url.endswith("/faq/auruxxx/happy-man-halving")
    phone.screenshot(path=str(screenshot_dir / "faq-3-offline-entry.png"))
    phone.context.set_offline(False)
