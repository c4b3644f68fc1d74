"""Game tokens taken out of any text bound for a log: whoever reads a log must not be able to open a game.

A game's token is its address (``/g/<token>/...``), so a request line, a referer, a
redirect's ``Location`` or an error message would otherwise write it to the log. The app's
own log and Werkzeug's (``RedactingFilter``) and the server's access log (``serving.access_log``)
pass every text through ``redact`` first. Pure: nothing here imports the web server or the app.
"""

from __future__ import annotations

import logging
import re

ENCODED = r"%(?:25)*"
"""A percent sign, itself percent-encoded any number of times (``%``, ``%25``, ``%2525`` ...)."""
SLASH = rf"(?:/|{ENCODED}2F)"
DOT = rf"(?:\.|{ENCODED}2E)"
G = rf"(?:[gt]|{ENCODED}[46]7|{ENCODED}[57]4)"
"""The ``g`` of a game's address (``/g/<token>``) or the ``t`` of a table's (``/t/<token>``), either case, maybe encoded."""
TOKEN_CHARACTER = rf"(?:[A-Za-z0-9_-]|{ENCODED}[0-9A-F]{{2}})"
GAME_ADDRESS = re.compile(rf"({SLASH}{G}(?:{DOT}*+{SLASH})++){TOKEN_CHARACTER}+", re.IGNORECASE)
"""A game's or a table's address: ``/g/`` or ``/t/`` and a token, each character written plainly or percent-encoded.

The server decodes a path before routing it, so ``/%67/<token>``, ``//g//<token>`` or a
token typed as ``%41%62...`` open the same game as ``/g/<token>``; in a ``next=`` parameter
the address is encoded once more. Whatever reaches the app as a game's address is redacted.
The possessive repeats (``*+``, ``++``) keep the search linear in a hostile line of slashes.
"""

TOKEN_PARAMETER = re.compile(rf"((?:[?&]|{ENCODED}(?:3F|26))(?:back|tv)(?:=|{ENCODED}3D)){TOKEN_CHARACTER}+", re.IGNORECASE)
"""A token handed on in a query: ``back=`` (the sheet a FAQ page leads back to) or ``tv=`` (a TV's table address)."""


def redact(text: str) -> str:
    """Return ``text`` with every game token replaced by an ellipsis, however its address was encoded.

    >>> redact("GET /g/Ab-c_1/live?since=3 HTTP/1.1")
    'GET /g/…/live?since=3 HTTP/1.1'
    >>> redact("http://192.168.1.5:8000/g/Xyz")
    'http://192.168.1.5:8000/g/…'
    >>> redact("GET /language/en?next=%2Fg%2FAb-c_1 HTTP/1.1")
    'GET /language/en?next=%2Fg%2F… HTTP/1.1'
    >>> redact("GET /faq?q=g HTTP/1.1")
    'GET /faq?q=g HTTP/1.1'
    >>> redact("GET /t/Tab_1/tv HTTP/1.1"), redact("GET /theme/dark?next=/static/x HTTP/1.1")
    ('GET /t/…/tv HTTP/1.1', 'GET /theme/dark?next=/static/x HTTP/1.1')
    >>> redact("GET /faq/some-game?control=totals&back=Ab-1 HTTP/1.1"), redact("GET /g/Read1?tv=Tab_1 HTTP/1.1")
    ('GET /faq/some-game?control=totals&back=… HTTP/1.1', 'GET /g/…?tv=… HTTP/1.1')
    >>> redact("GET /lang/en?next=%2Ffaq%2Fsome-game%3Fback%253DAb-1 HTTP/1.1")
    'GET /lang/en?next=%2Ffaq%2Fsome-game%3Fback%253D… HTTP/1.1'
    >>> redact("GET /%67/%41b-c_1/pass HTTP/1.1")
    'GET /%67/…/pass HTTP/1.1'
    """
    return TOKEN_PARAMETER.sub(r"\1…", GAME_ADDRESS.sub(r"\1…", text))


class RedactingFilter(logging.Filter):
    """Take game tokens out of a log record: its message, its arguments, its traceback and its stack.

    Gunicorn's error log and Flask's "Exception on ..." name a failed request's path, and an
    exception's message may quote an address. The traceback is formatted here, once, and kept
    redacted in ``exc_text``, which every formatter prints instead of formatting it again.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(str(record.msg))
        if isinstance(record.args, tuple):
            record.args = tuple(redact(arg) if isinstance(arg, str) else arg for arg in record.args)
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def redact_records_of(filterer: logging.Filterer) -> None:
    """Give a logger or a handler the redacting filter, once however often the app is created (loggers are global)."""
    if not any(isinstance(existing, RedactingFilter) for existing in filterer.filters):
        filterer.addFilter(RedactingFilter())
