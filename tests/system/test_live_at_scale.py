"""Open sheets under the production server: hundreds of streams never hold up a tap or a page, a change
is pushed to streams of every server process, and one client cannot take every stream.

The streams here are plain sockets (cheap enough to hold hundreds from one test), each from a
loopback address of its own choosing where the test needs several clients: Linux routes all of
127.0.0.0/8 to this machine, so 127.0.0.2 is a second client as far as the server can tell.
"""

from __future__ import annotations

import selectors
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from live.hub import LISTENER_NAME
from testbed.phones import LiveStream, Phone, new_auruxxx_game
from testbed.servers import GunicornServer
from tests.waiting import until

pytestmark = pytest.mark.system

PLAYERS = ["Anna", "Ben", "Cleo", "Dana", "Emil"]
BOUND = 5.0
"""A tap or a page must answer within this, however many sheets are open."""
WAIT = 30.0
"""How long a test waits for pushes to reach every stream; it goes on as soon as they have."""


class RawStream:
    """One open live stream on a plain socket: the status of its answer and every byte since."""

    def __init__(self, port: int, path: str, source: str = "127.0.0.1") -> None:
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=WAIT, source_address=(source, 0))
        request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nAccept-Encoding: identity\r\n\r\n"
        self.socket.sendall(request.encode())
        self.received = b""
        while b"\r\n\r\n" not in self.received:
            chunk = self.socket.recv(65536)
            if not chunk:
                break
            self.received += chunk
        head = self.received.split(b"\r\n", 1)[0].split()
        self.status = int(head[1]) if len(head) > 1 else 0

    def header(self, name: str) -> str | None:
        """Return one header of the answer."""
        for line in self.received.split(b"\r\n\r\n", 1)[0].split(b"\r\n")[1:]:
            key, _, value = line.decode().partition(":")
            if key.strip().lower() == name.lower():
                return value.strip()
        return None

    def close(self) -> None:
        self.socket.close()


def read_until_all_have(streams: list[RawStream], marker: bytes, timeout: float) -> list[RawStream]:
    """Read every stream until each has received ``marker`` (or ``timeout`` passes); return those still without it.

    A stream the server closed before the marker came is among them: it never got what was pushed.
    """
    waiting = {stream.socket: stream for stream in streams if marker not in stream.received}
    closed: list[RawStream] = []
    with selectors.DefaultSelector() as selector:
        for sock in waiting:
            selector.register(sock, selectors.EVENT_READ)
        for _ in range(100_000):
            if not waiting:
                break
            ready = selector.select(timeout)
            if not ready:
                break
            for key, _ in ready:
                stream = waiting[key.fileobj]  # type: ignore[index]
                chunk = stream.socket.recv(65536)
                stream.received += chunk
                if marker in stream.received or not chunk:
                    selector.unregister(key.fileobj)
                    del waiting[key.fileobj]  # type: ignore[arg-type]
                    if marker not in stream.received:
                        closed.append(stream)
    return [*waiting.values(), *closed]


@pytest.fixture
def crowded_server(sqlite_database_url: str, tmp_path: Path) -> Iterator[GunicornServer]:
    """The production server (two gevent workers) on SQLite, letting one address hold all the test's streams."""
    server = GunicornServer(
        # Streams live at least a tenth of this (views/live.py): long enough to outlast opening 500 on a busy machine.
        sqlite_database_url,
        tmp_path / "gunicorn.log",
        live_stream_seconds=1200,
        settings={"LIVE_STREAMS_PER_ADDRESS": "1000"},
    ).start()
    try:
        yield server
    finally:
        server.stop()


def test_five_hundred_open_sheets_leave_taps_and_pages_answering(crowded_server: GunicornServer) -> None:
    """With 500 streams open, a page and a tap answer within 5 s, and the tap is pushed to all 500."""
    host = Phone(crowded_server.base)
    token = new_auruxxx_game(host, PLAYERS)
    streams = [RawStream(crowded_server.port, f"/g/{token}/live?since=0") for _ in range(500)]
    try:
        assert [stream.status for stream in streams] == [200] * 500
        phone = Phone(crowded_server.base)
        page = phone.session.get(f"{crowded_server.base}/g/{token}", timeout=BOUND)
        assert page.status_code == 200 and 'id="sheet"' in page.text
        phone.csrf = host.csrf
        phone.session.cookies.update(host.session.cookies)
        tap = phone.session.post(
            f"{crowded_server.base}/g/{token}/pass",
            data={"csrf_token": host.csrf, "key": "five-hundred", "round": 0, "player": "Ben"},
            allow_redirects=False,
            timeout=BOUND,
        )
        assert tap.status_code == 303
        missed = read_until_all_have(streams, b"</hx-partial>", WAIT)
        assert not missed, f"{len(missed)} of 500 open sheets never got the tap's sheet"
        late = [stream.received[-300:] for stream in streams if b"id: 1\n" not in stream.received]
        assert not late, f"{len(late)} of 500 open sheets got another version than the tap's; one got: {late[0]!r}"
    finally:
        for stream in streams:
            stream.close()
    assert "Traceback" not in crowded_server.log_text()


