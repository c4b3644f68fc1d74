"""A health check for load balancers and uptime monitors: the app answers and its database does too."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.wrappers import Response

from models import db

bp = Blueprint("health", __name__)


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
