"""QR codes of the addresses phones open, written for phones: never ``localhost``."""

from __future__ import annotations

import io
from urllib.parse import urlsplit, urlunsplit

import qrcode
import qrcode.image.svg
from markupsafe import Markup

from infra.network import is_loopback, lan_address


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
    return Markup(svg[svg.index("<svg") :])


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
