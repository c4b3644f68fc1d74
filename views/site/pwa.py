"""Tischblock as an app on the phone: the web app manifest, the service worker, the offline page.

The service worker (static/sw.js) learns from the server which files to keep and which
pages to warm, so the lists follow the app: every static file under its fingerprinted
address, the offline page, and the rules pages of every game the FAQ knows.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, url_for
from flask_babel import get_translations, gettext, ngettext

from views.pages.language import current_language
from views.site import faq
from views.site.assets import static_files

bp = Blueprint("pwa", __name__)

THEME_COLOUR = "#1d4d3b"
"""The felt of the header: the phone's status bar takes it on."""
BACKGROUND_COLOUR = "#f5efe2"
"""The paper of the page: what the splash screen shows while the app starts."""
SERVICE_WORKER = "sw.js"
WORKBOX_MODULES = ("core", "routing", "strategies", "precaching", "expiration")
"""The Workbox modules the worker loads, in the order they depend on each other."""
NOT_PRECACHED = (SERVICE_WORKER,)
"""Static files the worker does not keep: itself (it is served at the root, see ``service_worker``)."""


@dataclass(frozen=True)
class Icon:
    """One app icon as the manifest lists it."""

    filename: str
    sizes: str
    type: str
    purpose: str = "any"


ICONS = (
    Icon("icons/tischblock.svg", "any", "image/svg+xml"),
    Icon("generated/icons/tischblock-192.png", "192x192", "image/png"),
    Icon("generated/icons/tischblock-512.png", "512x512", "image/png"),
    Icon("generated/icons/tischblock-maskable-512.png", "512x512", "image/png", "maskable"),
)
"""The PNGs are drawn from the SVGs by the Makefile; the maskable one leaves room for the phone to crop."""


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """Describe the app to the phone, so it can be added to the home screen and open like an app."""
    data = {
        "id": url_for("home.index"),
        "name": "Tischblock",
        "short_name": "Tischblock",
        "description": gettext("Tischblock turns the phones at your card table into a shared score pad."),
        "lang": current_language(),
        "start_url": url_for("home.index"),
        "scope": url_for("home.index"),
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": url_for("static", filename=icon.filename), "sizes": icon.sizes, "type": icon.type, "purpose": icon.purpose}
            for icon in ICONS
        ],
    }
    response = Response(json.dumps(data, ensure_ascii=False), mimetype="application/manifest+json")
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response


@bp.get("/offline")
def offline() -> str:
    """Say that a page needs a connection; the worker shows this for any page it has not kept."""
    return render_template("pwa/offline.html")


def worker_settings() -> dict[str, object]:
    """Return what the service worker keeps, as addresses of this server.

    ``precache`` is kept at install and served from the phone: static files under their
    fingerprinted addresses (so they need no revision) and the offline page, whose
    revision is the fingerprint of its text. ``pages`` are fetched at install too, but
    served from the network whenever it answers. ``faqSearch`` and ``faqPages`` say which
    kept page stands in for a rules search sent as a page that the network failed: its
    game's FAQ page, which answers it from the phone (static/js/faq-offline.js).
    """
    precache: list[dict[str, str | None]] = [
        {"url": url_for("static", filename=name), "revision": None}
        for name in static_files()
        if name not in NOT_PRECACHED and not name.endswith(".map")
    ]
    offline_page = url_for("pwa.offline")
    precache.append({"url": offline_page, "revision": hashlib.sha256(offline().encode()).hexdigest()[:12]})
    answers = dict.fromkeys(url_for("faq.entry_page", game=entry.game, entry_id=entry.id) for entry in faq.index().entries)
    faq_pages = {game: url_for("faq.game_page", game=game) for game in faq.outlines()}
    pages = [
        url_for("home.index"),
        url_for("faq.start"),
        *faq_pages.values(),
        url_for("faq.offline_index"),
        *answers,
    ]
    return {
        "workbox": [url_for("static", filename=f"vendor/workbox/workbox-{module}.prod.js") for module in WORKBOX_MODULES],
        "precache": precache,
        "pages": pages,
        "offlinePage": offline_page,
        "faqSearch": url_for("faq.search"),
        "faqPages": faq_pages,
        "staticPrefix": url_for("static", filename=""),
    }


@bp.get("/sw.js")
def service_worker() -> Response:
    """Serve the service worker from the site's root, so it may look after every page.

    The settings come first, then the worker's code; a change to either makes the phone
    install the new worker. It is never cached, so the phone sees a new version at once.
    """
    code = Path(current_app.static_folder or "static", SERVICE_WORKER).read_text(encoding="utf-8")
    settings = json.dumps(worker_settings(), ensure_ascii=False)
    response = Response(f"self.TISCHBLOCK = {settings};\n{code}", mimetype="text/javascript")
    response.cache_control.no_cache = True
    response.cache_control.max_age = 0
    return response


@bp.app_template_global()
def rendered_at() -> str:
    """Return now in UTC, to mark a sheet with when the server drew it ("offline – as of 21:14")."""
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _many(singular: str, plural: str) -> str:
    """Return the translated plural of a count message, with ``{n}`` where the count goes."""
    return str(get_translations().ngettext(singular, plural, 2)) % {"num": "{n}"}


@bp.app_template_global()
def phone_texts() -> dict[str, str]:
    """Return what the sheet's script says on the phone, in the reader's language.

    ``{time}``, ``{n}``, ``{tap}`` are filled in there; a count other than one takes the plural.
    """
    waiting = ("offline – %(num)s change waiting", "offline – %(num)s changes waiting")
    server_trouble = ("server error – %(num)s change waiting", "server error – %(num)s changes waiting")
    return {
        "offlineAsOf": gettext("offline – as of %(time)s", time="{time}"),
        "asOf": gettext("as of %(time)s", time="{time}"),
        "waitingOne": ngettext("offline – %(num)s change waiting", "offline – %(num)s changes waiting", 1),
        "waitingMany": _many(*waiting),
        "serverTroubleOne": ngettext("server error – %(num)s change waiting", "server error – %(num)s changes waiting", 1),
        "serverTroubleMany": _many(*server_trouble),
        "sendNow": gettext("Send now"),
        "refused": gettext("Not counted: %(tap)s", tap="{tap}"),
        "failed": gettext("Not saved, the server kept failing: %(tap)s", tap="{tap}"),
        "dismiss": gettext("Got it"),
    }
