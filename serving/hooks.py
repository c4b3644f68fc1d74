"""Gunicorn's hooks for Tischblock: the rules FAQ is built before the workers fork, a request with a body larger
than the app takes is answered on a closing connection, and a TLS handshake is left to the worker, which gives it
a time limit.

The app refuses such a body unread (413) and says ``Connection: close``. Gunicorn drops
the hop-by-hop headers an app sets, so on its own it would answer "keep-alive" and then
find the unread bytes where the next request on that connection should begin.
"""

from __future__ import annotations

from typing import Any

from faq.search import warm
from infra.config import Config


def when_ready(server: Any) -> None:
    """Build the rules FAQ in the master once its sockets listen: every worker forks with it built, and a phone's first visit waits for nothing.

    Built in a worker instead, it held up every request on that worker for seconds, the
    first time a phone's app fetched the offline index or anyone asked a question.
    """
    warm()


def declared_length(headers: list[tuple[str, str]]) -> int | None:
    """Return the body length a request's headers declare, if they declare one that is a number.

    >>> declared_length([("HOST", "x"), ("CONTENT-LENGTH", "600000")])
    600000
    >>> declared_length([("CONTENT-LENGTH", "many")]) is None
    True
    """
    for name, value in headers:
        if name == "CONTENT-LENGTH":
            value = value.strip()
            return int(value) if value.isascii() and value.isdigit() else None
    return None


def pre_request(worker: Any, req: Any) -> None:
    """Close the connection after answering a request whose declared body is over ``MAX_CONTENT_LENGTH``."""
    worker.log.debug("%s %s", req.method, req.path)
    length = declared_length(req.headers)
    if length is not None and length > Config.MAX_CONTENT_LENGTH:
        req.force_close()


class HandshakeInWorker:
    """Gunicorn's TLS context, except that its sockets shake hands only when the worker asks, not as they are accepted.

    The gevent server would otherwise complete each handshake before the worker sees the
    connection, for as long as a client cares to take; ``serving.worker`` does it within
    ``REQUEST_READ_SECONDS`` and after counting the connection against its address.
    """

    def __init__(self, context: Any) -> None:
        self.context = context

    def wrap_socket(self, sock: Any, **options: Any) -> Any:
        """Wrap an accepted connection in TLS without shaking hands yet."""
        return self.context.wrap_socket(sock, **{**options, "do_handshake_on_connect": False})

    def __getattr__(self, name: str) -> Any:
        return getattr(self.context, name)


def ssl_context(config: Any, default_ssl_context_factory: Any) -> HandshakeInWorker:
    """Return gunicorn's own TLS context (certificate, key, protocols), handing the handshake to the worker."""
    return HandshakeInWorker(default_ssl_context_factory())
