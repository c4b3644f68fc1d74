"""Static files under fingerprinted addresses: cached for a year, yet a new version is fetched at once.

Every ``url_for('static', ...)`` carries ``v=`` the first characters of the file's SHA-256,
so the address changes exactly when the content does. A request with the current
fingerprint may be kept forever (``immutable``); any other (an old page asking for an old
fingerprint, or no fingerprint at all) must ask again each time, and gets the file as it
is now.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Response, current_app, request

FINGERPRINT_ARG = "v"
FINGERPRINT_LENGTH = 12
LONG_LIFE_SECONDS = 365 * 24 * 60 * 60


@lru_cache(maxsize=512)
def _digest(path: str, modified_ns: int, size: int) -> str:
    """Return the fingerprint of a file's content; the key makes a changed file count as new."""
    sha = hashlib.sha256()
    with open(path, "rb") as content:
        for block in iter(lambda: content.read(1 << 16), b""):
            sha.update(block)
    return sha.hexdigest()[:FINGERPRINT_LENGTH]


@lru_cache(maxsize=512)
def _inside(folder: str, filename: str) -> Path | None:
    """Return where a static address points if that is inside the folder: resolving a path walks it, and a sheet names the same few files in every render."""
    root = Path(folder).resolve()
    path = (root / filename).resolve()
    return path if root in path.parents else None


def fingerprint(filename: str) -> str | None:
    """Return the current fingerprint of a static file, or nothing if it does not exist."""
    path = _inside(current_app.static_folder or "static", filename)
    if path is None:
        return None
    try:
        status = path.stat()
    except OSError:
        return None
    return _digest(str(path), status.st_mtime_ns, status.st_size) if stat.S_ISREG(status.st_mode) else None


def static_files() -> Iterator[str]:
    """Yield the name of every static file, as ``url_for('static', filename=...)`` takes it."""
    folder = Path(current_app.static_folder or "static")
    for directory, subfolders, files in os.walk(folder):
        subfolders.sort()
        for name in sorted(files):
            yield (Path(directory) / name).relative_to(folder).as_posix()


def add_fingerprint(endpoint: str, values: dict[str, Any]) -> None:
    """Put the file's fingerprint into every address of a static file."""
    if endpoint == "static" and FINGERPRINT_ARG not in values and isinstance(values.get("filename"), str):
        found = fingerprint(values["filename"])
        if found is not None:
            values[FINGERPRINT_ARG] = found


def cache_static_files(response: Response) -> Response:
    """Let browsers keep a fingerprinted file for a year; anything else is checked again before use."""
    if request.endpoint != "static" or response.status_code != 200:
        return response
    filename = (request.view_args or {}).get("filename", "")
    asked = request.args.get(FINGERPRINT_ARG)
    if asked is not None and asked == fingerprint(filename):
        response.cache_control.no_cache = None
        response.cache_control.public = True
        response.cache_control.max_age = LONG_LIFE_SECONDS
        response.cache_control.immutable = True
    else:
        response.cache_control.no_cache = True
        response.cache_control.max_age = None
    return response
