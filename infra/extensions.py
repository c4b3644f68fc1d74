"""Flask extensions, created unbound so that views can use them and the factory binds them."""

from flask import Flask, current_app
from flask_babel import Babel
from flask_compress import Compress
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_wtf import CSRFProtect

migrate = Migrate()
compress = Compress()
"""Compresses pages, fragments, JSON, CSS and JS (``COMPRESS_MIMETYPES``) so a sheet's first view stays small on a phone's data plan; live streams compress themselves."""
babel = Babel()
csrf = CSRFProtect()
limiter = Limiter(
    key_func=get_remote_address,
    in_memory_fallback_enabled=True,
    swallow_errors=True,
)
"""Rate limits per client address; the storage comes from ``RATELIMIT_STORAGE_URI``.

When a Redis store fails, counting goes on in memory (and a storage error is logged, not
shown): a dead store must not turn a tap into an error page.
"""


@limiter.request_filter
def _limits_switched_off() -> bool:
    """Skip every limit in an app whose ``RATELIMIT_ENABLED`` is false."""
    return not current_app.config["RATELIMIT_ENABLED"]


def init_limiter(app: Flask) -> None:
    """Bind the limiter to ``app``, honouring that app's own ``RATELIMIT_ENABLED``.

    Flask-Limiter keeps "enabled" on the one shared instance, so the last app built would
    switch the limits on or off for every app in the process (as tests build many). The
    instance is therefore always bound as enabled and ``_limits_switched_off`` reads the
    setting of the app that serves the request.
    """
    wanted = bool(app.config["RATELIMIT_ENABLED"])
    app.config["RATELIMIT_ENABLED"] = True
    limiter.init_app(app)
    app.config["RATELIMIT_ENABLED"] = wanted
