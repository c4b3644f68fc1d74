"""Gunicorn's logger for Tischblock: every access-log field and error message without game tokens."""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger

from infra.redaction import RedactingFilter, redact


class RedactingLogger(Logger):  # type: ignore[misc]
    """Gunicorn's logger, with game tokens taken out of every access-log field and error message."""

    def setup(self, cfg: Any) -> None:
        """Set gunicorn's logging up, then filter its error log too."""
        super().setup(cfg)
        if not any(isinstance(f, RedactingFilter) for f in self.error_log.filters):
            self.error_log.addFilter(RedactingFilter())

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        """Return gunicorn's log fields with each text field redacted."""
        fields: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        return {key: redact(value) if isinstance(value, str) else value for key, value in fields.items()}
