"""A refusal said as data beside the page that shows it: the reasons, a way to fix them and the tap to send again, in one response header.

A tap queued while the phone was offline is sent later by the phone's outbox (``static/js/outbox.js``),
which reports a refusal in a notice of its own instead of the sheet's box. It reads what to say from
this header rather than from the markup, so the sheet's markup stays free to change.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from werkzeug.wrappers import Response

REFUSAL_HEADER = "Tischblock-Refusal"


@dataclass(frozen=True)
class Link:
    """Where a refused tap can still be made to count, and the words of the link."""

    href: str
    text: str


@dataclass(frozen=True)
class Resend:
    """After another phone moved the same thing: send this phone's tap again (``action``, ``body``) or keep theirs."""

    action: str
    body: Sequence[tuple[str, str]]
    """The form's fields, as the page's own "Replace it with mine" form sends them."""
    label: str
    keep: str


def say_refusal(response: Response, reasons: Sequence[str], *, fix: Link | None = None, resend: Resend | None = None) -> Response:
    """Add the ``Tischblock-Refusal`` header to a refusal's response and return it.

    The header is JSON with every character beyond ASCII escaped, as a header must be::

        {"reasons": ["Ben: …"], "fix": {"href": "/g/…", "text": "…"} | null,
         "replace": {"action": "/g/…", "body": [["player", "Ben"], …], "label": "…", "keep": "…"} | null}

    >>> say_refusal(Response(status=422), ["Für Anna"]).headers[REFUSAL_HEADER]
    '{"reasons":["F\\\\u00fcr Anna"],"fix":null,"replace":null}'
    """
    said = {
        "reasons": list(reasons),
        "fix": None if fix is None else {"href": fix.href, "text": fix.text},
        "replace": None
        if resend is None
        else {"action": resend.action, "body": [list(field) for field in resend.body], "label": resend.label, "keep": resend.keep},
    }
    response.headers[REFUSAL_HEADER] = json.dumps(said, ensure_ascii=True, separators=(",", ":"))
    return response
