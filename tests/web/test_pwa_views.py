"""The app on the phone, through the test client: manifest, service worker, offline page, fingerprinted files."""

from __future__ import annotations

import html
import io
import json
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask, url_for
from flask.testing import FlaskClient
from PIL import Image

from faq.content import load_outlines
from tests.helpers import DE, EN, PhoneClient, phone_of, start
from views.site.assets import LONG_LIFE_SECONDS, fingerprint
from views.site.pwa import ICONS, phone_texts


def worker_settings(client: FlaskClient) -> dict[str, object]:
    """Return the settings the server puts in front of the service worker's code."""
    script = client.get("/sw.js").get_data(as_text=True)
    found = re.match(r"self\.TISCHBLOCK = (\{.*?\});\n", script)
    assert found, script[:200]
    settings: dict[str, object] = json.loads(found.group(1))
    return settings


# --- The manifest ---------------------------------------------------------------------------


def test_every_kind_of_page_links_the_manifest(phone: PhoneClient) -> None:
    sheet = f"/g/{start(phone, 'auruxxx')}"
    for page in ("/", "/faq", "/faq/auruxxx", "/new/12days", sheet, f"{sheet}/history", "/offline", "/no-such-page"):
        body = phone.get(page).get_data(as_text=True)
        assert '<link rel="manifest" href="/manifest.webmanifest">' in body, page


