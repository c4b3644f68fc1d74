"""Choosing the interface language: a cookie set by the switch, else the browser's wish."""

from urllib.parse import urlsplit

from flask import Blueprint, Response, abort, current_app, has_request_context, redirect, request, url_for
from flask_babel import get_locale
from werkzeug.wrappers import Response as BaseResponse

bp = Blueprint("language", __name__)

COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 60 * 60


def languages() -> tuple[str, ...]:
    """Return the configured languages, the default first."""
    configured: tuple[str, ...] = current_app.config["LANGUAGES"]
    return configured


def current_language() -> str:
    """Return the language this request (or this push, under ``force_locale``) is answered in: the default where none was chosen."""
    locale = get_locale()
    return str(locale) if locale is not None else str(current_app.config["BABEL_DEFAULT_LOCALE"])


def select_locale() -> str | None:
    """Pick the switch's choice, else the best match for the browser, else the default."""
    chosen = request.cookies.get(COOKIE)
    if chosen in languages():
        return chosen
    return request.accept_languages.best_match(languages())


def safe_next(target: str | None) -> str:
    """Return ``target`` if it is a path on this site, otherwise the front page."""
    if target and target.startswith("/") and "\\" not in target:
        parts = urlsplit(target)
        if not parts.scheme and not parts.netloc:
            return target
    return url_for("home.index")


@bp.get("/lang/<code>")
def switch(code: str) -> BaseResponse:
    """Remember the chosen language and go back to the page the switch was tapped on."""
    if code not in languages():
        abort(404)
    response = redirect(safe_next(request.args.get("next")), code=303)
    response.set_cookie(
        COOKIE,
        code,
        max_age=COOKIE_MAX_AGE,
        samesite="Lax",
        httponly=True,
        secure=request.is_secure,
    )
    return response


@bp.app_context_processor
def language_context() -> dict[str, object]:
    """Give every template the current language and the address to come back to (a live push has none: it is no page)."""
    return {
        "current_language": current_language(),
        "languages": languages(),
        "here": request.full_path.rstrip("?") if has_request_context() else "",
    }


@bp.after_app_request
def vary_by_language(response: Response) -> Response:
    """Tell caches that a page's language depends on the cookie and the browser."""
    if response.mimetype == "text/html":
        response.vary.add("Cookie")
        response.vary.add("Accept-Language")
    return response
