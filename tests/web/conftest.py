"""Fast fixtures for the view tests: one app per session and kind, a freshly migrated database per test.

Building an app is slow (the FAQ search index is built on every ``create_app``), so the view
tests share two apps for the whole session and get a pristine copy of a database migrated once
instead: ``plain_app`` does not ask forms for a CSRF token, so most view tests post forms the
way a phone does minus the token; ``strict_app`` keeps CSRF protection on, like ``app`` of
``tests/conftest.py``, for the tests that prove a form without its token is refused.

A test that taps asks for ``phone`` (or ``strict_phone``): a client that sends a tap's key and
``seen`` as a phone's sheet does (``tests.helpers.PhoneClient``). ``plain_client`` and
``strict_client`` post exactly what a test gives them. ``driver`` plays a table through
``phone`` (``tests/web/driver.py``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from models import db
from tests.helpers import PhoneClient, make_app, phone_of
from tests.web import auruxxx_states, plain_states, twelve_days_states
from tests.web.driver import TableDriver

GAME_STATES = (auruxxx_states, twelve_days_states, plain_states)
"""Each game's states and forms, registered in ``tests.web.states`` as these modules load: one line per game."""


def close_database(app: Flask) -> None:
    """Close every connection of ``app``; closing the last one folds SQLite's write-ahead log into the file."""
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return a database file migrated once per session, for every test to copy."""
    database = tmp_path_factory.mktemp("template") / "migrated.db"
    close_database(make_app(database, csrf=False))
    return database


def fresh(app: Flask, migrated_database: Path) -> Flask:
    """Give ``app`` a pristine copy of the migrated database and return it."""
    close_database(app)
    database = Path(str(app.config["SQLALCHEMY_DATABASE_URI"]).removeprefix("sqlite:///"))
    for leftover in (Path(f"{database}-wal"), Path(f"{database}-shm")):
        leftover.unlink(missing_ok=True)
    shutil.copyfile(migrated_database, database)
    return app


@pytest.fixture(scope="session")
def shared_plain_app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    """Return the session's app without CSRF checks (its database is replaced per test)."""
    return make_app(tmp_path_factory.mktemp("plain") / "tischblock.db", csrf=False, migrate=False)


@pytest.fixture(scope="session")
def shared_strict_app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    """Return the session's app with CSRF checks (its database is replaced per test)."""
    return make_app(tmp_path_factory.mktemp("strict") / "tischblock.db", migrate=False)


@pytest.fixture
def plain_app(shared_plain_app: Flask, migrated_database: Path) -> Flask:
    """Return an app without CSRF checks on a freshly migrated, empty database."""
    return fresh(shared_plain_app, migrated_database)


@pytest.fixture
def plain_client(plain_app: Flask) -> FlaskClient:
    """Return a new plain test client (no cookies yet) of ``plain_app``: it posts exactly what a test gives it."""
    return plain_app.test_client()


@pytest.fixture
def phone(plain_app: Flask) -> PhoneClient:
    """Return a new phone (no cookies yet) of ``plain_app``: its taps carry a key and ``seen`` as a sheet's forms do."""
    return phone_of(plain_app)


@pytest.fixture
def strict_app(shared_strict_app: Flask, migrated_database: Path) -> Flask:
    """Return an app with CSRF checks on a freshly migrated, empty database."""
    return fresh(shared_strict_app, migrated_database)


@pytest.fixture
def strict_client(strict_app: Flask) -> FlaskClient:
    """Return a new plain test client (no cookies yet) of ``strict_app``: it posts exactly what a test gives it."""
    return strict_app.test_client()


@pytest.fixture
def strict_phone(strict_app: Flask) -> PhoneClient:
    """Return a new phone (no cookies yet) of ``strict_app``: its taps carry a key and ``seen``, not the CSRF token."""
    return phone_of(strict_app)


@pytest.fixture
def strict_runner(strict_app: Flask) -> FlaskCliRunner:
    """Return a runner for the command-line commands of ``strict_app``."""
    return strict_app.test_cli_runner()


@pytest.fixture
def driver(plain_app: Flask, phone: PhoneClient) -> TableDriver:
    """Return the phones of one table on ``plain_app``: start a game, tap, enter hands, read what came of it."""
    return TableDriver(plain_app, phone)
