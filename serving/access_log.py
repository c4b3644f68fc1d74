"""Gunicorn's logger for Tischblock: every access-log field and error message without game tokens."""

from __future__ import annotations

import logging
from typing import Any

from gunicorn.glogging import Logger

from infra.redaction import redact, redact_records_of

ROUTED = "tischblock_routed"
"""Marks the handlers this logger gave the root logger, so a reload replaces them instead of adding more."""


class RedactingLogger(Logger):  # type: ignore[misc]
    """Gunicorn's logger, with game tokens taken out of every access-log field and every error-log record."""

    def setup(self, cfg: Any) -> None:
        """Set gunicorn's logging up, then redact its error log, and send every other logger's records there too.

        The filter sits on the error log's handlers, not on a logger, so it also cleans the
        records of the app's own loggers (the live listener's, SQLAlchemy's, Flask-Limiter's),
        which reach those handlers through the root logger. The app's logger then needs no
        handler of its own: Flask adds one only where no logger above it has one.
        """
        super().setup(cfg)
        for handler in self.error_log.handlers:
            redact_records_of(handler)
        root = logging.getLogger()
        for handler in [h for h in root.handlers if getattr(h, ROUTED, False)]:
            root.removeHandler(handler)
        for handler in self.error_log.handlers:
            setattr(handler, ROUTED, True)
            root.addHandler(handler)

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        """Return gunicorn's log fields with each text field redacted."""
        fields: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        return {key: redact(value) if isinstance(value, str) else value for key, value in fields.items()}
