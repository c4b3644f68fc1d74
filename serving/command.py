"""The gunicorn command line Tischblock is served with (``python -m serving`` runs it)."""

import os
import resource

from infra.config import Config

HOST = os.environ.get("HOST", "0.0.0.0")
"""Where ``python -m serving`` listens: every interface for the phones on the LAN; ``127.0.0.1`` behind a reverse proxy on the same machine."""
PORT = int(os.environ.get("PORT", "8000"))
WORKERS = os.environ.get("WORKERS", "2")
HEADROOM = 500
"""Connections each worker keeps for taps and pages beyond its cap on live streams."""
WORKER_CONNECTIONS = str(Config.LIVE_STREAMS_PER_PROCESS + HEADROOM)
"""What one evented worker holds at once: every live stream it admits, and room for taps beside them."""
OPEN_FILES = Config.LIVE_STREAMS_PER_PROCESS + 2 * HEADROOM
"""Descriptors one worker needs at least: a socket per connection, and files and database connections beside them."""


def raise_open_files() -> int:
    """Raise this process's limit of open files (which gunicorn and its workers inherit) as far as the system allows.

    Many systems start programs with a limit of 1,024, far below the streams a worker holds;
    the hard limit, which only the administrator can raise, is usually much higher.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = OPEN_FILES if hard == resource.RLIM_INFINITY else min(hard, max(soft, OPEN_FILES))
    if wanted > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return max(soft, wanted)


TLS_CERT = os.environ.get("TLS_CERT", "")
TLS_KEY = os.environ.get("TLS_KEY", "")
"""A certificate and its key (PEM files) to serve HTTPS: phones install the app and keep it offline only from a secure page."""


def gunicorn_argv(bind: str, workers: str = WORKERS, *, cert: str = TLS_CERT, key: str = TLS_KEY) -> list[str]:
    """Return the gunicorn command line: evented workers, an access log without game tokens, the app's hooks, HTTPS if given a certificate.

    A gevent worker holds an open live stream as a sleeping greenlet, not a thread: thousands
    fit in one process, and a tap never waits for a stream to let go of a worker. Ours also
    limits how long a client may take to send a request and how many connections one
    address holds (``serving.worker``).
    """
    tls = ["--certfile", cert, "--keyfile", key] if cert and key else []
    return [
        "gunicorn",
        "--no-control-socket",
        "--bind",
        bind,
        "--workers",
        workers,
        "--worker-class",
        "serving.worker.GuardedGeventWorker",
        "--worker-connections",
        WORKER_CONNECTIONS,
        "--access-logfile",
        "-",
        "--logger-class",
        "serving.access_log.RedactingLogger",
        "--config",
        "python:serving.hooks",
        *tls,
        "app:create_app()",
    ]
