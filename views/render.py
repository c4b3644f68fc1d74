"""One decision, made in one place: answer with the whole page or only the piece htmx asked for."""

from __future__ import annotations

from typing import Any

from flask import make_response, render_template, request
from jinja2_fragments.flask import render_block
from werkzeug.wrappers import Response


def wants_fragment() -> bool:
    """Return whether htmx asked for part of a page (a history restore wants the whole page)."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-History-Restore-Request") != "true"


def page_or_fragment(template: str, block: str, *, status: int = 200, **context: Any) -> Response:
    """Render ``block`` of ``template`` for htmx, the full page otherwise; caches keep them apart."""
    body = render_block(template, block, **context) if wants_fragment() else render_template(template, **context)
    response = make_response(body, status)
    response.vary.add("HX-Request")
    return response
