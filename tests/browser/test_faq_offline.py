"""The rules FAQ on a phone: results update while typing, and search still answers without a network."""

from __future__ import annotations

import json
import re
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.pictures import keep_picture
from tests.browser.taps import eventually
from tests.waiting import PATIENCE_SECONDS

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
    keep_picture(phone, str(screenshot_dir / "faq-1-search-as-you-type.png"))

    box.fill("")
    box.press_sequentially("Kartentausch", delay=20)
    expect(phone.locator("#results .hit").first.locator(".hit-question")).to_contain_text("Kartentausch")
    assert phone.evaluate("window.__notReloaded") is True  # the page was never reloaded
    assert phone.url == f"{live_server}/faq/auruxxx"


def test_on_a_slow_answer_the_results_are_for_the_question_as_it_stands_now(phone: Page, live_server: str) -> None:
    """The server is slow to answer while the player changes the question twice: the results follow the last one."""
    phone.goto(f"{live_server}/faq/auruxxx")
    phone.evaluate("window.__asked = 0; document.addEventListener('htmx:config:request', () => window.__asked++)")
    held: list[Route] = []
    released = False

    def slow_server(route: Route) -> None:
        """Hold every search until the player has typed all three questions."""
        if released:
            route.continue_()
        else:
            held.append(route)

    phone.route(re.compile(r"/faq/search\?"), slow_server)
    box = phone.locator("#faq-q")
    for asked, question in enumerate(("wie oft aussetzen", "Happy-Man halbiert", "Kartentausch"), start=1):
        box.fill(question)
        eventually(phone, "(asked) => window.__asked >= asked", asked)
    released = True
    for route in held:
        route.continue_()
    expect(phone.locator("#results .hit").first.locator(".hit-question")).to_contain_text("Kartentausch")
    expect(phone.locator("#results")).not_to_contain_text("halbiert")


def keep_offline(phone: Page, address: str) -> None:
    """Open a FAQ page and wait until the service worker controls it and holds the search index."""
    phone.goto(address)
    phone.evaluate("navigator.serviceWorker.ready.then(() => true)")
    phone.wait_for_function("!!navigator.serviceWorker.controller", timeout=10_000)
    eventually(phone, "caches.match('/faq/offline-index.json').then((r) => !!r)")


def test_search_works_offline_once_the_faq_was_opened(phone: Page, live_server: str, screenshot_dir: Path) -> None:
    keep_offline(phone, f"{live_server}/faq/auruxxx")
    # The worker warms every rules page at install, answers included (see sw.js).
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
    keep_picture(phone, str(screenshot_dir / "faq-2-offline-results.png"))

    results.locator("a[href='/faq/auruxxx/happy-man-halving']").click()
    expect(phone.locator("article.faq-entry h1")).to_contain_text("Happy-Man")
    assert phone.url.endswith("/faq/auruxxx/happy-man-halving")
    keep_picture(phone, str(screenshot_dir / "faq-3-offline-entry.png"))
    phone.context.set_offline(False)


def test_a_search_sent_while_the_phone_only_thinks_it_is_online_is_answered_from_the_phone(phone: Page, live_server: str) -> None:
    """Patchy Wi-Fi: the browser says it is online, so the search goes out as a page; the network fails it, and the worker
    shows the game's kept FAQ page at the search's address, which answers the question from the phone."""
    phone.add_init_script("Object.defineProperty(Navigator.prototype, 'onLine', { get: () => true })")
    keep_offline(phone, f"{live_server}/faq/auruxxx")
    phone.context.set_offline(True)
    phone.reload()
    phone.locator("#faq-q").fill("happyman halbirt")
    phone.locator("form.faq-search button[type=submit]").click()
    phone.wait_for_url(f"{live_server}/faq/search?game=auruxxx&q=happyman+halbirt")
    expect(phone.locator("#faq-q")).to_have_value("happyman halbirt")
    results = phone.locator("#results")
    expect(results).to_have_attribute("data-offline", "true")
    expect(results.locator(".hit a").first).to_have_attribute("href", "/faq/auruxxx/happy-man-halving")
    phone.context.set_offline(False)


def server_top(live_server: str, query: str, game: str, lang: str) -> list[str]:
    """Return the ids of the server's best three answers to a query."""
    address = f"{live_server}/faq/search?" + urllib.parse.urlencode({"q": query, "game": game, "lang": lang})
    with urllib.request.urlopen(urllib.request.Request(address, headers={"Accept": "application/json"}), timeout=PATIENCE_SECONDS) as got:
        return [hit["id"] for hit in json.load(got)][:3]


@pytest.mark.parametrize("query", ["hapy man halbiert", "wie oft darf man pasen", "Karten Tausch", "santa und mrs claus zusammen"])
def test_offline_search_in_chromium_ranks_like_the_server(phone: Page, live_server: str, query: str) -> None:
    """The page's own offline search, in the browser, puts the server's best three answers in the same order."""
    keep_offline(phone, f"{live_server}/faq/12days" if "santa" in query else f"{live_server}/faq/auruxxx")
    form = phone.locator("form.faq-search")
    game, lang = form.get_attribute("data-game") or "", form.get_attribute("data-lang") or ""
    expected = server_top(live_server, query, game, lang)
    assert len(expected) == 3
    phone.context.set_offline(True)
    phone.locator("#faq-q").fill(query)
    phone.locator("#faq-q").press("Enter")
    results = phone.locator("#results")
    expect(results).to_have_attribute("data-offline", "true")
    for place, entry_id in enumerate(expected):
        expect(results.locator(".hit a").nth(place)).to_have_attribute("href", f"/faq/{game}/{entry_id}")
    phone.context.set_offline(False)


def test_a_question_the_faq_cannot_answer_gets_no_answer_and_the_topics_offline_too(
    phone: Page, live_server: str, screenshot_dir: Path
) -> None:
    """Offline, the phone says there is no answer and offers the game's topics, as the server does."""
    keep_offline(phone, f"{live_server}/faq/12days")
    phone.context.set_offline(True)
    phone.locator("#faq-q").fill("pizza bestellen")
    phone.locator("#faq-q").press("Enter")
    results = phone.locator("#results")
    expect(results).to_have_attribute("data-offline", "true")
    expect(results).to_contain_text("Keine Antwort gefunden")
    expect(results.locator(".hit")).to_have_count(0)
    expect(results.locator("a[href^='/faq/12days#topic-']").first).to_be_visible()
    keep_picture(phone, str(screenshot_dir / "faq-4-offline-no-answer.png"))
    phone.context.set_offline(False)
