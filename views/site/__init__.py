"""The site around the tables: the front page, the rules FAQ, the phone app (manifest, service worker, offline page), the theme,
the static files under fingerprinted addresses, the security headers and the health check.

The top room of ``views``: the front page lists every registered game, and a FAQ page leads
back to the sheet it was opened from.
"""

from flask import Flask

from views.site import assets, faq, health, home, pwa, security, theme


def init_app(app: Flask) -> None:
    """Register the site's pages and its hooks, and load the rules FAQ."""
    app.after_request(security.secure_headers)
    app.url_defaults(assets.add_fingerprint)
    app.after_request(assets.cache_static_files)
    app.register_blueprint(home.bp)
    app.register_blueprint(theme.bp)
    app.register_blueprint(faq.bp)
    app.register_blueprint(health.bp)
    app.register_blueprint(pwa.bp)
    faq.init_app(app)