def test_manifest_makes_the_app_installable(phone: PhoneClient) -> None:
    response = phone.get("/manifest.webmanifest", headers=DE)
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.get_data(as_text=True))
    assert manifest["name"] == manifest["short_name"] == "Tischblock"
    assert manifest["start_url"] == manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#1d4d3b" and manifest["background_color"]
    assert manifest["lang"] == "de" and "Kartentisch" in manifest["description"]
    kinds = {(icon["type"], icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert kinds == {
        ("image/svg+xml", "any", "any"),
        ("image/png", "192x192", "any"),
        ("image/png", "512x512", "any"),
        ("image/png", "512x512", "maskable"),
    }


def test_manifest_speaks_the_readers_language(phone: PhoneClient) -> None:
    manifest = phone.get("/manifest.webmanifest", headers=EN).get_json(force=True)
    assert manifest["lang"] == "en" and "card table" in manifest["description"]


def test_every_icon_is_there_in_its_stated_size(phone: PhoneClient) -> None:
    manifest = phone.get("/manifest.webmanifest").get_json(force=True)
    for icon in manifest["icons"]:
        response = phone.get(icon["src"])
        assert response.status_code == 200, icon["src"]
        assert response.mimetype == icon["type"]
        if icon["type"] == "image/png":
            width, height = Image.open(io.BytesIO(response.data)).size
            assert f"{width}x{height}" == icon["sizes"]


def test_the_maskable_icon_fills_its_corners(phone: PhoneClient) -> None:
    """A phone crops a maskable icon to its own shape: the corners must be the icon's felt, not transparent."""
    maskable = next(icon for icon in ICONS if icon.purpose == "maskable")
    image = Image.open(io.BytesIO(phone.get(f"/static/{maskable.filename}").data)).convert("RGBA")
    for corner in ((0, 0), (image.width - 1, 0), (0, image.height - 1), (image.width - 1, image.height - 1)):
        assert image.getpixel(corner) == (0x1D, 0x4D, 0x3B, 255)


# --- Fingerprinted static files --------------------------------------------------------------


def test_static_addresses_carry_the_files_fingerprint(plain_app: Flask) -> None:
    with plain_app.test_request_context():
        address = url_for("static", filename="css/app.css")
        assert parse_qs(urlsplit(address).query)["v"] == [fingerprint("css/app.css")]
        assert url_for("static", filename="no/such/file.css") == "/static/no/such/file.css"


def test_a_fingerprinted_file_is_kept_for_a_year(phone: PhoneClient, plain_app: Flask) -> None:
    with plain_app.test_request_context():
        address = url_for("static", filename="js/app.js")
    response = phone.get(address)
    assert response.status_code == 200
    assert response.cache_control.max_age == LONG_LIFE_SECONDS
    assert response.cache_control.public and response.cache_control.immutable
    assert not response.cache_control.no_cache


@pytest.mark.parametrize("query", ["", "?v=0123456789ab"])
def test_a_file_asked_for_without_its_current_fingerprint_is_checked_again(phone: PhoneClient, query: str) -> None:
    response = phone.get(f"/static/js/app.js{query}")
    assert response.status_code == 200
    assert response.cache_control.no_cache and not response.cache_control.immutable
    assert response.cache_control.max_age is None


def test_a_changed_file_gets_a_new_fingerprint(app: Flask, tmp_path: Path) -> None:
    app.static_folder = str(tmp_path)
    style = tmp_path / "style.css"
    style.write_text("body { color: red; }")
    with app.test_request_context():
        before = url_for("static", filename="style.css")
        style.write_text("body { color: green; }")
        after = url_for("static", filename="style.css")
    assert before != after
    assert phone_of(app).get(after).cache_control.immutable
    assert not phone_of(app).get(before).cache_control.immutable


def test_a_fingerprint_never_reaches_outside_the_static_folder(plain_app: Flask) -> None:
    with plain_app.test_request_context():
        assert fingerprint("../app.py") is None
        assert fingerprint("") is None


# --- The service worker -----------------------------------------------------------------------


def test_service_worker_is_served_from_the_root_and_never_cached(phone: PhoneClient) -> None:
    response = phone.get("/sw.js")
    assert response.status_code == 200
    assert "javascript" in response.mimetype
    assert response.cache_control.no_cache and response.cache_control.max_age == 0
    assert "importScripts(...settings.workbox)" in response.get_data(as_text=True)


def test_everything_the_service_worker_keeps_exists(phone: PhoneClient) -> None:
    settings = worker_settings(phone)
    precache = settings["precache"]
    pages = settings["pages"]
    assert isinstance(precache, list) and isinstance(pages, list) and isinstance(settings["workbox"], list)
    for entry in precache:
        assert phone.get(entry["url"]).status_code == 200, entry
        assert entry["revision"] or "?v=" in entry["url"], entry  # each is either fingerprinted or has a revision
    for url in [*pages, *settings["workbox"]]:
        assert phone.get(url).status_code == 200, url


def test_the_worker_keeps_the_app_shell_and_every_static_file(phone: PhoneClient) -> None:
    kept = {urlsplit(entry["url"]).path for entry in worker_settings(phone)["precache"]}  # type: ignore[union-attr]
    assert {
        "/offline",
        "/static/css/app.css",
        "/static/js/app.js",
        "/static/js/outbox.js",
        "/static/vendor/htmx.min.js",
        "/static/vendor/hx-sse.js",
        "/static/generated/icons/tischblock-192.png",
    } <= kept
    assert "/static/sw.js" not in kept


def test_the_worker_warms_the_rules_of_every_game_the_server_knows(phone: PhoneClient) -> None:
    pages = worker_settings(phone)["pages"]
    assert isinstance(pages, list)
    assert {"/", "/faq", "/faq/offline-index.json", *(f"/faq/{game}" for game in load_outlines())} <= set(pages)
    assert "/faq/auruxxx/happy-man-halving" in pages


def test_a_changed_static_file_changes_the_worker_so_phones_install_the_new_version(app: Flask, tmp_path: Path) -> None:
    """The browser compares the worker byte for byte: a new fingerprint in its list makes it install and take over."""
    app.static_folder = str(tmp_path)
    (tmp_path / "sw.js").write_text("// the worker")
    style = tmp_path / "style.css"
    style.write_text("body { color: red; }")
    client = phone_of(app)
    before = client.get("/sw.js").get_data(as_text=True)
    style.write_text("body { color: green; }")
    after = client.get("/sw.js").get_data(as_text=True)
    assert before != after
    assert f"/static/style.css?v={fingerprint_in(app, 'style.css')}" in after


def fingerprint_in(app: Flask, filename: str) -> str | None:
    """Return a static file's fingerprint as the app sees it now."""
    with app.test_request_context():
        return fingerprint(filename)


def test_a_new_offline_page_gets_a_new_revision(phone: PhoneClient) -> None:
    """The offline page has no fingerprint in its address: its revision follows its text (here: its language)."""

    def revision(language: str) -> str:
        phone.get(f"/lang/{language}")
        precache = worker_settings(phone)["precache"]
        assert isinstance(precache, list)
        return str(next(entry["revision"] for entry in precache if entry["url"] == "/offline"))

    assert revision("de") != revision("en")


# --- The offline page and the sheet's phone texts ---------------------------------------------------


def test_offline_page_says_what_works_without_a_connection(phone: PhoneClient) -> None:
    german = phone.get("/offline", headers=DE).get_data(as_text=True)
    assert "Keine Verbindung" in german and "Regeln" in german
    english = phone.get("/offline", headers=EN).get_data(as_text=True)
    assert "No connection" in english


def test_phone_texts_are_german_for_a_german_reader(plain_app: Flask) -> None:
    with plain_app.test_request_context(headers=DE):
        texts = phone_texts()
    assert texts["offlineAsOf"] == "offline – Stand von {time}"
    assert texts["waitingMany"] == "offline – {n} Änderungen warten"
    assert texts["waitingOne"] == "offline – 1 Änderung wartet"
    assert texts["refused"] == "Nicht gezählt: {tap}"
    with plain_app.test_request_context(headers=EN):
        english = phone_texts()
    assert english["waitingMany"] == "offline – {n} changes waiting"
    assert english.keys() == texts.keys()
    assert all(texts[name] != english[name] for name in texts if name != "offlineAsOf")


def test_a_sheet_carries_when_it_was_drawn_its_phone_texts_and_what_each_tap_is(phone: PhoneClient) -> None:
    sheet = f"/g/{start(phone, 'auruxxx')}"
    page = phone.get(sheet, headers=DE).get_data(as_text=True)
    assert re.search(r'<section id="sheet"[^>]* data-as-of="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"', page)
    texts = re.search(r"<div id=\"connection\"[^>]* data-texts='([^']*)'", page)
    assert texts and json.loads(html.unescape(texts.group(1)))["sendNow"] == "Jetzt senden"
    assert 'data-tap="Runde 1: Kreuz für Anna"' in page
    fragment = phone.get(sheet, headers={**DE, "HX-Request": "true"}).get_data(as_text=True)
    assert fragment.lstrip().startswith('<section id="sheet"') and "data-as-of=" in fragment
    assert 'id="notices"' not in fragment  # the notices stay outside what a live update replaces


def test_a_twelve_days_card_shows_on_its_face_while_it_waits(phone: PhoneClient) -> None:
    sheet = f"/g/{start(phone, '12days')}"
    page = phone.get(sheet, headers=EN).get_data(as_text=True)
    assert 'id="card-face-0"' in page
    assert re.search(r'data-tap="Anna reveals 1" data-pending-in="#card-face-0" data-pending-shows="1"', page)
