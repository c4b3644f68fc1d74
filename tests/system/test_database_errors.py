"""What the database refuses or cannot do is never a 500 and never puts a token in the log.

PostgreSQL refuses a NUL character in any text, where SQLite stores it; a restarted
PostgreSQL leaves every pooled connection dead. Both reach the app under real gunicorn here,
on the databases it runs on in production.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from testbed.phones import TIMEOUT, Phone, finish_round, new_auruxxx_game
from testbed.servers import GunicornServer, PostgresCluster, migrate
from tests.helpers import PLAYERS
from tests.system.conftest import require

pytestmark = pytest.mark.system

NUL = "\x00"


def other_addresses(phone: Phone, token: str) -> tuple[str, str]:
    """Return the tokens of the game's table address and of its read-only address, as its join page shows them."""
    page = phone.get(f"/g/{token}/join").text
    tables = set(re.findall(r'href="[^"]*/t/([A-Za-z0-9_-]+)', page))
    reads = set(re.findall(r'href="[^"]*/g/([A-Za-z0-9_-]+)"', page)) - {token}
    assert len(tables) == 1 and len(reads) == 1, (tables, reads)
    return tables.pop(), reads.pop()


def test_a_nul_in_an_address_a_key_or_a_field_is_refused_never_a_500(server: GunicornServer) -> None:
    """Issue 16: ``%00`` after a token (a game's, a table's, in ``back=`` or ``tv=``), in a tap's key or in any field: a 4xx, nothing stored."""
    host = Phone(server.base)
    token = new_auruxxx_game(host, PLAYERS)
    table, read = other_addresses(host, token)
    addresses = {
        f"/g/{token}%00": 404,
        f"/g/{read}%00/record.json": 404,
        f"/g/{token}%00/live": 404,
        f"/t/{table}%00": 404,
        f"/g/{read}?tv={table}%00": 200,
        f"/faq/auruxxx?back={token}%00": 200,
    }
    answers = {path: host.get(path).status_code for path in addresses}
    assert answers == addresses
    assert 'href="/g/' not in host.get(f"/faq/auruxxx?back={token}%00").text, "a broken back= leads nowhere"

    key = host.post(f"/g/{token}/pass", {"round": 0, "player": "Ben"}, key=f"tap{NUL}1")
    assert key.status_code == 400, key.text[:300]
    fields = {
        "/new/auruxxx": {"player": ["Anna", f"Ben{NUL}"], "dealer": "0", "action": "start"},
        f"/g/{token}/pass": {"round": f"0{NUL}", "player": f"Ben{NUL}"},
        f"/g/{token}/happy-man": {"round": 0, "player": NUL},
        f"/g/{token}/finish": {"round": 0, "player": f"Anna{NUL}", "golden12": f"1{NUL}"},
        f"/g/{token}/undo": {"event": NUL},
    }
    refused = {path: host.post(path, form).status_code for path, form in fields.items()}
    assert all(400 <= status < 500 for status in refused.values()), refused
    record = host.get(f"/g/{token}/record.json").json()
    imported = host.session.post(
        f"{server.base}/import",
        data=json.dumps({**record, "players": ["Anna", f"Ben{NUL}", "Cleo"]}),
        headers={"Content-Type": "application/json"},
        timeout=TIMEOUT,
    )
    assert imported.status_code == 422, imported.text[:300]

    host.session.cookies.set("device", '"\\000phone"')  # a quoted cookie's octal escape: NUL once the app reads it
    assert host.post(f"/g/{token}/pass", {"round": 0, "player": "Cleo"}).status_code == 303
    assert host.get(f"/g/{token}").text.count('class="box crossed"') == 1, "only that tap was stored"

    log = server.log_text()
    assert '" 500 ' not in log and "Traceback" not in log, log[-3000:]
    assert token not in log and read not in log and table not in log


@pytest.fixture
def restartable(tmp_path: Path) -> Iterator[tuple[PostgresCluster, GunicornServer]]:
    """A PostgreSQL cluster of this test's own (it is restarted), and one server process on it."""
    require(PostgresCluster.available(), "postgresql")
    cluster = PostgresCluster()
    server: GunicornServer | None = None
    try:
        cluster.start()
        migrate(cluster.url)
        server = GunicornServer(cluster.url, tmp_path / "gunicorn.log", workers=1).start()
        yield cluster, server
    finally:
        if server is not None:
            server.stop()
        cluster.stop()


def test_a_database_restart_costs_at_most_a_503_never_a_500(restartable: tuple[PostgresCluster, GunicornServer]) -> None:
    """Issue 16: after a restart the pooled connections are found dead before use; while the database is down, 503 with Retry-After."""
    cluster, server = restartable
    phone = Phone(server.base)
    token = new_auruxxx_game(phone, PLAYERS)
    read = other_addresses(phone, token)[1]
    for path in (f"/g/{token}", f"/g/{read}", f"/g/{token}/history"):
        assert phone.get(path).status_code == 200  # the pool now holds open connections

    cluster.restart()
    assert phone.get(f"/g/{token}").status_code == 200
    assert phone.get(f"/g/{read}").status_code == 200
    assert phone.post(f"/g/{token}/pass", {"round": 0, "player": "Ben"}).status_code == 303

    cluster.pause()
    try:
        down: dict[str, requests.Response] = {
            "sheet": phone.get(f"/g/{token}"),
            "read-only sheet": phone.get(f"/g/{read}"),
            "tap": phone.post(f"/g/{token}/pass", {"round": 0, "player": "Cleo"}, key="while-down"),
            "health": phone.get("/healthz"),
        }
    finally:
        cluster.resume()
    assert {name: answer.status_code for name, answer in down.items()} == dict.fromkeys(down, 503)
    assert all(answer.headers.get("Retry-After") for name, answer in down.items() if name != "health")
    assert phone.post(f"/g/{token}/pass", {"round": 0, "player": "Cleo"}, key="while-down").status_code == 303
    finish_round(phone, token, 0, "Anna", PLAYERS, {"Ben": 10, "Cleo": 20})
    passes = phone.get(f"/g/{token}/record.json").json()["rounds"][0]["passes"]
    assert passes == {"Anna": 0, "Ben": 1, "Cleo": 1}

    log = server.log_text()
    assert '" 500 ' not in log, log[-3000:]
    assert token not in log and read not in log, "a token reached the log"
