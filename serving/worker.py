"""Gunicorn's gevent worker with two limits for a server that faces the phones itself (``make run`` on a LAN).

A slow client costs a connection for as long as it likes unless something stops it: gunicorn
gives a request's headers its keep-alive time (2 s) but its body, and a TLS handshake, all the
time in the world. Here both must arrive within ``REQUEST_READ_SECONDS``, and one client
address holds at most ``CONNECTIONS_PER_ADDRESS`` connections in a process; the next one is
answered 503 with ``Retry-After`` and closed, so one address (a script, a broken phone) cannot
take every connection a worker has while the other phones play on.

Behind a reverse proxy (``TRUSTED_PROXIES`` above 0) every connection comes from the proxy,
which limits each phone's connections itself (deploy/): the cap per address is off there unless
set. The time limit on a body stays: Caddy passes HTTP/2 and HTTP/3 bodies on as they come.
"""

from __future__ import annotations

import os
import socket
import ssl
from collections import Counter
from typing import Any

import gevent
from gunicorn.http.body import Body
from gunicorn.workers.ggevent import GeventWorker

from infra.config import Config
from serving.hooks import declared_length

REQUEST_READ_SECONDS = float(os.environ.get("REQUEST_READ_SECONDS", "10"))
"""Seconds a client has for its TLS handshake, and again for each request's body once its headers are in."""
BESIDE_STREAMS = 100
"""Connections one client address may hold in a process for taps and pages, beside its live streams."""
CONNECTIONS_PER_ADDRESS = int(
    os.environ.get("CONNECTIONS_PER_ADDRESS", "0" if Config.TRUSTED_PROXIES else str(Config.LIVE_STREAMS_PER_ADDRESS + BESIDE_STREAMS))
)
"""Open connections one client address may hold in one process (0: no cap): its live streams, and taps and pages beside them."""
LINGER_SECONDS = 2.0
"""How long a refused connection is read from after its answer, so that closing it does not reset it before the answer is read."""


def plain_answer(status: str, text: str, *headers: str) -> bytes:
    """Return a whole HTTP answer that closes its connection: for a client that never reaches the app."""
    body = text.encode()
    head = [f"HTTP/1.1 {status}", "Connection: close", "Content-Type: text/plain; charset=utf-8", f"Content-Length: {len(body)}", *headers]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


TOO_SLOW = plain_answer("408 Request Timeout", "The request took too long to arrive. Send it again.\n")
TOO_MANY = plain_answer(
    "503 Service Unavailable",
    "Too many connections from this address. Try again in a moment.\n",
    f"Retry-After: {Config.LIVE_RETRY_AFTER_SECONDS}",
)


class Prefetched:
    """A request body's reader that hands out the bytes already read, then whatever the client sends after them."""

    def __init__(self, head: bytes, rest: Body) -> None:
        self.head = head
        self.rest = rest

    def read(self, size: int) -> bytes:
        """Return up to ``size`` bytes of the body."""
        if self.head:
            chunk, self.head = self.head[:size], self.head[size:]
            return chunk
        data: bytes = self.rest.read(size)
        return data


class GuardedGeventWorker(GeventWorker):  # type: ignore[misc]
    """A gevent worker that cuts off slow handshakes and bodies (408) and caps each client address's connections (503)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.connections: Counter[str] = Counter()

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        """Serve one connection, unless its address holds too many already or its TLS handshake takes too long."""
        address = str(addr[0]) if isinstance(addr, tuple) else ""
        if CONNECTIONS_PER_ADDRESS and self.connections[address] >= CONNECTIONS_PER_ADDRESS:
            self.log.info("refused a connection from %s: it holds %s already", address, CONNECTIONS_PER_ADDRESS)
            self._answer_and_close(client, TOO_MANY)
            return
        self.connections[address] += 1
        try:
            client.setblocking(1)
            if isinstance(client, ssl.SSLSocket) and not self._handshake(client):
                self.log.info("closed a connection from %s: no TLS handshake (within %s s)", address, REQUEST_READ_SECONDS)
                client.close()
                return
            super().handle(listener, client, addr)
        finally:
            self.connections[address] -= 1
            if not self.connections[address]:
                del self.connections[address]

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        """Read the request's body within the time limit before the app sees the request; answer 408 if it does not come."""
        if not self._read_body(req, sock):
            self.log.info(
                "answered 408: a request body from %s did not arrive within %s s",
                addr[0] if isinstance(addr, tuple) else "",
                REQUEST_READ_SECONDS,
            )
            self._answer_and_close(sock, TOO_SLOW)
            raise StopIteration()
        return super().handle_request(listener_name, req, sock, addr)

    @staticmethod
    def _handshake(client: Any) -> bool:
        """Return whether the client completed its TLS handshake in time (one that hangs up midway did not)."""
        with gevent.Timeout(REQUEST_READ_SECONDS, False):
            try:
                client.do_handshake()
            except OSError:
                return False
            return True
        return False

    @staticmethod
    def _read_body(req: Any, sock: Any) -> bool:
        """Read the body of a request (up to one byte over ``MAX_CONTENT_LENGTH``) in time, and hand it on; False if it did not come.

        A body declared larger than the app takes is left unread: the app refuses it (413)
        and the connection closes (``serving.hooks``). A client that waits for ``100 Continue``
        before it sends its body is told to go on first (gunicorn would tell it only later).
        """
        length = declared_length(req.headers)
        if req.body is None or (length is not None and length > Config.MAX_CONTENT_LENGTH):
            return True
        with gevent.Timeout(REQUEST_READ_SECONDS, False):
            if getattr(req, "_expected_100_continue", False):
                sock.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
                req._expected_100_continue = False
            head = req.body.read(Config.MAX_CONTENT_LENGTH + 1)
            req.body = Body(Prefetched(head, req.body))
            return True
        return False

    @staticmethod
    def _answer_and_close(client: Any, answer: bytes) -> None:
        """Send a whole answer and close the connection, reading what the client still sends for a moment first.

        Closed with bytes unread, a connection is reset, and the client may lose the answer
        before it reads it. Both steps have a time limit, as a slow client may not take part.
        """
        with gevent.Timeout(REQUEST_READ_SECONDS, False):
            try:
                client.sendall(answer)
                client.shutdown(socket.SHUT_WR)
                with gevent.Timeout(LINGER_SECONDS, False):
                    while client.recv(65536):
                        pass
            except OSError:
                pass
        client.close()
