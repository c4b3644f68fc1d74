"""Joining a game: a large QR code of its address, a read-only address for a TV, and a new address on demand."""

from __future__ import annotations

import io
from urllib.parse import urlsplit, urlunsplit

import qrcode
import qrcode.image.svg
from flask import Blueprint, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response

from models import db
from models.game import new_token
from network import is_loopback, lan_address
from views.limits import joining
from views.render import go_to, page_or_fragment
from views.table import game_or_404

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


def for_phones(url: str) -> tuple[str, str | None]:
    """Return ``url`` as the phones must open it, and the host put in when it differs from the one typed.

    A page opened as ``localhost`` has addresses that lead each phone to itself; this machine's
    address on the local network, the one ``make run`` prints, stands in for it.
    """
    parts = urlsplit(url)
    if not is_loopback(parts.hostname or ""):
        return url, None
    host = lan_address()
    return urlunsplit(parts._replace(netloc=f"{host}:{parts.port}" if parts.port else host)), host


@bp.get("/g/<token>/join")
@joining
def show(token: str) -> Response:
    """Show the game's QR code large, with the address written out for typing."""
    game = game_or_404(token)
    address, network_host = for_phones(url_for("games.sheet", token=game.token, _external=True))
    watch, _ = for_phones(url_for("games.sheet", token=game.read_token, _external=True))
    return page_or_fragment(
        "join/show.html",
        "join",
        game=game,
        network_host=network_host,
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
