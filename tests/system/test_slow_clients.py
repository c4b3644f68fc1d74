"""Slow clients cannot take the connections of ``make run``, which has nothing in front of it on a LAN.

A request's body must arrive within ``REQUEST_READ_SECONDS``, and one client address holds at
most ``CONNECTIONS_PER_ADDRESS`` connections in a server process. The clients here are plain
sockets that send a request's headers and the start of its body, then nothing more: what a
slow-body attack (or a phone that walked out of the Wi-Fi) does to a server.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from testbed.phones import Phone, new_auruxxx_game
from testbed.servers import GunicornServer, self_signed_certificate

pytestmark = pytest.mark.system

WAIT = 30.0
"""How long a client waits for the server's answer; the test goes on as soon as it comes."""
STRANGER = "127.0.0.2"
"""Another client as far as the server can tell: Linux routes all of 127.0.0.0/8 to this machine."""


def stalled_body(port: int, source: str = "127.0.0.1") -> socket.socket:
    """Open a connection that sends a new-game form's headers and 10 of its 100 bytes, and then nothing."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=WAIT, source_address=(source, 0))
    connection.sendall(
        b"POST /new/auruxxx HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        b"Content-Length: 100\r\n\r\nplayer=Ann"
    )
    return connection


def answer_of(connection: socket.socket) -> bytes:
    """Return everything the server sends until it closes the connection (or ``WAIT`` passes)."""
    received = b""
    try:
        while chunk := connection.recv(65536):
            received += chunk
    except TimeoutError:
        pass
    return received


def served(server: GunicornServer, source: str) -> bytes:
    """Return the answer to a plain request for the front page from ``source``."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=WAIT, source_address=(source, 0)) as connection:
        connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return answer_of(connection)


@pytest.fixture
def limited(sqlite_database_url: str, tmp_path: Path) -> Iterator[Callable[..., GunicornServer]]:
    """Return a starter of servers (one worker) with the given settings, over HTTPS if asked; all stopped at the end."""
    started: list[GunicornServer] = []

    def start(*, tls: bool = False, **settings: str) -> GunicornServer:
        server = GunicornServer(
            sqlite_database_url,
            tmp_path / f"gunicorn-{len(started)}.log",
            workers=1,
            settings=settings,
            tls=self_signed_certificate(tmp_path) if tls else None,
        )
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()


def test_a_body_that_stops_arriving_is_cut_off_with_408(limited: Callable[..., GunicornServer]) -> None:
    """Issue 16: a body still incomplete after ``REQUEST_READ_SECONDS`` is answered 408 and its connection closed;
    headers that stop arriving are let go after gunicorn's keep-alive time (2 s)."""
    server = limited(REQUEST_READ_SECONDS="3")
    connection = stalled_body(server.port)
    try:
        answer = answer_of(connection)
    finally:
        connection.close()
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"connection: close" in answer.lower()
    with socket.create_connection(("127.0.0.1", server.port), timeout=WAIT) as trickle:
        trickle.sendall(b"POST /new/auruxxx HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty")
        started = time.monotonic()
        assert answer_of(trickle) == b""
        assert time.monotonic() - started < WAIT, "the server never let the unfinished headers go"
    phone = Phone(server.base)
    new_auruxxx_game(phone, ["Anna", "Ben"])  # a body that arrives is read as before
    log = server.log_text()
    assert "Traceback" not in log and '" 500 ' not in log, log[-3000:]


def test_a_tls_handshake_that_never_comes_is_cut_off(limited: Callable[..., GunicornServer]) -> None:
    """A client that connects to ``make run`` over HTTPS and never shakes hands is let go after ``REQUEST_READ_SECONDS``."""
    server = limited(tls=True, REQUEST_READ_SECONDS="3")
    with socket.create_connection(("127.0.0.1", server.port), timeout=WAIT) as silent:
        started = time.monotonic()
        assert answer_of(silent) == b""
        assert time.monotonic() - started < WAIT, "the server never closed the connection"
    assert "Traceback" not in server.log_text()


def test_one_address_cannot_hold_every_connection(limited: Callable[..., GunicornServer]) -> None:
    """Issue 16: ten stalled bodies from one address: its next connection gets 503 with Retry-After; other phones play on."""
    server = limited(REQUEST_READ_SECONDS="120", CONNECTIONS_PER_ADDRESS="10", LIVE_RETRY_AFTER_SECONDS="7")
    held = [stalled_body(server.port, STRANGER) for _ in range(10)]
    try:
        refused = served(server, STRANGER)
        assert refused.startswith(b"HTTP/1.1 503"), refused[:200]
        assert b"retry-after: 7" in refused.lower()

        phone = Phone(server.base)
        token = new_auruxxx_game(phone, ["Anna", "Ben"])
        assert phone.post(f"/g/{token}/pass", {"round": 0, "player": "Ben"}).status_code == 303
    finally:
        for connection in held:
            connection.close()
    deadline = time.monotonic() + WAIT
    while not (answer := served(server, STRANGER)).startswith(b"HTTP/1.1 200"):
        assert time.monotonic() < deadline, answer[:200]
    assert "Traceback" not in server.log_text()
