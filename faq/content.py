"""The rules FAQ as data: one TOML file per game and language, checked when it is loaded.

A broken entry must fail loudly at start (and in the tests), never show up as a broken page.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CONTENT = Path(__file__).resolve().parent / "content"
GAMES = ("auruxxx", "12days")
LANGUAGES = ("de", "en")
TOPICS = {
    "auruxxx": ("laying", "passing", "draw-two", "action-cards", "happy-man", "round-end", "scoring", "house-rules", "setup", "app"),
    "12days": ("day", "ties", "claus", "pot", "end", "bonus", "variants", "setup", "app"),
}
CONTROLS = {
    "auruxxx": ("passes", "happy_man", "finish", "golden12", "hand", "totals", "house_rules", "dealer", "undo", "correct"),
    "12days": ("reveal", "claus", "pot", "quick", "final_hand", "majorities", "totals", "variant", "passing", "undo", "correct"),
}
REQUIRED_TEXT = ("id", "topic", "question", "answer", "details")
MIN_ENTRIES = 25


class BrokenContent(ValueError):
    """Raised with every problem found in the FAQ files."""


@dataclass(frozen=True)
class Entry:
    """One rule question with its short answer first, the details after, and where it belongs."""

    id: str
    game: str
    lang: str
    topic: str
    question: str
    answer: str
    details: str
    page: str
    keywords: tuple[str, ...]
    controls: tuple[str, ...]


def _entry(game: str, lang: str, raw: Any, place: str, problems: list[str]) -> Entry | None:
    """Return one checked entry, or note what is wrong with it."""
    if not isinstance(raw, dict):
        problems.append(f"{place}: an entry is a table of keys")
        return None
    for key in REQUIRED_TEXT:
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            problems.append(f"{place}.{key}: needs text")
    unknown = set(raw) - {*REQUIRED_TEXT, "page", "keywords", "controls"}
    if unknown:
        problems.append(f"{place}: unknown keys {sorted(unknown)}")
    if raw.get("topic") not in TOPICS[game]:
        problems.append(f"{place}.topic: {raw.get('topic')!r} is not a topic of {game}")
    keywords = raw.get("keywords", [])
    controls = raw.get("controls", [])
    if not isinstance(keywords, list) or not all(isinstance(k, str) and k.strip() for k in keywords):
        problems.append(f"{place}.keywords: a list of words")
        keywords = []
    if not isinstance(controls, list) or not all(c in CONTROLS[game] for c in controls):
        problems.append(f"{place}.controls: only {', '.join(CONTROLS[game])}")
        controls = []
    if not isinstance(raw.get("page", ""), str):
        problems.append(f"{place}.page: the rulebook page as text")
    if any(problem.startswith(place + ".") or problem.startswith(place + ":") for problem in problems):
        return None
    return Entry(
        id=raw["id"],
        game=game,
        lang=lang,
        topic=raw["topic"],
        question=raw["question"].strip(),
        answer=raw["answer"].strip(),
        details=raw["details"].strip(),
        page=raw.get("page", "").strip(),
        keywords=tuple(k.strip() for k in keywords),
        controls=tuple(controls),
    )


def load_file(path: Path, problems: list[str]) -> list[Entry]:
    """Return the entries of one file, noting every problem."""
    name = path.name
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        problems.append(f"{name}: {error}")
        return []
    game, lang = data.get("game"), data.get("lang")
    if game not in GAMES or lang not in LANGUAGES or name != f"{game}.{lang}.toml":
        problems.append(f"{name}: must say game and lang matching its name")
        return []
    entries = [
        entry
        for index, raw in enumerate(data.get("entry", []))
        if (entry := _entry(game, lang, raw, f"{name}: entry[{index}]", problems)) is not None
    ]
    ids = [entry.id for entry in entries]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        problems.append(f"{name}: ids used twice: {', '.join(duplicates)}")
    if len(entries) < MIN_ENTRIES:
        problems.append(f"{name}: at least {MIN_ENTRIES} entries (got {len(entries)})")
    return entries


def load(folder: Path = CONTENT) -> list[Entry]:
    """Return every entry of every game and language, or raise BrokenContent listing all problems.

    Each game must answer the same questions in every language, so the same ids appear in each.
    """
    problems: list[str] = []
    entries: list[Entry] = []
    for game in GAMES:
        ids_by_language: dict[str, set[str]] = {}
        for lang in LANGUAGES:
            path = folder / f"{game}.{lang}.toml"
            if not path.exists():
                problems.append(f"{path.name}: missing")
                continue
            found = load_file(path, problems)
            entries += found
            ids_by_language[lang] = {entry.id for entry in found}
        if len(ids_by_language) == len(LANGUAGES):
            first, *others = ids_by_language.values()
            for other in others:
                if other != first:
                    problems.append(f"{game}: the languages answer different questions: {sorted(first ^ other)}")
    if problems:
        raise BrokenContent("\n".join(problems))
    return entries


def by_id(entries: Iterable[Entry]) -> dict[tuple[str, str, str], Entry]:
    """Return entries keyed by (game, lang, id)."""
    return {(e.game, e.lang, e.id): e for e in entries}
