"""The rules FAQ as data: per game an outline (``<game>.toml``: topics and sheet controls), one TOML file of entries per language (with
the game's words in that language), players' questions with the entries that answer them (``<game>.questions.toml``), which the search
learns from, and a file per language (``languages/<lang>.toml``, faq.language); all checked when loaded.

A broken entry must fail loudly at start (and in the tests), never show up as a broken page.
A registered game without an outline has no FAQ.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.games import kinds

CONTENT = Path(__file__).resolve().parent / "content"


def languages(folder: Path = CONTENT) -> tuple[str, ...]:
    """Return the codes of the languages a content folder has a file for (``languages/<lang>.toml``), in order."""
    return tuple(sorted(path.stem for path in (folder / "languages").glob("*.toml")))


LANGUAGES = languages()
REQUIRED_TEXT = ("id", "topic", "question", "answer", "details")
MIN_ENTRIES = 25
QUESTION_KEYS = {"game", "lang", "q", "expect"}
"""What every player's question says: its game and language, the question, and the ids of the entries that answer it."""
KINDS = ("situation", "number-word", "everyday-word", "typo", "compound", "short", "variant", "app")
"""What may make a player's question hard, so that a measure can tell which kinds miss (tests/faq/heldout-13.toml explains each)."""


class BrokenContent(ValueError):
    """Raised with every problem found in the FAQ files."""


@dataclass(frozen=True)
class Outline:
    """How one game's FAQ is organised: its topics in order, titled in every language, and the sheet controls it explains."""

    game: str
    topics: dict[str, dict[str, str]]
    """Topic id -> language -> title, in the order the FAQ page shows them."""
    controls: tuple[str, ...]


def load_outline(path: Path, problems: list[str]) -> Outline | None:
    """Return a game's outline from ``<game>.toml``, noting every problem."""
    name = path.name
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        problems.append(f"{name}: {error}")
        return None
    game = data.get("game")
    if game not in kinds() or name != f"{game}.toml":
        problems.append(f"{name}: must say the game matching its name")
        return None
    found = len(problems)
    topics: dict[str, dict[str, str]] = {}
    raw_topics = data.get("topic")
    spoken = languages(path.parent)
    for index, raw in enumerate(raw_topics if isinstance(raw_topics, list) else []):
        titles = {lang: raw.get(lang) for lang in spoken} if isinstance(raw, dict) else {}
        if (
            not isinstance(raw, dict)
            or not isinstance(raw.get("id"), str)
            or not all(isinstance(t, str) and t.strip() for t in titles.values())
        ):
            problems.append(f"{name}: topic[{index}]: an id and a title in {', '.join(spoken)}")
            continue
        topics[raw["id"]] = {lang: str(title).strip() for lang, title in titles.items()}
    if not topics:
        problems.append(f"{name}: at least one [[topic]]")
    controls = data.get("controls", [])
    if not isinstance(controls, list) or not all(isinstance(c, str) and c for c in controls):
        problems.append(f"{name}: controls: a list of names")
        controls = []
    if len(problems) > found:
        return None
    return Outline(game=game, topics=topics, controls=tuple(controls))


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
    asked: tuple[str, ...] = ()
    """The question as players put it at the table, in their own words."""
    names: tuple[str, ...] = ()
    """The game's terms this entry is the home of: a question of one or two words naming one finds this entry first."""


@dataclass(frozen=True)
class Question:
    """A question as a player asked it at the table, the ids of the entries that answer it (best first), and what makes it hard."""

    game: str
    lang: str
    q: str
    expect: tuple[str, ...]
    kinds: tuple[str, ...] = ()


