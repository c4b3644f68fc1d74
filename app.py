"""The application factory: settings, extensions, blueprints and commands in one place."""

import logging
import os
from collections.abc import Mapping
from typing import Any

from flask import Flask, Request
from jinja2 import StrictUndefined
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import MapAdapter

import views
from infra.cli import score_command
from infra.config import Config, apply_engine_defaults, apply_instance_defaults
from infra.extensions import babel, compress, csrf, init_limiter, migrate
from infra.redaction import redact_records_of
from models import configure_engine, db
from views.pages import language


class Tischblock(Flask):
    """Flask, building a page's addresses the same way outside a request as inside one: a live push is rendered without one."""

    def create_url_adapter(self, request: Request | None) -> MapAdapter | None:
        """Return the request's address builder; outside a request one for the site's own paths."""
        adapter = super().create_url_adapter(request)
        if adapter is None:
            return self.url_map.bind("", script_name=self.config["APPLICATION_ROOT"], url_scheme=self.config["PREFERRED_URL_SCHEME"])
        return adapter

    def url_for(
        self,
        /,
        endpoint: str,
        *,
        _anchor: str | None = None,
        _method: str | None = None,
        _scheme: str | None = None,
        _external: bool | None = None,
        **values: Any,
    ) -> str:
        """Return an address within the site, unless ``_external`` asks for the whole URL (which needs a request to know the host)."""
        return super().url_for(endpoint, _anchor=_anchor, _method=_method, _scheme=_scheme, _external=bool(_external or _scheme), **values)


def create_app(config: Mapping[str, Any] | type | None = None) -> Flask:
    """Build a Tischblock app; ``config`` (a class or mapping) overrides ``Config``."""
    app = Tischblock(__name__, instance_relative_config=True)
    app.config.from_object(Config)
    if isinstance(config, Mapping):
        app.config.from_mapping(config)
    elif config is not None:
        app.config.from_object(config)
    os.makedirs(app.instance_path, exist_ok=True)
    apply_instance_defaults(app.config, app.instance_path)
    apply_engine_defaults(app.config)

    if app.testing:
        app.jinja_env.undefined = StrictUndefined
    trust_proxies(app)
    redact_records_of(app.logger)
    redact_records_of(logging.getLogger("werkzeug"))  # the request lines of ``flask run`` and the tests' live servers

    db.init_app(app)
    with app.app_context():
        for engine in db.engines.values():
            configure_engine(engine)
    migrate.init_app(app, db, directory=os.path.join(app.root_path, "migrations"))
    babel.init_app(app, locale_selector=language.select_locale)
    csrf.init_app(app)
    compress.init_app(app)
    init_limiter(app)

    views.init_app(app)
    app.cli.add_command(score_command)
    return app


def trust_proxies(app: Flask) -> None:
    """Believe the X-Forwarded-* headers of ``TRUSTED_PROXIES`` reverse proxies, and no one else's.

    Behind a proxy every request comes from the proxy's address: without this, all its users
    would share one rate-limit bucket and one stream cap. Set too high, a client could claim
    any address by sending the header itself.
    """
    hops = int(app.config["TRUSTED_PROXIES"])
    if hops > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]
