"""Serve Tischblock to the phones around the table and say where to find it."""

import os
import sys
from pathlib import Path

from network import lan_address

PORT = int(os.environ.get("PORT", "8000"))
WORKERS = os.environ.get("WORKERS", "2")
THREADS = "32"
"""Threads per worker: an open live stream holds one, so taps must never wait for a free one."""


def gunicorn_argv(bind: str, workers: str = WORKERS) -> list[str]:
    """Return the gunicorn command line: threaded workers, an access log without game tokens, and the app's hooks."""
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
        "app:create_app()",
    ]


def main() -> None:
    """Print the address for the phones, then hand the process over to gunicorn."""
    print(f"\n  Tischblock: open http://{lan_address()}:{PORT}/ on the phones at the table\n", flush=True)
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    os.execv(gunicorn, gunicorn_argv(f"0.0.0.0:{PORT}"))


if __name__ == "__main__":
    main()
