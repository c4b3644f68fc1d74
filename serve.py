"""Serve Tischblock to the phones around the table and say where to find it."""

import os
import sys
from pathlib import Path

from network import lan_address

PORT = int(os.environ.get("PORT", "8000"))
WORKERS = os.environ.get("WORKERS", "2")
THREADS = "32"
"""Threads per worker: an open live stream holds one, so taps must never wait for a free one."""
TLS_CERT = os.environ.get("TLS_CERT", "")
TLS_KEY = os.environ.get("TLS_KEY", "")
"""A certificate and its key (PEM files) to serve HTTPS: phones install the app and keep it offline only from a secure page."""


def gunicorn_argv(bind: str, workers: str = WORKERS, *, cert: str = TLS_CERT, key: str = TLS_KEY) -> list[str]:
    """Return the gunicorn command line: threaded workers, an access log without game tokens, the app's hooks, HTTPS if given a certificate."""
    tls = ["--certfile", cert, "--keyfile", key] if cert and key else []
    return [
        "gunicorn",
        "--no-control-socket",
        "--bind",
        bind,
        "--workers",
        workers,
        "--worker-class",
        "gthread",
        "--threads",
        THREADS,
        "--access-logfile",
        "-",
        "--logger-class",
        "gunicorn_logging.RedactingLogger",
        "--config",
        "python:gunicorn_hooks",
        *tls,
        "app:create_app()",
    ]


def main() -> None:
    """Print the address for the phones, then hand the process over to gunicorn."""
    scheme = "https" if TLS_CERT and TLS_KEY else "http"
    print(f"\n  Tischblock: open {scheme}://{lan_address()}:{PORT}/ on the phones at the table\n", flush=True)
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    os.execv(gunicorn, gunicorn_argv(f"0.0.0.0:{PORT}"))


if __name__ == "__main__":
    main()
