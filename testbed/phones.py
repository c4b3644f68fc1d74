"""A phone at the table, as the server sees it: its own cookies, CSRF token and idempotency keys."""

from __future__ import annotations

import re
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import requests
from requests.adapters import HTTPAdapter

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
SEEN = re.compile(r'name="seen" value="(\d+)"')
TIMEOUT = 20.0


class FromAddress(HTTPAdapter):
    """Connects from a loopback address of its own: Linux routes all of 127.0.0.0/8 here, so 127.0.0.2 is another client."""

    def __init__(self, source: str) -> None:
        self.source = source
        super().__init__()

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **{**kwargs, "source_address": (self.source, 0)})


class Phone:
    """One phone: a requests session (cookies kept) that fills in forms the way the pages do.

    ``source`` is the address it connects from; ``verify`` the CA certificate it trusts over HTTPS.
    Over HTTPS it names the page a form came from (``Referer``), as a browser does on its own site.
    """

    def __init__(self, base: str, *, source: str = "127.0.0.1", verify: str | bool = True) -> None:
        self.base = base
        self.session = requests.Session()
        self.session.headers["Accept-Language"] = "en"
        self.session.verify = verify
        self.session.trust_env = False  # the machine's CA bundle and proxies are not the phone's
        self.session.mount(base, FromAddress(source))
        self.csrf = ""

    def get(self, path: str, **kwargs: Any) -> requests.Response:
        """Load a page; keep the CSRF token its forms carry (it belongs to this phone's session cookie)."""
        answer = self.session.get(self.base + path, timeout=TIMEOUT, **kwargs)
        found = CSRF.search(answer.text) if "text/html" in answer.headers.get("Content-Type", "") else None
        if found:
            self.csrf = found.group(1)
        return answer

    def seen(self, token: str) -> int:
        """Return the newest change the game's sheet shows, as its forms send it (``seen``): a tap that moves something says what it saw."""
        shown = [int(value) for value in SEEN.findall(self.get(f"/g/{token}").text)]
        assert shown, "the sheet offers no tap that says what it saw"
        return max(shown)

    def post(self, path: str, data: dict[str, Any], *, key: str | None = None) -> requests.Response:
        """Send a form as a plain browser would (no htmx), without following the redirect that says "stored"."""
        form = {"csrf_token": self.csrf, "key": key or uuid.uuid4().hex, **data}
        headers = {"Referer": self.base + path}
        return self.session.post(self.base + path, data=form, headers=headers, allow_redirects=False, timeout=TIMEOUT)

    def close(self) -> None:
        self.session.close()


def new_auruxxx_game(phone: Phone, players: list[str]) -> str:
    """Start an AURUXXX game with these players and return its (edit) token."""
    phone.get("/new/auruxxx")
    answer = phone.post("/new/auruxxx", {"player": players, "dealer": "0", "action": "start"})
    assert answer.status_code == 303, answer.text[:500]
    token = answer.headers["Location"].rstrip("/").split("/g/")[-1]
    assert token and "/" not in token
    return token


def finish_round(phone: Phone, token: str, round_index: int, finisher: str, players: list[str], hands: dict[str, int]) -> None:
    """End a round: who finished (with one Golden 12), then every other player's counted hand."""
    answer = phone.post(f"/g/{token}/finish", {"round": round_index, "player": finisher, "golden12": 1, "seen": phone.seen(token)})
    assert answer.status_code == 303, answer.text[:500]
    for seat, name in enumerate(players):
        if name == finisher:
            continue
        answer = phone.post(
            f"/g/{token}/hand/{seat}", {"round": round_index, "action": "save-points", "points": hands[name], "seen": phone.seen(token)}
        )
        assert answer.status_code == 303, answer.text[:500]


@dataclass
class LiveStream:
    """A sheet's server-sent-events stream read on a thread: each event (a pushed sheet, or "changed") with the moment it arrived."""

    url: str
    headers: dict[str, str] = field(default_factory=dict)
    events: list[tuple[float, dict[str, str]]] = field(default_factory=list)
    opened: threading.Event = field(default_factory=threading.Event)
    ended: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None

    def __post_init__(self) -> None:
        self._session = requests.Session()
        self._response: requests.Response | None = None
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._lock = threading.Lock()

    def start(self) -> LiveStream:
        self._thread.start()
        assert self.opened.wait(10), f"the live stream did not open: {self.error!r}"
        return self

    def _read(self) -> None:
        try:
            with self._session.get(self.url, headers=self.headers, stream=True, timeout=TIMEOUT) as response:
                self._response = response
                response.raise_for_status()
                for block in _blocks(response.iter_content(chunk_size=None)):
                    if block.get("retry"):
                        self.opened.set()
                    if "event" in block or "data" in block:
                        with self._lock:
                            self.events.append((time.monotonic(), block))
        except BaseException as error:
            if not self.ended.is_set():
                self.error = error
        finally:
            self.opened.set()
            self.ended.set()

    def wait_for(self, count: int, timeout: float) -> list[tuple[float, dict[str, str]]]:
        """Return the events so far once there are at least ``count`` (or when ``timeout`` passes)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if len(self.events) >= count:
                    return list(self.events)
            time.sleep(0.005)
        with self._lock:
            return list(self.events)

    def close(self) -> None:
        """Hang up: shut the socket down so the reading thread stops at once, as a closed tab would."""
        self.ended.set()
        connection = getattr(self._response.raw, "connection", None) if self._response is not None else None
        sock = getattr(connection, "sock", None)
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self._thread.join(5)
        self._session.close()


def _blocks(chunks: Iterator[bytes]) -> Iterator[dict[str, str]]:
    """Split a server-sent-events byte stream into its blocks, each as field → value."""
    buffer = b""
    for chunk in chunks:
        buffer += chunk
        while b"\n\n" in buffer:
            raw, buffer = buffer.split(b"\n\n", 1)
            block: dict[str, str] = {}
            for line in raw.decode().splitlines():
                if line.startswith(":"):
                    continue
                name, _, value = line.partition(":")
                value = value.removeprefix(" ")
                block[name] = f"{block[name]}\n{value}" if name == "data" and name in block else value
            if block:
                yield block
