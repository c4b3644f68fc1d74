"""Fixtures for the web tests: an app whose forms need no CSRF token, beside the strict ``app``.

Most view tests post forms the way a phone does, minus the token; the tests that prove a
form without its token is refused use the ``app``/``client`` fixtures of ``tests/conftest.py``,
which keep CSRF protection on.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import flask_migrate
import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from config import TestConfig


def no_csrf_app(database: Path) -> Flask:
    """Return an app on the SQLite file ``database`` that does not ask forms for a CSRF token."""

    class NoCsrf(TestConfig):
        SQLALCHEMY_DATABASE_URI = f"sqlite:///{database}"
        WTF_CSRF_ENABLED = False

    return create_app(NoCsrf)


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return a database file migrated once per session, for tests to copy."""
    database = tmp_path_factory.mktemp("template") / "migrated.db"
    with no_csrf_app(database).app_context():
        flask_migrate.upgrade()
    return database


@pytest.fixture
def plain_app(tmp_path: Path, migrated_database: Path) -> Flask:
    """Return an app without CSRF checks on its own copy of the freshly migrated database."""
    database = tmp_path / "plain.db"
    shutil.copyfile(migrated_database, database)
    return no_csrf_app(database)


@pytest.fixture
def plain_client(plain_app: Flask) -> FlaskClient:
    """Return a test client of ``plain_app``."""
    return plain_app.test_client()
