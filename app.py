"""The application factory: settings, extensions, blueprints and commands in one place."""

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask
from jinja2 import StrictUndefined

from cli import score_command
from config import Config, apply_instance_defaults
from gunicorn_logging import RedactingFilter
from extensions import babel, compress, csrf, init_limiter, migrate
from models import configure_engine, db
from views import addresses, assets, errors, faq, games, home, join, language, live, pwa, security, taps, theme
from views.sheets import SHEETS



def create_app(config: Mapping[str, Any] | type | None = None) -> Flask:
    """Build a Tischblock app; ``config`` (a class or mapping) overrides ``Config``."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_object(Config)
    if isinstance(config, Mapping):
        app.config.from_mapping(config)
    elif config is not None:
        app.config.from_object(config)
    os.makedirs(app.instance_path, exist_ok=True)
    apply_instance_defaults(app.config, app.instance_path)

    if app.testing:
        app.jinja_env.undefined = StrictUndefined
    app.logger.addFilter(RedactingFilter())

    db.init_app(app)
    with app.app_context():
        for engine in db.engines.values():
            configure_engine(engine)
    migrate.init_app(app, db, directory=os.path.join(app.root_path, "migrations"))
    babel.init_app(app, locale_selector=language.select_locale)
    csrf.init_app(app)
    compress.init_app(app)
    init_limiter(app)

    app.register_blueprint(security.bp)
    app.register_blueprint(assets.bp)
    app.register_blueprint(errors.bp)
    app.register_blueprint(home.bp)
    app.register_blueprint(language.bp)
    app.register_blueprint(theme.bp)
    app.register_blueprint(addresses.bp)
    app.register_blueprint(taps.bp)
    app.register_blueprint(games.bp)
    for sheet in SHEETS.values():
        app.register_blueprint(sheet.bp)
    app.register_blueprint(faq.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(join.bp)
    app.register_blueprint(pwa.bp)
    faq.init_app(app)
    app.cli.add_command(score_command)
    return app
