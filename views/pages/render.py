"""One decision, made in one place: answer with the whole page or only the piece htmx asked for."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from contextvars import ContextVar
from typing import Any

from babel.support import NullTranslations
from flask import Flask, current_app, make_response, redirect, render_template, request, url_for
from flask_babel import get_locale, get_translations
from jinja2_fragments.flask import render_block
from markupsafe import Markup
from werkzeug.wrappers import Response

from models import Game, Recent
from views.pages.viewers import Viewer


def wants_fragment() -> bool:
    """Return whether htmx asked for part of a page (a history restore wants the whole page): the one reader of these headers."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-History-Restore-Request") != "true"


def rendered(template: str, block: str, fragment: bool, **context: Any) -> str:
    """Render ``block`` of ``template`` as a fragment, or the whole page, with the reader's translations looked up once for all of it.

    A part remembered from an earlier render (``remembered``) says ``seen`` as ``SEEN``: the version
    of the sheet it now stands on (``version`` of the context) is written in once the page is done.
    """
    held = _TRANSLATIONS.set((get_translations(), str(get_locale() or "")))
    try:
        page = render_block(template, block, **context) if fragment else render_template(template, **context)
    finally:
        _TRANSLATIONS.reset(held)
    return page.replace(SEEN, str(context["version"])) if "version" in context else page


_TRANSLATIONS: ContextVar[tuple[NullTranslations, str] | None] = ContextVar("translations", default=None)
"""The translations and language of the page being rendered: a sheet asks for a few hundred texts, each of which would look them up again."""
SEEN = "\ue000seen\ue000"
"""Stands for the version of the sheet in a remembered part's forms (``seen``), until the page it is part of is done."""
PARTS_KEPT = 20_000
"""Remembered parts of sheets a process keeps: a game's finished rounds or days, its card pickers and its chart, per language."""
PARTS = "tischblock.remembered_parts"


def remembered(*key: Hashable, caller: Callable[[], str], keep: bool = True) -> Markup:
    """Return a part of a page as rendered before for the same ``key`` in the same language, or render it now (``caller``) and keep it.

    The templates wrap what stays the same from tap to tap in it (``{% call remembered(...) %}``): a
    finished round, the card picker of a player, the chart. ``key`` must hold everything the part
    shows; the part's forms say ``seen`` as ``SEEN``. A fresh render gives the same bytes
    (tests/web/test_sheet_renders.py). With ``keep`` false the part is rendered and not kept: a
    round being played changes with every tap.
    """
    if not keep:
        return Markup(caller())
    found = _TRANSLATIONS.get()
    parts = _parts()
    full = (*key, found[1] if found is not None else str(get_locale() or ""))
    part = parts.get(full)
    if part is None:
        part = Markup(caller())
        parts.put(full, part)
    return part


def _parts() -> Recent[tuple[Hashable, ...], Markup]:
    extensions = current_app.extensions
    if PARTS not in extensions:
        extensions.setdefault(PARTS, Recent(PARTS_KEPT))
    parts: Recent[tuple[Hashable, ...], Markup] = extensions[PARTS]
    return parts


def _translations() -> NullTranslations:
    found = _TRANSLATIONS.get()
    return found[0] if found is not None else get_translations()


def translate_templates_quickly(app: Flask) -> None:
    """Have the templates' ``_``, ``gettext`` and ``ngettext`` use the translations ``rendered`` looked up, and Flask-Babel's elsewhere."""
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda text: _translations().ugettext(text),
        ngettext=lambda singular, plural, number: _translations().ungettext(singular, plural, number),
        newstyle=True,
        pgettext=lambda context, text: _translations().upgettext(context, text),
        npgettext=lambda context, singular, plural, number: _translations().unpgettext(context, singular, plural, number),
    )
    app.add_template_global(remembered)
    app.jinja_env.globals["seen_mark"] = SEEN


def page_or_fragment(template: str, block: str, fragment: bool, *, status: int = 200, **context: Any) -> Response:
    """Answer with ``block`` of ``template`` for htmx, the full page otherwise; caches keep them apart."""
    response = make_response(rendered(template, block, fragment, **context), status)
    response.vary.add("HX-Request")
    return response


def game_context(game: Game, viewer: Viewer) -> dict[str, Any]:
    """Return what every page of a game shows: the game, who is looking, and the header's rules link to the game's own rules."""
    return {"game": game, "viewer": viewer, "rules_home": url_for("faq.game_page", game=game.kind, back=viewer.address)}


def game_page(template: str, block: str, game: Game, viewer: Viewer, *, status: int = 200, **context: Any) -> Response:
    """Answer with one of a game's pages (or its ``block`` for htmx), as ``viewer`` sees it."""
    return page_or_fragment(template, block, viewer.fragment, status=status, **game_context(game, viewer), **context)


def go_to(url: str, fragment: bool) -> Response:
    """Send the browser to another page after a form: a plain redirect, or a full navigation for htmx.

    htmx would follow a redirect and swap the new page into the form's place; asking it to
    navigate instead gives the new page its own address, as after a normal form.
    """
    if fragment:
        response = Response(status=204)
        response.headers["HX-Redirect"] = url
        return response
    return redirect(url, code=303)