def test_one_client_and_one_process_hold_no_more_streams_than_their_caps(sqlite_database_url: str, tmp_path: Path) -> None:
    """Two streams per address, three per process: the next is refused with 503 and Retry-After; taps still count."""
    server = GunicornServer(
        sqlite_database_url,
        tmp_path / "gunicorn.log",
        workers=1,
        live_stream_seconds=120,
        settings={"LIVE_STREAMS_PER_ADDRESS": "2", "LIVE_STREAMS_PER_PROCESS": "3", "LIVE_RETRY_AFTER_SECONDS": "9"},
    ).start()
    host = Phone(server.base)
    token = new_auruxxx_game(host, PLAYERS)
    path = f"/g/{token}/live?since=0"
    streams: list[RawStream] = []
    try:
        streams = [RawStream(server.port, path, "127.0.0.1") for _ in range(3)]
        assert [stream.status for stream in streams] == [200, 200, 503]
        assert streams[2].header("Retry-After") == "9"
        streams.append(RawStream(server.port, path, "127.0.0.2"))
        assert streams[-1].status == 200
        streams.append(RawStream(server.port, path, "127.0.0.3"))
        assert streams[-1].status == 503 and streams[-1].header("Retry-After") == "9"
        assert host.get(f"/g/{token}").status_code == 200
        assert host.post(f"/g/{token}/pass", {"round": 0, "player": "Ben"}).status_code == 303
        held = [stream for stream in streams if stream.status == 200]
        assert not read_until_all_have(held, b"id: 1\n", WAIT)
    finally:
        for stream in streams:
            stream.close()
        server.stop()


def listening_connections(engine: Engine) -> int:
    """Return how many PostgreSQL sessions LISTEN right now."""
    with engine.connect() as connection:
        return int(
            connection.scalar(text("SELECT count(*) FROM pg_stat_activity WHERE application_name = :name"), {"name": LISTENER_NAME}) or 0
        )


@pytest.fixture
def two_servers(database_url: str, tmp_path: Path) -> Iterator[tuple[GunicornServer, GunicornServer]]:
    """Two separate server processes (one worker each) on one database, as behind a load balancer."""
    first = GunicornServer(database_url, tmp_path / "first.log", workers=1, live_stream_seconds=120).start()
    try:
        second = GunicornServer(database_url, tmp_path / "second.log", workers=1, live_stream_seconds=120).start()
        try:
            yield first, second
        finally:
            second.stop()
    finally:
        first.stop()


def test_a_tap_is_pushed_to_the_streams_of_every_server_process(two_servers: tuple[GunicornServer, GunicornServer], engine: Engine) -> None:
    """A tap stored by one process reaches streams held by it and by the other, as the same bytes; a late reconnect catches up.

    On PostgreSQL each process listens on one connection, however many streams it holds. The sheet
    the tapping process rendered travels with the change (the notification, or a row beside the
    event on SQLite): the other server pushes it as it is, down to the moment it was rendered.
    """
    first, second = two_servers
    host = Phone(first.base)
    token = new_auruxxx_game(host, PLAYERS)
    english = {"Accept-Language": "en"}
    streams = [LiveStream(f"{server.base}/g/{token}/live?since=0", english).start() for server in (first, second) for _ in range(3)]
    try:
        if engine.dialect.name == "postgresql":
            until(lambda: listening_connections(engine) >= 2, what="both servers' listeners", seconds=WAIT)
            assert listening_connections(engine) == 2
        for version, player in enumerate(["Ben", "Cleo"], start=1):
            assert host.post(f"/g/{token}/happy-man", {"round": 0, "player": player, "seen": version - 1}).status_code == 303
            for stream in streams:
                events = stream.wait_for(version, WAIT)
                assert stream.error is None, stream.error
                assert len(events) == version, f"stream missed version {version}"
                block = events[-1][1]
                assert block["id"] == str(version) and "event" not in block
                assert f"{player} holds the Happy-Man figure" in block["data"]
            pushed = {stream.wait_for(version, WAIT)[-1][1]["data"] for stream in streams}
            assert len(pushed) == 1, "the other server pushes the very sheet the tapping one rendered"
    finally:
        for stream in streams:
            stream.close()
    late = LiveStream(f"{second.base}/g/{token}/live?since=0", headers={"Last-Event-ID": "1"}).start()
    try:
        events = late.wait_for(1, WAIT)
        assert events and events[0][1]["id"] == "2"
    finally:
        late.close()
    for server in two_servers:
        assert "Traceback" not in server.log_text()
