"""A health check for load balancers and uptime monitors, and a plain "try again" when the database is busy or out of reach."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify
from flask_babel import gettext
from sqlalchemy import text
from sqlalchemy.exc import OperationalError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import ServiceUnavailable
from werkzeug.wrappers import Response

from live.hub import hub_of
from models import db
from views.pages.errors import http_error

bp = Blueprint("health", __name__)

BUSY_RETRY_SECONDS = 5
"""What a request refused for want of the database is told to wait: a pool that came free, or a database back from a restart."""


@bp.get("/healthz")
def healthz() -> Response:
    """Answer 200 when a trivial query reaches the database, 503 (and take this server out of rotation) when not.

    It also says how many live streams the answering process holds: where the open sheets are.
    """
    streams = hub_of(current_app._get_current_object()).open_streams()  # type: ignore[attr-defined]
    try:
        db.session.execute(text("SELECT 1"))
    except SQLAlchemyError as error:
        db.session.rollback()
        current_app.logger.warning("health check: the database does not answer: %s", reason(error))
        response = jsonify(status="unavailable", database=False, streams=streams)
        response.status_code = 503
    else:
        response = jsonify(status="ok", database=True, streams=streams)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.app_errorhandler(PoolTimeout)
def busy(error: PoolTimeout) -> Response:
    """Answer 503 with Retry-After, not 500, when a request waited too long for a database connection.

    That happens only when the server gets more work than it can do; the request changed nothing.
    """
    current_app.logger.warning("busy: no database connection came free in time (%s)", error)
    return try_again_later(gettext("The server is very busy right now. Try again in a moment."))


@bp.app_errorhandler(OperationalError)
def database_unreachable(error: OperationalError) -> Response:
    """Answer 503 with Retry-After, not 500, when the database cannot be reached (it restarts, or it is down).

    Nothing was stored: a tap sent again with its key counts once, and the phone's sheet
    sends its waiting taps again by itself.
    """
    current_app.logger.warning("the database does not answer: %s", reason(error))
    return try_again_later(gettext("The server cannot reach its database right now. Try again in a moment."))


def reason(error: SQLAlchemyError) -> str:
    """Return what failed in a word (the driver's error class): enough for a log line, which must not quote a query."""
    return type(getattr(error, "orig", None) or error).__name__


def try_again_later(description: str) -> Response:
    """Answer 503 with Retry-After and the reason: the request changed nothing and may simply be sent again."""
    answer = http_error(ServiceUnavailable(description=description, retry_after=BUSY_RETRY_SECONDS))
    assert isinstance(answer, Response)
    return answer
