"""The FAQ content loads, and broken content is refused loudly: by load() and by the app at start."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from app import create_app
from config import TestConfig
from faq.content import CONTENT, LANGUAGES, MIN_ENTRIES, BrokenContent, load, load_file, load_outline

GAMES = ("auruxxx", "12days")
"""The games Tischblock ships a FAQ for."""


def test_every_file_loads_with_enough_entries() -> None:
    entries = load()
    for game in GAMES:
        ids = {lang: [e.id for e in entries if e.game == game and e.lang == lang] for lang in LANGUAGES}
        assert len(ids["de"]) >= MIN_ENTRIES
        assert sorted(ids["de"]) == sorted(ids["en"])
        assert len(set(ids["de"])) == len(ids["de"])


def test_entries_use_known_topics_and_controls_and_have_text() -> None:
    outlines = {game: load_outline(CONTENT / f"{game}.toml", []) for game in GAMES}
    for entry in load():
        outline = outlines[entry.game]
        assert outline is not None
        assert entry.topic in outline.topics
        assert set(entry.controls) <= set(outline.controls)
        assert entry.question and entry.answer and entry.details


def test_each_file_alone_has_no_problems() -> None:
    for path in sorted(CONTENT.glob("*.*.toml")):
        problems: list[str] = []
        assert load_file(path, problems)
        assert problems == [], path.name


# --- a deliberately broken copy ------------------------------------------------------------------


def copy_content(tmp_path: Path) -> Path:
    """Return a folder holding a copy of the real content files."""
    folder = tmp_path / "content"
    shutil.copytree(CONTENT, folder)
    return folder


def split(path: Path) -> tuple[str, list[str]]:
    """Return a file's header and its [[entry]] blocks as text."""
    head, *blocks = path.read_text(encoding="utf-8").split("[[entry]]")
    return head, blocks


def join(path: Path, head: str, blocks: list[str]) -> None:
    path.write_text(head + "".join("[[entry]]" + block for block in blocks), encoding="utf-8")


def problems_of(folder: Path) -> str:
    with pytest.raises(BrokenContent) as raised:
        load(folder)
    return str(raised.value)


def test_missing_answer_is_named(tmp_path: Path) -> None:
    folder = copy_content(tmp_path)
    path = folder / "auruxxx.de.toml"
    head, blocks = split(path)
    blocks[2] = re.sub(r"(?m)^answer = .*\n", "", blocks[2])
    join(path, head, blocks)
    assert "auruxxx.de.toml: entry[2].answer: needs text" in problems_of(folder)


def test_empty_answer_is_named(tmp_path: Path) -> None:
    folder = copy_content(tmp_path)
    path = folder / "12days.en.toml"
    head, blocks = split(path)
    blocks[0] = re.sub(r'(?m)^answer = .*$', 'answer = "   "', blocks[0])
    join(path, head, blocks)
    assert "12days.en.toml: entry[0].answer: needs text" in problems_of(folder)


def test_unknown_topic_is_named(tmp_path: Path) -> None:
    folder = copy_content(tmp_path)
    path = folder / "12days.de.toml"
    head, blocks = split(path)
    blocks[1] = re.sub(r'(?m)^topic = .*$', 'topic = "happy-man"', blocks[1])
    join(path, head, blocks)
    assert "12days.de.toml: entry[1].topic: 'happy-man' is not a topic of 12days" in problems_of(folder)


def test_duplicate_id_is_named(tmp_path: Path) -> None:
    folder = copy_content(tmp_path)
    path = folder / "auruxxx.en.toml"
    head, blocks = split(path)
    blocks[1] = re.sub(r'(?m)^id = .*$', 'id = "what-fits-on-a-number"', blocks[1])
    join(path, head, blocks)
    assert "auruxxx.en.toml: ids used twice: what-fits-on-a-number" in problems_of(folder)


def test_id_missing_in_one_language_is_named(tmp_path: Path) -> None:
    folder = copy_content(tmp_path)
    path = folder / "12days.en.toml"
    head, blocks = split(path)
    dropped = re.search(r'(?m)^id = "(.*)"$', blocks[-1])
    assert dropped
    join(path, head, blocks[:-1])
    problems = problems_of(folder)
    assert "12days: the languages answer different questions" in problems
    assert dropped.group(1) in problems


def test_fewer_than_minimum_entries_is_named(tmp_path: Path) -> None:
    folder = copy_content(tmp_path)
    for lang in LANGUAGES:
        path = folder / f"auruxxx.{lang}.toml"
        head, blocks = split(path)
        join(path, head, blocks[: MIN_ENTRIES - 1])
    problems = problems_of(folder)
    assert f"auruxxx.de.toml: at least {MIN_ENTRIES} entries (got {MIN_ENTRIES - 1})" in problems
    assert f"auruxxx.en.toml: at least {MIN_ENTRIES} entries (got {MIN_ENTRIES - 1})" in problems


def test_every_problem_is_listed_at_once(tmp_path: Path) -> None:
    folder = copy_content(tmp_path)
    path = folder / "auruxxx.de.toml"
    head, blocks = split(path)
    blocks[0] = re.sub(r"(?m)^answer = .*\n", "", blocks[0])
    blocks[3] = re.sub(r'(?m)^topic = .*$', 'topic = "nonsense"', blocks[3])
    join(path, head, blocks)
    problems = problems_of(folder)
    assert "entry[0].answer: needs text" in problems
    assert "entry[3].topic: 'nonsense'" in problems


def test_missing_file_is_named(tmp_path: Path) -> None:
    folder = copy_content(tmp_path)
    (folder / "12days.de.toml").unlink()
    assert "12days.de.toml: missing" in problems_of(folder)


def test_app_refuses_to_start_with_broken_content(tmp_path: Path) -> None:
    folder = copy_content(tmp_path)
    path = folder / "auruxxx.de.toml"
    head, blocks = split(path)
    blocks[0] = re.sub(r"(?m)^answer = .*\n", "", blocks[0])
    join(path, head, blocks)
    with pytest.raises(BrokenContent, match=r"entry\[0\]\.answer: needs text"):
        create_app({**{k: getattr(TestConfig, k) for k in dir(TestConfig) if k.isupper()}, "FAQ_CONTENT": str(folder)})
