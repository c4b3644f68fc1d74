"""The rules FAQ of a content folder, loaded when first asked and each game's index in each language built once per process.

Building every section takes a few seconds of CPU, so nothing is built before it is used: an app that
never answers a question (``flask score``, most apps the tests make) never pays for it. A server builds
them in its master before the workers fork (``serving.hooks``), so each worker starts with them built.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from faq.content import CONTENT, Entry, Outline, Question, languages, load, load_outlines, load_questions, load_words
from faq.index import Searcher, build
from faq.language import Language, load_languages, words


@dataclass(frozen=True)
class Hit:
    """An entry that answers a question, with its rank's score and the terms the question looked for (to mark them)."""

    entry: Entry
    score: int
    terms: frozenset[str]
    lexicon: dict[str, list[str]]

    def highlight(self, text: str) -> Markup:
        """Return text escaped for HTML with the words that stand for a term of the question marked."""
        out = []
        for piece in re.split(r"(\w[\w-]*)", text):
            matched = piece and any(term in self.terms for word in words(piece) for term in self.lexicon.get(word, [word]))
            out.append(f"<mark>{escape(piece)}</mark>" if matched else str(escape(piece)))
        return Markup("".join(out))


class FAQ:
    """Every game's FAQ in every language of a content folder: its outlines and entries, and each section's index and searcher."""

    def __init__(self, folder: Path = CONTENT) -> None:
        self.folder = folder
        self._built: dict[tuple[str, str], tuple[dict[str, Any], Searcher]] = {}
        self._building = threading.Lock()

    @cached_property
    def outlines(self) -> dict[str, Outline]:
        """How each game's FAQ is organised, for every game that has one, in the registry's order."""
        return load_outlines(self.folder)

    @cached_property
    def entries(self) -> list[Entry]:
        """Every entry of every game and language, checked."""
        return load(self.folder)

    @cached_property
    def questions(self) -> list[Question]:
        """The players' questions the search learns from."""
        return load_questions(self.folder, self.entries)

    @cached_property
    def languages(self) -> dict[str, Language]:
        """Every language of the folder."""
        return load_languages(self.folder)

    def sections(self) -> Iterator[tuple[str, str]]:
        """Yield every game and language that has a FAQ."""
        for game in self.outlines:
            yield from ((game, lang) for lang in languages(self.folder))

    def section(self, game: str, lang: str) -> tuple[dict[str, Any], Searcher] | None:
        """Return one game's index in one language and its searcher, built on first use (once, however many threads ask), or None."""
        key = (game, lang)
        if key not in self._built and key in set(self.sections()):
            with self._building:
                if key not in self._built:
                    self._built[key] = self.build(game, lang, self.questions)
        return self._built.get(key)

    def build(self, game: str, lang: str, questions: list[Question]) -> tuple[dict[str, Any], Searcher]:
        """Return the index of one game and language taught by the given players' questions, and its searcher."""
        language = self.languages[lang].with_words(*load_words(self.folder, game, lang))
        entries = [e for e in self.entries if (e.game, e.lang) == (game, lang)]
        topics = {topic: titles[lang] for topic, titles in self.outlines[game].topics.items()}
        index = build(language, entries, [q for q in questions if (q.game, q.lang) == (game, lang)], topics, language.unanswerable)
        return index | {"game": game, "lang": lang}, Searcher(index)

    def search(self, query: str, *, game: str, lang: str, limit: int = 10) -> list[Hit]:
        """Return the entries of one game and language that answer a question, best first; none if the FAQ cannot answer it."""
        section = self.section(game, lang)
        if section is None or not query.strip():
            return []
        index, searcher = section
        ranked, terms = searcher.rank(query)
        entries = [e for e in self.entries if (e.game, e.lang) == (game, lang)]
        return [Hit(entries[at], score, frozenset(terms), index["words"]) for score, at in ranked[:limit]]

    @cached_property
    def offline_json(self) -> str:
        """Return every section's index as JSON, made once: what the phone keeps to search without a network."""
        built = [section for game, lang in self.sections() if (section := self.section(game, lang))]
        return json.dumps({"sections": [index for index, _ in built]}, ensure_ascii=False, separators=(",", ":"))

    def warm(self) -> FAQ:
        """Build every section and the offline index now."""
        assert self.offline_json
        return self


Fingerprint = tuple[tuple[str, int, int], ...]
"""Each content file's name, size and modification time: what says the content is still the same."""


def fingerprint(folder: Path) -> Fingerprint:
    """Return the fingerprint of the content files in a folder and its languages."""
    paths = sorted(path for path in (*folder.iterdir(), *(folder / "languages").glob("*.toml")) if path.is_file())
    return tuple((str(path.relative_to(folder)), path.stat().st_size, path.stat().st_mtime_ns) for path in paths)


@cache
def _shared(folder: Path, files: Fingerprint) -> FAQ:
    return FAQ(folder)


def shared(folder: Path = CONTENT) -> FAQ:
    """Return the FAQ of a folder, one per process for the same files: built once, whichever app asks."""
    return _shared(folder, fingerprint(folder))


def warm(folder: Path = CONTENT) -> FAQ:
    """Build every section of a folder's FAQ and its offline index now, and return the FAQ."""
    return shared(folder).warm()
