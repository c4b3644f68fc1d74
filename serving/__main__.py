"""Serve Tischblock to the phones around the table and say where to find it: ``python -m serving``."""

import os
import sys
from pathlib import Path

from infra.network import is_loopback, lan_address
from serving.command import HOST, PORT, TLS_CERT, TLS_KEY, gunicorn_argv, raise_open_files


def main() -> None:
    """Print the address for the phones (or, behind a proxy, where the proxy finds this server), then hand the process over to gunicorn."""
    scheme = "https" if TLS_CERT and TLS_KEY else "http"
    if is_loopback(HOST):
        print(f"\n  Tischblock: serving {scheme}://{HOST}:{PORT}/ for the reverse proxy on this machine\n", flush=True)
    else:
        print(f"\n  Tischblock: open {scheme}://{lan_address()}:{PORT}/ on the phones at the table\n", flush=True)
    raise_open_files()
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    os.execv(gunicorn, gunicorn_argv(f"{HOST}:{PORT}"))


if __name__ == "__main__":
    main()
