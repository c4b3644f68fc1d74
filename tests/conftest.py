"""Fixtures shared by every test layer: a migrated app per test, its clients, and CI rules."""

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flask_migrate
import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from app import create_app
from infra.config import TestConfig

IN_CI = os.environ.get("CI") == "true"


def migrated_app(database: Path) -> Flask:
    """Build a test app on a fresh SQLite file whose schema comes from the migrations."""

    class FileDatabase(TestConfig):
        SQLALCHEMY_DATABASE_URI = f"sqlite:///{database}"

    app = create_app(FileDatabase)
    with app.app_context():
        flask_migrate.upgrade()
    return app


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    """Return an app with its own freshly migrated database."""
    return migrated_app(tmp_path / "tischblock.db")


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """Return a test client that talks to ``app``."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """Return a runner for the app's command-line commands."""
    return app.test_cli_runner()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch the system's Chromium instead of a browser downloaded by Playwright."""
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    return {**browser_type_launch_args, "executable_path": chromium}


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
