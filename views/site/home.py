"""The front page: what Tischblock is and which games it keeps score for."""

from flask import Blueprint, render_template

from views.table.sheets import SHEETS

bp = Blueprint("home", __name__)


@bp.get("/")
def index() -> str:
    """Introduce the app and list the games, each with its own card."""
    return render_template("home/index.html", game_cards=[f"{sheet.folder}/card.html" for sheet in SHEETS.values()])
