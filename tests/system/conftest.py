"""Fixtures of the system tests: real databases (an SQLite file, a throwaway PostgreSQL 15 cluster)
and the app under real gunicorn with two gevent workers, all on 127.0.0.1 and stopped by pid.

PostgreSQL, Redis and Caddy come from Debian's packages, which ``make test`` installs; without
one, the tests that need it are skipped, except under CI=true, where a skip fails.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, create_engine

from testbed.servers import GunicornServer, PostgresCluster, migrate, sqlite_url
from tests.conftest import IN_CI

BACKENDS = ("sqlite", "postgresql")


def require(available: bool, package: str) -> None:
    """Skip a test whose server is not installed (``make test`` installs it); under CI=true, fail instead."""
    if not available:
        message = f"{package} is not installed (make test installs the Debian package {package})"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """Start a throwaway PostgreSQL 15 cluster for the session, migrate it, and remove it at the end."""
    require(PostgresCluster.available(), "postgresql")
    cluster = PostgresCluster()
    try:
        cluster.start()
        migrate(cluster.url)
        yield cluster.url
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def sqlite_database_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Return the URL of an SQLite file migrated for the session (WAL mode, as the app sets it)."""
    url = sqlite_url(tmp_path_factory.mktemp("sqlite") / "tischblock.db")
    migrate(url)
    return url


@pytest.fixture(scope="session", params=BACKENDS)
def database_url(request: pytest.FixtureRequest) -> str:
    """Return a migrated database of each kind in turn."""
    fixture = "postgres_url" if request.param == "postgresql" else "sqlite_database_url"
    url: str = request.getfixturevalue(fixture)
    return url


@pytest.fixture(scope="session")
def engine(database_url: str) -> Iterator[Engine]:
    """Return an engine for looking into the database directly, behind the server's back."""
    engine = create_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[GunicornServer]:
    """Serve the app with gunicorn (two gevent workers, streams of 5 to 50 seconds) on the database.

    A quiet stream speaks every second, so a stream whose phone hung up ends (and is logged) at once.
    """
    log = tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"
    running = GunicornServer(database_url, log, settings={"LIVE_KEEPALIVE_SECONDS": "1"}).start()
    try:
        yield running
    finally:
        running.stop()
