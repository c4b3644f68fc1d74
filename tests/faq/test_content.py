"""The FAQ content loads, and broken content is refused loudly: by load() and by the app at start."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from faq.content import CONTENT, LANGUAGES, MIN_ENTRIES, BrokenContent, load, load_file, load_outlines, load_questions
from faq.search import FAQ, warm
from tests.helpers import make_app
from views.site.faq import index as faq_index

GAMES = ("auruxxx", "12days")
"""The games Tischblock ships a FAQ for."""


def test_every_file_loads_with_enough_entries() -> None:
    entries = load()
    for game in GAMES:
        ids = {lang: [e.id for e in entries if e.game == game and e.lang == lang] for lang in LANGUAGES}
        assert len(ids["de"]) >= MIN_ENTRIES
        assert sorted(ids["de"]) == sorted(ids["en"])
        assert len(set(ids["de"])) == len(ids["de"])


def test_every_game_has_an_outline_of_topics_and_controls() -> None:
    assert tuple(load_outlines()) == GAMES


def test_entries_use_known_topics_and_controls_and_have_text() -> None:
    outlines = load_outlines()
    for entry in load():
        assert entry.topic in outlines[entry.game].topics
        assert set(entry.controls) <= set(outlines[entry.game].controls)
        assert entry.question and entry.answer and entry.details


@pytest.mark.parametrize("path", sorted(path for lang in LANGUAGES for path in CONTENT.glob(f"*.{lang}.toml")), ids=lambda path: path.name)
def test_each_file_alone_has_no_problems(path: Path) -> None:
    problems: list[str] = []
    assert load_file(path, problems)
    assert problems == []


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


def broken_copy(tmp_path: Path, name: str, changes: dict[int, Callable[[str], str]]) -> Path:
    """Return a copy of the content whose file ``name`` has some of its entries changed."""
    folder = copy_content(tmp_path)
    head, blocks = split(folder / name)
    for number, change in changes.items():
        blocks[number] = change(blocks[number])
    join(folder / name, head, blocks)
    return folder


def without(key: str) -> Callable[[str], str]:
    """Return a change that drops a key's line from an entry."""
    return lambda block: re.sub(rf"(?m)^{key} = .*\n", "", block)


def setting(key: str, value: str) -> Callable[[str], str]:
    """Return a change that sets a key of an entry to a TOML value, adding the line if need be."""

    def change(block: str) -> str:
        if re.search(rf"(?m)^{key} = ", block):
            return re.sub(rf"(?m)^{key} = .*$", lambda _: f"{key} = {value}", block)
        return f"\n{key} = {value}" + block

    return change


@pytest.mark.parametrize(
    ("name", "number", "change", "named"),
    [
        pytest.param("auruxxx.de.toml", 2, without("answer"), "auruxxx.de.toml: entry[2].answer: needs text", id="missing answer"),
        pytest.param("12days.en.toml", 0, setting("answer", '"   "'), "12days.en.toml: entry[0].answer: needs text", id="empty answer"),
        pytest.param("auruxxx.en.toml", 3, without("question"), "auruxxx.en.toml: entry[3].question: needs text", id="missing question"),
        pytest.param(
            "12days.de.toml",
            1,
            setting("topic", '"happy-man"'),
            "12days.de.toml: entry[1].topic: 'happy-man' is not a topic of 12days",
            id="topic of the other game",
        ),
        pytest.param(
            "auruxxx.en.toml",
            1,
            setting("id", '"what-fits-on-a-number"'),
            "auruxxx.en.toml: ids used twice: what-fits-on-a-number",
            id="duplicate id",
        ),
        pytest.param(
            "auruxxx.de.toml", 0, setting("colour", '"rot"'), "auruxxx.de.toml: entry[0]: unknown keys ['colour']", id="unknown key"
        ),
        pytest.param(
            "12days.en.toml",
            4,
            setting("keywords", '"pass"'),
            "12days.en.toml: entry[4].keywords: a list of words",
            id="keywords not a list",
        ),
        pytest.param(
            "12days.de.toml",
            2,
            setting("controls", '["happy_man"]'),
            "12days.de.toml: entry[2].controls: only ",
            id="control of the other game",
        ),
        pytest.param(
            "auruxxx.en.toml", 5, setting("page", "2"), "auruxxx.en.toml: entry[5].page: the rulebook page as text", id="page as a number"
        ),
        pytest.param(
            "12days.de.toml", 3, setting("names", '"Topf"'), "12days.de.toml: entry[3].names: a list of terms", id="names not a list"
        ),
    ],
)
def test_broken_entry_is_named(tmp_path: Path, name: str, number: int, change: Callable[[str], str], named: str) -> None:
    assert named in problems_of(broken_copy(tmp_path, name, {number: change}))


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
    problems = problems_of(broken_copy(tmp_path, "auruxxx.de.toml", {0: without("answer"), 3: setting("topic", '"nonsense"')}))
    assert "entry[0].answer: needs text" in problems
    assert "entry[3].topic: 'nonsense'" in problems


