"""How any page of Tischblock is answered: whole or as the fragment htmx asked for, in the phone's language, errors in the page's layout.

The bottom room of ``views``: who is looking (``viewers``), reading a form's fields (``forms``),
the interface language (``language``), the rate limits (``limits``), QR codes (``qr``) and the
error pages (``errors``). It knows no game and imports nothing else of ``views``.
"""

from flask import Flask
from werkzeug.exceptions import HTTPException, InternalServerError

from views.pages import errors, language
from views.pages.render import translate_templates_quickly


def init_app(app: Flask) -> None:
    """Register the language switch and its hooks, the templates' quick translations and the error pages."""
    translate_templates_quickly(app)
    app.register_blueprint(language.bp)
    app.register_error_handler(HTTPException, errors.http_error)
    app.register_error_handler(InternalServerError, errors.server_error)