def _entry(outline: Outline, lang: str, raw: Any, place: str, problems: list[str]) -> Entry | None:
    """Return one checked entry, or note what is wrong with it."""
    if not isinstance(raw, dict):
        problems.append(f"{place}: an entry is a table of keys")
        return None
    for key in REQUIRED_TEXT:
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            problems.append(f"{place}.{key}: needs text")
    unknown = set(raw) - {*REQUIRED_TEXT, "page", "keywords", "controls", "asked", "names"}
    if unknown:
        problems.append(f"{place}: unknown keys {sorted(unknown)}")
    game = outline.game
    if raw.get("topic") not in outline.topics:
        problems.append(f"{place}.topic: {raw.get('topic')!r} is not a topic of {game}")
    keywords = raw.get("keywords", [])
    controls = raw.get("controls", [])
    asked = raw.get("asked", [])
    names = raw.get("names", [])
    if not isinstance(keywords, list) or not all(isinstance(k, str) and k.strip() for k in keywords):
        problems.append(f"{place}.keywords: a list of words")
        keywords = []
    if not isinstance(asked, list) or not all(isinstance(a, str) and a.strip() for a in asked):
        problems.append(f"{place}.asked: a list of questions")
        asked = []
    if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
        problems.append(f"{place}.names: a list of terms")
        names = []
    if not isinstance(controls, list) or not all(c in outline.controls for c in controls):
        problems.append(f"{place}.controls: only {', '.join(outline.controls)}")
        controls = []
    if not isinstance(raw.get("page", ""), str):
        problems.append(f"{place}.page: the rulebook page as text")
    if any(problem.startswith((place + ".", place + ":")) for problem in problems):
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
        asked=tuple(a.strip() for a in asked),
        names=tuple(n.strip() for n in names),
    )


def load_file(path: Path, problems: list[str], outline: Outline | None = None) -> list[Entry]:
    """Return the entries of one file, noting every problem; the game's outline is read beside it unless given."""
    name = path.name
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        problems.append(f"{name}: {error}")
        return []
    game, lang = data.get("game"), data.get("lang")
    if game not in kinds() or lang not in languages(path.parent) or name != f"{game}.{lang}.toml":
        problems.append(f"{name}: must say game and lang matching its name")
        return []
    if outline is None:
        outline = load_outline(path.with_name(f"{game}.toml"), problems)
        if outline is None:
            return []
    entries = [
        entry
        for index, raw in enumerate(data.get("entry", []))
        if (entry := _entry(outline, lang, raw, f"{name}: entry[{index}]", problems)) is not None
    ]
    ids = [entry.id for entry in entries]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        problems.append(f"{name}: ids used twice: {', '.join(duplicates)}")
    if len(entries) < MIN_ENTRIES:
        problems.append(f"{name}: at least {MIN_ENTRIES} entries (got {len(entries)})")
    return entries


def load(folder: Path = CONTENT) -> list[Entry]:
    """Return every entry of every game with a FAQ and of every language, or raise BrokenContent listing all problems.

    Each game must answer the same questions in every language, so the same ids appear in each.
    """
    problems: list[str] = []
    entries: list[Entry] = []
    spoken = languages(folder)
    for game, outline in _outlines(folder, problems).items():
        ids_by_language: dict[str, set[str]] = {}
        for lang in spoken:
            path = folder / f"{game}.{lang}.toml"
            if not path.exists():
                problems.append(f"{path.name}: missing")
                continue
            found = load_file(path, problems, outline)
            entries += found
            ids_by_language[lang] = {entry.id for entry in found}
        if len(ids_by_language) == len(spoken):
            first, *others = ids_by_language.values()
            for other in others:
                if other != first:
                    problems.append(f"{game}: the languages answer different questions: {sorted(first ^ other)}")
    if problems:
        raise BrokenContent("\n".join(problems))
    return entries