def test_missing_file_is_named(tmp_path: Path) -> None:
    folder = copy_content(tmp_path)
    (folder / "12days.de.toml").unlink()
    assert "12days.de.toml: missing" in problems_of(folder)


def test_players_questions_load_for_every_game_and_language() -> None:
    asked = load_questions()
    assert {(q.game, q.lang) for q in asked} == {(game, lang) for game in GAMES for lang in LANGUAGES}


def questions_problems(tmp_path: Path, game: str, text: str) -> str:
    """Return what loading the players' questions says of a copy of the content with one question added to a game's file."""
    folder = copy_content(tmp_path)
    path = folder / f"{game}.questions.toml"
    path.write_text(path.read_text(encoding="utf-8") + "\n[[question]]\n" + text, encoding="utf-8")
    with pytest.raises(BrokenContent) as raised:
        load_questions(folder)
    return str(raised.value)


@pytest.mark.parametrize(
    ("game", "text", "named"),
    [
        pytest.param(
            "12days",
            'game = "12days"\nlang = "de"\nq = "wer kriegt den topf"\nexpect = ["happy-man-halving"]\n',
            "12days.questions.toml: question[",
            id="id of the other game",
        ),
        pytest.param(
            "12days",
            'game = "12days"\nlang = "de"\nq = "wer kriegt den topf"\nexpect = ["happy-man-halving"]\n',
            ".expect: ids of 12days entries in de, got ['happy-man-halving']",
            id="id of the other game, said",
        ),
        pytest.param(
            "auruxxx",
            'game = "12days"\nlang = "de"\nq = "wer kriegt den topf"\nexpect = ["nobody-wins-pot"]\n',
            "game '12days' and lang 'de' must be auruxxx",
            id="question in the other game's file",
        ),
        pytest.param(
            "auruxxx",
            'game = "auruxxx"\nlang = "fr"\nq = "qui gagne"\nexpect = ["who-wins"]\n',
            "lang 'fr' must be auruxxx and one of de, en",
            id="unknown language",
        ),
        pytest.param("auruxxx", 'game = "auruxxx"\nlang = "de"\nq = "  "\nexpect = ["who-wins"]\n', ".q: needs text", id="empty question"),
        pytest.param(
            "auruxxx", 'game = "auruxxx"\nlang = "de"\nq = "wer gewinnt"\nexpect = []\n', ".expect: ids of auruxxx entries", id="no id"
        ),
        pytest.param(
            "auruxxx",
            'game = "auruxxx"\nlang = "de"\nq = "wer gewinnt"\nexpect = ["who-wins"]\nkinds = ["rude"]\n',
            ".kinds: only situation, ",
            id="unknown kind",
        ),
        pytest.param(
            "auruxxx",
            'game = "auruxxx"\nlang = "de"\nq = "wer gewinnt"\nexpect = [["who-wins"]]\n',
            ".expect: ids of auruxxx entries",
            id="id not a string",
        ),
        pytest.param(
            "auruxxx",
            'game = "auruxxx"\nlang = "de"\nquestion = "wer gewinnt"\nexpect = ["who-wins"]\n',
            ": needs expect, game, lang, q and may have kinds",
            id="unknown key",
        ),
        pytest.param(
            "auruxxx",
            'game = "auruxxx"\nlang = "de"\nq = "darf man eig mit ner 7 auf ne 8?"\nexpect = ["who-wins"]\n',
            ".q: asked twice: 'darf man eig mit ner 7 auf ne 8?'",
            id="asked twice",
        ),
    ],
)
def test_a_broken_players_question_is_named(tmp_path: Path, game: str, text: str, named: str) -> None:
    assert named in questions_problems(tmp_path, game, text)


def test_a_server_refuses_to_start_with_broken_content(tmp_path: Path) -> None:
    """Broken content stops a server before it serves (its pre-fork hook builds the FAQ), not one page later."""
    folder = broken_copy(tmp_path, "auruxxx.de.toml", {0: without("answer")})
    with pytest.raises(BrokenContent, match=r"entry\[0\]\.answer: needs text"):
        warm(folder)


def test_apps_on_the_same_content_share_one_faq_and_changed_content_is_read_again(tmp_path: Path) -> None:
    """The test suite builds hundreds of apps: the content is checked and indexed once per process, unless it changes."""
    folder = copy_content(tmp_path)

    def faq_of_new_app() -> FAQ:
        with make_app("sqlite://", migrate=False, FAQ_CONTENT=str(folder)).app_context():
            return faq_index()

    first = faq_of_new_app()
    assert faq_of_new_app() is first
    path = folder / "auruxxx.de.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("Welche Karten passen", "Welche Karte passt", 1), encoding="utf-8")
    again = faq_of_new_app()
    assert again is not first
    assert any(e.question.startswith("Welche Karte passt") for e in again.entries)
