"""The FAQ of a content folder, checked and built once per process, with the offline index the phones keep.

Building every section takes seconds of CPU. A server does it in its master process before
the workers fork (``serving.hooks``), so each worker starts with it built and no phone's first
question, nor the offline index its app fetches on the first visit, waits for it while
every other request on that worker waits too.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from faq.content import CONTENT, LANGUAGES, Outline, load, load_outlines, load_questions
from faq.search import Index
from faq.vocabulary import load_vocabularies

Fingerprint = tuple[tuple[str, int, int], ...]
"""Each content file's name, size and modification time: what says the content is still the same."""


def fingerprint(folder: Path) -> Fingerprint:
    """Return the fingerprint of the content files in a folder."""
    stats = {path.name: path.stat() for path in folder.iterdir() if path.is_file()}
    return tuple((name, found.st_size, found.st_mtime_ns) for name, found in sorted(stats.items()))


@cache
def shared(folder: Path, files: Fingerprint) -> tuple[Index, dict[str, Outline]]:
    """Return the checked content of a folder as an index (its sections built on their first question) and outlines, once per process for the same files."""
    outlines = load_outlines(folder)
    entries = load(folder)
    return Index(entries, load_vocabularies(folder, tuple(outlines), LANGUAGES), load_questions(folder, entries)), outlines


@cache
def offline_json(index: Index) -> str:
    """Return an index's offline form as JSON, made once: it is the same for every phone that fetches it."""
    return json.dumps(index.offline(), ensure_ascii=False, separators=(",", ":"))


def warm(folder: Path = CONTENT) -> Index:
    """Build every section of a folder's FAQ and its offline index now, and return the index."""
    index, _ = shared(folder, fingerprint(folder))
    offline_json(index)
    return index
