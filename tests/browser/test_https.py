"""Over HTTPS, as ``make run`` serves it with ``TLS_CERT``/``TLS_KEY``: every form works in Chromium, and the phone app installs.

The server is ``python -m serving`` with a throwaway self-signed certificate and
``SESSION_COOKIE_SECURE=1``, on an SQLite file, exactly as a host would start it for a LAN.
Over HTTPS Flask-WTF also checks that a form was sent from one of the app's own pages (its
``Referer``), so every form is sent here by a tap, the way a phone sends it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from testbed.servers import GunicornServer, migrate, self_signed_certificate, sqlite_url
from tests.browser.taps import (
    crossed,
    end_round_across,
    eventually,
    finish_round,
    install,
    join_second_phone,
    open_hand,
    pass_cross,
    press_at_once,
    start_game,
    tap_across,
)
from tests.conftest import PhoneMaker
from tests.helpers import PLAYERS

pytestmark = pytest.mark.browser

WAKE_LOCK_SPY = """
window.wakeLockRequests = [];
if (navigator.wakeLock) {
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = (type) => {
    window.wakeLockRequests.push(type);
    return request(type);
  };
}
"""
"""Notes every wake lock the page asks the browser's own Screen Wake Lock API for (which exists in secure contexts only)."""


@pytest.fixture(scope="module")
def https_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GunicornServer]:
    """Serve the app over HTTPS with a certificate made for this module, as ``make run`` does with TLS_CERT/TLS_KEY."""
    folder = tmp_path_factory.mktemp("https")
    database = sqlite_url(folder / "tischblock.db")
    migrate(database)
    server = GunicornServer(
        database, folder / "gunicorn.log", tls=self_signed_certificate(folder), settings={"SESSION_COOKIE_SECURE": "1"}
    ).start()
    try:
        yield server
    finally:
        server.stop()


def secure_phone(new_phone: PhoneMaker) -> Page:
    """Open a phone that trusts the table's certificate (as one would once its owner accepted it)."""
    phone = new_phone(ignore_https_errors=True)
    phone.context.add_init_script(WAKE_LOCK_SPY)
    return phone


def test_every_form_works_over_https(new_phone: PhoneMaker, https_server: GunicornServer, tmp_path: Path) -> None:
    """Issue 16: start, join on a second phone, tap, finish with hands, correct, import and rematch, all by taps over HTTPS."""
    base = https_server.base
    anna, ben = secure_phone(new_phone), secure_phone(new_phone)
    sheet = start_game(anna, base, PLAYERS)
    assert anna.evaluate("isSecureContext")

    join_second_phone(anna, ben, sheet, base)
    tap_across(anna, ben)
    end_round_across(anna, ben)

    anna.locator("#sheet tr.round--done").nth(0).locator("a.correct-link").tap()
    anna.wait_for_url(re.compile(r"/rounds/1/correct$"))
    anna.locator("#correct input[name=hand-2]").fill("25")
    anna.locator("#correct button.primary").tap()
    anna.wait_for_url(sheet)
    record = json.loads(anna.request.get(f"{sheet}/record.json").text())
    assert record["rounds"][0]["hands"]["Cleo"] == {"points": 25}
    assert record["rounds"][0]["hands"]["Ben"] == {"points": 10}
    assert record["rounds"][0]["passes"] == {"Anna": 1, "Ben": 1, "Cleo": 0}

    exported = tmp_path / "record.json"
    exported.write_text(json.dumps({**record, "rounds": record["rounds"] * 3}))  # a whole game: three such rounds
    ben.goto(f"{base}/import")
    ben.locator("input[name=record]").set_input_files(str(exported))
    ben.locator("form.import button[type=submit]").tap()
    ben.wait_for_url(re.compile(r"/g/[^/]+$"))
    imported = ben.url
    assert imported != sheet
    expect(ben.locator("#sheet tr.round--done")).to_have_count(3)

    ben.locator("form[action$='/rematch'] button").tap()
    ben.wait_for_url(lambda address: address != imported and re.search(r"/g/[^/]+$", address) is not None)
    expect(ben.locator("#sheet thead th.player .name")).to_have_text(PLAYERS)
    expect(ben.locator("#sheet tr.round--done")).to_have_count(0)

    # The rules FAQ's search form, answered by a worker that forked with the FAQ its master built and taught.
    ben.goto(f"{base}/faq/auruxxx")
    ben.locator("#faq-q").fill("wie oft darf man passen")
    ben.locator("form.faq-search button[type=submit]").tap()
    expect(ben.locator("#results .hit a").first).to_have_attribute("href", re.compile(r"^/faq/auruxxx/passing-limit-and-cost"))

    log = https_server.log_text()
    assert '" 400 ' not in log and "Traceback" not in log, log[-3000:]


def test_keys_tapped_faster_than_the_server_answers_all_count_over_https(new_phone: PhoneMaker, https_server: GunicornServer) -> None:
    """Three 7s tapped in one burst on a hand keypad: each waiting key is sent again from the keypad's answer, form token and all, and counts."""
    phone = secure_phone(new_phone)
    sheet = start_game(phone, https_server.base, PLAYERS)
    finish_round(phone, "Anna", 1)
    open_hand(phone, 2)
    press_at_once(phone, "#keypad button.key[value='add:n7']", 3)
    expect(phone.locator("#keypad .entered .card")).to_have_text(["7", "7", "7"])
    phone.locator("#keypad button[value=save]").tap()
    phone.wait_for_url(sheet)
    record = json.loads(phone.request.get(f"{sheet}/record.json").text())
    assert record["open_round"]["hands"]["Cleo"]["numbers"] == [7, 7, 7]
    log = https_server.log_text()
    assert '" 400 ' not in log and "Traceback" not in log, log[-3000:]


def test_the_phone_app_installs_keeps_the_screen_on_and_reloads_offline_over_https(
    new_phone: PhoneMaker, https_server: GunicornServer
) -> None:
    """Issue 16: over HTTPS the service worker controls the sheet, the wake lock is asked for, and the sheet reloads without a network."""
    phone = secure_phone(new_phone)
    sheet = start_game(phone, https_server.base, PLAYERS)
    pass_cross(phone, 2)
    install(phone)
    assert phone.evaluate("isSecureContext && 'wakeLock' in navigator")
    phone.wait_for_function("window.wakeLockRequests.includes('screen')")

    cdp = phone.context.new_cdp_session(phone)
    assert cdp.send("Page.getAppManifest")["errors"] == []
    errors = {error["errorId"] for error in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]}
    assert errors <= {"in-incognito"}, errors

    phone.context.set_offline(True)
    phone.reload()
    assert phone.url == sheet
    expect(crossed(phone, 2)).to_have_count(1)
    expect(phone.locator("#connection")).to_contain_text("offline")
    phone.context.set_offline(False)

    # The FAQ the phone keeps answers without a network, from the index and the model the server shipped over HTTPS.
    phone.goto(f"{https_server.base}/faq/auruxxx")
    eventually(phone, "caches.match('/faq/offline-index.json').then((kept) => !!kept)")
    phone.context.set_offline(True)
    phone.reload()
    phone.locator("#faq-q").press_sequentially("happyman halbirt", delay=20)
    phone.locator("#faq-q").press("Enter")
    expect(phone.locator("#results")).to_have_attribute("data-offline", "true")
    expect(phone.locator("#results .hit a").first).to_have_attribute("href", re.compile(r"^/faq/auruxxx/happy-man-halving"))
    phone.context.set_offline(False)
