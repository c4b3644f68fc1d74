"""Light or dark: the phone's own setting, unless the switch in the header chose otherwise."""

from flask import Blueprint, abort, has_request_context, redirect, request
from werkzeug.wrappers import Response

from views.pages.language import safe_next

bp = Blueprint("theme", __name__)

COOKIE = "theme"
COOKIE_MAX_AGE = 365 * 24 * 60 * 60
THEMES = ("light", "dark")


@bp.get("/theme/<name>")
def switch(name: str) -> Response:
    """Remember the chosen look and go back to the page the switch was tapped on."""
    if name not in THEMES:
        abort(404)
    response = redirect(safe_next(request.args.get("next")), code=303)
    response.set_cookie(COOKIE, name, max_age=COOKIE_MAX_AGE, samesite="Lax", httponly=True, secure=request.is_secure)
    return response


@bp.app_context_processor
def theme_context() -> dict[str, object]:
    """Give every template the chosen look, or None to follow the phone's setting (and for a live push, which has no phone)."""
    chosen = request.cookies.get(COOKIE) if has_request_context() else None
    return {"theme": chosen if chosen in THEMES else None}
