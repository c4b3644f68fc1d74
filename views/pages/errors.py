"""Error pages: a short, friendly page in the app's layout, a fragment for htmx, JSON for JSON clients.

A missing page looks the same whatever is missing: an unknown token, a read-only token on
a page that changes the game, or an address that never existed all get the same body, so
an answer never tells whether a guessed token exists.
"""

from __future__ import annotations

from flask import jsonify, request, url_for
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError
from werkzeug.wrappers import Response

from models import db
from views.pages.limits import retry_after
from views.pages.refusals import say_refusal
from views.pages.render import page_or_fragment, wants_fragment

TEMPLATE = "errors/error.html"


def title_and_message(error: HTTPException) -> tuple[str, str]:
    """Return what a page says about an error, in the reader's language."""
    code = error.code or 500
    if isinstance(error, CSRFError):
        return gettext("This form has expired"), gettext("Its security token (CSRF) is missing or too old. Reload the page and try again.")
    if code == 400:
        return gettext("This request could not be understood"), _detail(error) or gettext("Go back and try again.")
    if code == 403:
        return gettext("This address no longer leads there"), _detail(error) or gettext("Go back and try again.")
    if code == 404:
        return gettext("Page not found"), gettext(
            "This address does not lead to a page or a game. Check it, or scan the game's QR code again."
        )
    if code == 405:
        return gettext("Not possible here"), gettext("This page cannot be used that way.")
    if code == 413:
        return gettext("Too large"), gettext("That was more data than a game ever needs.")
    if code == 422:
        return gettext("That could not be recorded"), _detail(error) or gettext("Check what you entered and try again.")
    if code == 429:
        return gettext("Too many requests"), gettext("Too many requests from this device. Please wait a minute and try again.")
    if code == 503:
        return gettext("Busy right now"), _detail(error) or gettext("Sorry, that did not work. Reload the page and try again.")
    if code >= 500:
        return gettext("Something went wrong"), gettext("Sorry, that did not work. Reload the page and try again.")
    return gettext("That did not work"), gettext("Go back and try again.")


def _detail(error: HTTPException) -> str:
    """Return the reason a view gave when it refused (``abort(400, description=...)``), if it gave one."""
    description = error.description
    if not description or description == type(error).description:
        return ""
    return str(description)


def wants_json() -> bool:
    """Return whether the client sent JSON or asked for JSON rather than a page."""
    if request.is_json:
        return True
    return request.accept_mimetypes.best_match(("text/html", "application/json")) == "application/json"


def http_error(error: HTTPException) -> Response | HTTPException:
    """Answer an HTTP error with a small page (or fragment, or JSON) and the error's own status."""
    code = error.code
    if code is None or code < 400:
        return error
    if code >= 500:
        db.session.rollback()
    title, message = title_and_message(error)
    response: Response
    if wants_json():
        response = jsonify(error=message)
        response.status_code = code
    else:
        # The language switch leads to the front page: the body must not repeat the missing address.
        response = page_or_fragment(
            TEMPLATE, "error", wants_fragment(), status=code, code=code, title=title, message=message, here=url_for("home.index")
        )
        if code < 500:
            say_refusal(response, [message])
    for name, value in error.get_headers():
        if name.lower() != "content-type":
            response.headers[name] = value
    if code == 429:
        response.headers["Retry-After"] = str(retry_after())
    if code == 413:
        # The body was refused unread: on a kept-alive connection its bytes would be taken for the next request.
        response.headers["Connection"] = "close"
    return response


def server_error(error: InternalServerError) -> Response | HTTPException:
    """Answer an unexpected failure like any other error: a page that says so, nothing more."""
    return http_error(error)
