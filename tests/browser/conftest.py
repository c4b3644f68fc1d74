"""A live Tischblock server for the browser tests, and a phone to look at it with."""

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, Playwright
from werkzeug.serving import make_server

from faq.search import warm
from tests.browser.taps import WAIT
from tests.helpers import make_app

SCREENSHOTS = Path(__file__).resolve().parent.parent / "screenshots"


@pytest.fixture(scope="session")
def live_app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    """Return the migrated app the live server serves, for tests that look into its database."""
    return make_app(tmp_path_factory.mktemp("live") / "tischblock.db")


@pytest.fixture(scope="session")
def live_server(live_app: Flask) -> Iterator[str]:
    """Serve the live app on a free local port for the whole session; yield its base URL.

    The emulated phones run on this machine and reach the server on the loopback, so that is
    the "network address" the join page gives them (a real phone would get the LAN address).
    The rules FAQ is built first, as a deployed server builds it before its workers start
    (``serving.hooks``): built on a phone's first question or service-worker install instead,
    it would take seconds of CPU in the middle of a test.
    """
    warm()
    server = make_server("127.0.0.1", 0, live_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("views.pages.qr.lan_address", lambda: "127.0.0.1")
        thread.start()
        yield f"http://127.0.0.1:{server.server_port}"
        server.shutdown()
        thread.join()


@pytest.fixture
def phone(browser: Browser, playwright: Playwright) -> Iterator[Page]:
    """Open a page on an emulated Pixel 7 whose browser prefers German."""
    context = browser.new_context(**playwright.devices["Pixel 7"], locale="de-DE")
    context.set_default_timeout(WAIT)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def screenshot_dir() -> Path:
    """Return the folder the browser tests keep their screenshots in."""
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS
