"""Headers that keep a game's pages to themselves: no foreign scripts, no framing, no leaked addresses."""

from __future__ import annotations

from flask import Response, current_app, request

from infra.redaction import GAME_ADDRESS

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

REFERRER_POLICY = "same-origin"
"""A page's address (with its token) goes along only to the app itself, never to another site.

Over HTTPS the app's CSRF check also wants to see that a form came from one of its own pages
(Flask-WTF's strict referrer check): with ``no-referrer`` browsers sent nothing and every form
was refused. The CSRF token is still required on every form.
"""

STRICT_TRANSPORT_SECURITY = "max-age=31536000"
"""Once a browser saw the app over HTTPS, it uses nothing else for a year."""


def carries_token(response: Response) -> bool:
    """Return whether a response shows a game's token: it answers a game's address, or sends the browser to one.

    A token handed on in the query counts too: ``back=`` (a FAQ page's way back to its sheet)
    and ``tv=`` (a TV's table address).
    """
    if request.view_args and "token" in request.view_args:
        return True
    if request.args.get("back") or request.args.get("tv"):
        return True
    return any(GAME_ADDRESS.search(response.headers.get(name, "")) for name in ("Location", "HX-Redirect"))


def secure_headers(response: Response) -> Response:
    """Add the security headers to every response.

    A game's address carries its secret token, so no page may send it on to another site as a
    referrer, and no cache (a shared proxy, the browser's disk) may keep a page, fragment or redirect that
    shows one. Served over HTTPS (``SESSION_COOKIE_SECURE``), the browser is told to stay there.
    """
    headers = response.headers
    headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", REFERRER_POLICY)
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()")
    headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    if carries_token(response):
        headers["Cache-Control"] = "no-store"
    if current_app.config.get("SESSION_COOKIE_SECURE"):
        headers.setdefault("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY)
    return response
