"""Joining a game: a large QR code of its address, a read-only address for a TV, and a new address on demand."""

from __future__ import annotations

import io

import qrcode
import qrcode.image.svg
from flask import Blueprint, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response

from models import db
from models.game import new_token
from views.limits import joining
from views.render import go_to, page_or_fragment
from views.addresses import game_or_404

bp = Blueprint("join", __name__)


def qr_svg(address: str) -> Markup:
    """Return a QR code of an address as inline SVG: black on white, with the standard quiet zone.

    Medium error correction survives a thumb or a glare on the screen.
    """
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=4, image_factory=qrcode.image.svg.SvgPathImage)
    code.add_data(address)
    code.make(fit=True)
    buffer = io.BytesIO()
    code.make_image().save(buffer)
    svg = buffer.getvalue().decode()
    return Markup(svg[svg.index("<svg"):])


@bp.get("/g/<token>/join")
@joining
def show(token: str) -> Response:
    """Show the game's QR code large, with the address written out for typing."""
    game = game_or_404(token)
    address = url_for("games.sheet", token=game.token, _external=True)
    watch = url_for("games.sheet", token=game.read_token, _external=True)
    return page_or_fragment(
        "join/show.html",
        "join",
        game=game,
        address=address,
        watch_address=watch,
        qr=qr_svg(address),
        watch_qr=qr_svg(watch),
    )


@bp.post("/g/<token>/new-address")
@joining
def new_address(token: str) -> Response:
    """Replace the edit address: the old one stops working at once, the new QR code shows."""
    game = game_or_404(token)
    game.token = new_token()
    db.session.commit()
    return go_to(url_for("join.show", token=game.token))
