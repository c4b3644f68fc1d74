"""The front page: what Tischblock is and which games it keeps score for."""

from flask import Blueprint, render_template

bp = Blueprint("home", __name__)


@bp.get("/")
def index() -> str:
    """Introduce the app and list the games."""
    return render_template("home/index.html")