def read_questions(path: Path, entries: Iterable[Entry], problems: list[str], game: str | None = None) -> list[Question]:
    """Return the players' questions of a file, noting every problem: each names the game (``game`` if given), a language,
    the question and the ids of entries of that game and language that answer it, with kinds from ``KINDS``, and no question is asked twice."""
    name = path.name
    try:
        raw_questions = tomllib.loads(path.read_text(encoding="utf-8")).get("question", [])
    except (OSError, tomllib.TOMLDecodeError) as error:
        problems.append(f"{name}: {error}")
        return []
    known = {(e.game, e.lang, e.id) for e in entries}
    spoken = {e.lang for e in entries}
    found: list[Question] = []
    seen: set[tuple[str, str, str]] = set()
    for index, raw in enumerate(raw_questions if isinstance(raw_questions, list) else []):
        place = f"{name}: question[{index}]"
        if not isinstance(raw, dict) or not QUESTION_KEYS <= set(raw) <= QUESTION_KEYS | {"kinds"}:
            problems.append(f"{place}: needs {', '.join(sorted(QUESTION_KEYS))} and may have kinds")
            continue
        asked, expect, kinds_of = raw["q"], raw["expect"], raw.get("kinds", [])
        if not isinstance(raw["game"], str) or (game is not None and raw["game"] != game) or raw["lang"] not in spoken:
            problems.append(
                f"{place}: game {raw['game']!r} and lang {raw['lang']!r} must be {game or 'a game'} and one of {', '.join(sorted(spoken))}"
            )
        elif not isinstance(asked, str) or not asked.strip():
            problems.append(f"{place}.q: needs text")
        elif (
            not isinstance(expect, list)
            or not expect
            or not all(isinstance(i, str) and (raw["game"], raw["lang"], i) in known for i in expect)
        ):
            problems.append(f"{place}.expect: ids of {raw['game']} entries in {raw['lang']}, got {expect!r}")
        elif not isinstance(kinds_of, list) or not all(isinstance(kind, str) and kind in KINDS for kind in kinds_of):
            problems.append(f"{place}.kinds: only {', '.join(KINDS)}")
        elif (key := (raw["game"], raw["lang"], asked.strip().lower())) in seen:
            problems.append(f"{place}.q: asked twice: {asked!r}")
        else:
            seen.add(key)
            found.append(Question(raw["game"], raw["lang"], asked.strip(), tuple(expect), tuple(kinds_of)))
    return found


def load_questions(folder: Path = CONTENT, entries: Iterable[Entry] | None = None) -> list[Question]:
    """Return every game's players' questions with the entries that answer them, or raise BrokenContent listing all problems.

    The search learns from them (faq.learned); they are the tuning set that ``make faq-eval`` measures, each
    question asked of a model taught without it.
    """
    problems: list[str] = []
    known = list(entries) if entries is not None else load(folder)
    found: list[Question] = []
    for game in _outlines(folder, problems):
        path = folder / f"{game}.questions.toml"
        if path.exists():
            found += read_questions(path, known, problems, game)
    if problems:
        raise BrokenContent("\n".join(problems))
    return found


def _outlines(folder: Path, problems: list[str]) -> dict[str, Outline]:
    """Return the outline of every registered game that has one in ``folder``, in the registry's order."""
    found = {}
    for game in kinds():
        path = folder / f"{game}.toml"
        if path.exists() and (outline := load_outline(path, problems)) is not None:
            found[game] = outline
    return found


def load_outlines(folder: Path = CONTENT) -> dict[str, Outline]:
    """Return the outline of every game with a FAQ, or raise BrokenContent listing all problems."""
    problems: list[str] = []
    found = _outlines(folder, problems)
    if problems:
        raise BrokenContent("\n".join(problems))
    return found


def load_words(folder: Path, game: str, lang: str) -> tuple[list[list[str]], dict[str, int]]:
    """Return a game's own words in one language, from its entries' file: groups of words for the same thing (``[[synonym]]``, the
    first naming the group) and names of numbers (``[numbers]``, "Rebhuhn" = 1), or raise BrokenContent saying what is wrong."""
    name = f"{game}.{lang}.toml"
    data = tomllib.loads((folder / name).read_text(encoding="utf-8"))
    groups = [raw.get("words") for raw in data.get("synonym", [])]
    numbers = data.get("numbers", {})
    problems = [f"{name}: synonym[{at}]: two words at least" for at, group in enumerate(groups) if not _words_list(group)]
    if not isinstance(numbers, dict) or not all(isinstance(value, int) for value in numbers.values()):
        problems.append(f"{name}: numbers: words with the number each stands for")
    if problems:
        raise BrokenContent("\n".join(problems))
    return groups, numbers


def _words_list(found: Any) -> bool:
    """Tell whether a value is a list of two texts or more."""
    return isinstance(found, list) and len(found) > 1 and all(isinstance(word, str) and word.strip() for word in found)
