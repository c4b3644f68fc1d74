"""Fixtures shared by every test layer: a migrated app per test, its client and runner, phones in Chromium, the log audit and CI rules.

The app comes from ``tests.helpers.make_app``, the one factory of test apps; a test that taps posts
through a phone's client (``tests.helpers.PhoneClient``: the ``phone`` fixture of the view tests).
"""

import os
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from hypothesis import settings
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.pool import ConnectionPoolEntry

from testbed.servers import AUDIT
from tests.browser.taps import WAIT
from tests.helpers import make_app

expect.set_options(timeout=WAIT)
"""Every expectation in a browser test waits as long as a tap may take on a busy machine (Playwright's own default is 5 s); it ends as soon as it holds."""

settings.register_profile("busy-machine", deadline=None)
settings.load_profile("busy-machine")
"""Property tests check what the rules answer, never how fast: on a busy machine Hypothesis's per-example deadline would fail a right answer."""

IN_CI = os.environ.get("CI") == "true"


@event.listens_for(Engine, "connect")
def commit_without_flushing_to_disk(dbapi_connection: Any, connection_record: ConnectionPoolEntry) -> None:
    """Let this process's SQLite connections commit without waiting for the disk (``synchronous=NORMAL``).

    On a busy disk a flush per commit made the view tests a tenth slower. WAL mode keeps every
    commit through a crash of the process either way; only a power cut could lose the last ones,
    which no test in this process looks at. The servers the system tests start run in processes
    of their own and flush every commit, as deployed.
    """
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA synchronous=NORMAL")
        finally:
            cursor.close()


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    """Return an app with its own freshly migrated database, CSRF checks on."""
    return make_app(tmp_path / "tischblock.db")


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """Return a plain test client of ``app``: it posts exactly what a test gives it (a tap without a key is refused)."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """Return a runner for the app's command-line commands."""
    return app.test_cli_runner()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch the system's Chromium instead of a browser downloaded by Playwright.

    It takes the test certificates (self-signed, or from Caddy's local CA) as a phone that
    trusts them would: the page stays a secure context, so its service worker registers.
    """
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    arguments = [*browser_type_launch_args.get("args", []), "--ignore-certificate-errors"]
    return {**browser_type_launch_args, "executable_path": chromium, "args": arguments}


PhoneMaker = Callable[..., Page]
"""Opens a new phone (its own browser profile); keyword arguments go to the browser context."""


@pytest.fixture
def new_phone(browser: Browser, playwright: Playwright) -> Iterator[PhoneMaker]:
    """Return a maker of German Pixel 7 phones, each with its own browser profile; all closed at the end."""
    contexts: list[BrowserContext] = []

    def make(**options: Any) -> Page:
        context = browser.new_context(**{**playwright.devices["Pixel 7"], "locale": "de-DE", **options})
        context.set_default_timeout(WAIT)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture(scope="session", autouse=True)
def no_token_in_any_log() -> Iterator[None]:
    """After the last test, fail if a log of any server the run started (gunicorn, Caddy, PostgreSQL, Redis) shows a game token.

    Each server hands its log and its database's tokens to ``AUDIT`` when it stops; this
    fixture is set up first and so torn down last, after every server has stopped.
    """
    yield
    leaks = AUDIT.leaks()
    if leaks:
        pytest.fail("game tokens in server logs:\n" + "\n".join(leaks[:20]), pytrace=False)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[Any]:
    """Under CI=true a skipped test fails: no layer may go missing unnoticed."""
    report = yield
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped under CI=true: {report.longrepr}"
    return report


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Iterator[Any]:
    """Under CI=true a module skipped at import fails as well."""
    report = yield
    if IN_CI and report.skipped:
        report.outcome = "failed"
        report.longrepr = f"skipped under CI=true: {report.longrepr}"
    return report
