"""Headers that keep a game's pages to themselves: no foreign scripts, no framing, no leaked addresses."""

from __future__ import annotations

from flask import Blueprint, Response

bp = Blueprint("security", __name__)

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "worker-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
"""Only the app's own files run or style a page; there is no inline script or style anywhere."""


@bp.after_app_request
def secure_headers(response: Response) -> Response:
    """Add the security headers to every response.

    A game's address carries its secret token, so no page may send it on as a referrer.
    """
    headers = response.headers
    headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "no-referrer")
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()")
    headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    return response
