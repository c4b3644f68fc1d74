"""A health check for load balancers and uptime monitors, and a plain "busy" when every database connection is taken."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify
from flask_babel import gettext
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException, ServiceUnavailable
from werkzeug.wrappers import Response

from models import db
from views.errors import http_error

bp = Blueprint("health", __name__)

BUSY_RETRY_SECONDS = 5


@bp.get("/healthz")
def healthz() -> Response:
    """Answer 200 when a trivial query reaches the database, 503 (and take this server out of rotation) when not."""
    try:
        db.session.execute(text("SELECT 1"))
    except SQLAlchemyError:
        db.session.rollback()
        current_app.logger.exception("health check: the database does not answer")
        response = jsonify(status="unavailable", database=False)
        response.status_code = 503
    else:
        response = jsonify(status="ok", database=True)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.app_errorhandler(PoolTimeout)
def busy(error: PoolTimeout) -> Response | HTTPException:
    """Answer 503 with Retry-After, not 500, when a request waited too long for a database connection.

    That happens only when the server gets more work than it can do; the request changed nothing.
    """
    current_app.logger.warning("busy: no database connection came free in time (%s)", error)
    busy_now = ServiceUnavailable(description=gettext("The server is very busy right now. Try again in a moment."), retry_after=BUSY_RETRY_SECONDS)
    return http_error(busy_now)
