"""The question sets the FAQ is tuned and measured on are sound: enough of them, none copied from the entries, none a held-out
question reworded from a tuning question or a paraphrase.

The tuning set (faq/content/<game>.questions.toml) is what the search learns from; the held-out sets (heldout-*.toml), written
before each round of tuning, are never tuned on. How well the search answers them is a measurement (``make faq-eval``,
bench/faq.py), not a test.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from rapidfuzz import fuzz, process

from faq.content import LANGUAGES, BrokenContent, Question, load, load_outlines, load_questions, read_questions

HERE = Path(__file__).resolve().parent
HELD_OUT = sorted(HERE.glob("heldout-*.toml"))


def questions(path: Path) -> list[Question]:
    """Return the questions of a set, or raise BrokenContent listing what is wrong with them."""
    problems: list[str] = []
    found = read_questions(path, load(), problems)
    if problems:
        raise BrokenContent("\n".join(problems))
    return found


SETS: dict[str, Callable[[], list[Question]]] = {"tuning": load_questions} | {path.stem: partial(questions, path) for path in HELD_OUT}
"""The players' questions the search learns from, and those it never sees."""
GAMES = tuple(load_outlines())
"""The games with a FAQ."""
MIN_TUNING_QUESTIONS = 45
MIN_HELD_OUT_QUESTIONS = 40
"""Per game and language, so that one question moves a rate by little more than two points."""
MAX_LIKENESS = 85
"""A held-out question at least this alike (RapidFuzz token-set ratio) to a tuning question is a copy, not a new one."""


def by_game_and_language(asked: list[Question]) -> dict[tuple[str, str], list[str]]:
    """Return the questions' words, lower case, per game and language."""
    found: dict[tuple[str, str], list[str]] = {}
    for q in asked:
        found.setdefault((q.game, q.lang), []).append(q.q.lower())
    return found


def copy_of(text: str, others: list[str]) -> str | None:
    """Return the first of ``others`` so alike to a text that it is a copy, reworded at most (RapidFuzz's token-set ratio), or None."""
    found = process.extractOne(text.lower(), others, scorer=fuzz.token_set_ratio, score_cutoff=MAX_LIKENESS)
    return None if found is None else str(found[0])


@pytest.mark.parametrize(("name", "least"), [("tuning", MIN_TUNING_QUESTIONS)] + [(path.stem, MIN_HELD_OUT_QUESTIONS) for path in HELD_OUT])
def test_enough_questions_in_each_game_and_language(name: str, least: int) -> None:
    asked = Counter((q.game, q.lang) for q in SETS[name]())
    assert {(game, lang) for game in GAMES for lang in LANGUAGES} == set(asked)
    assert all(count >= least for count in asked.values()), asked


@pytest.mark.parametrize("name", SETS)
def test_questions_are_not_copied_from_the_entries(name: str) -> None:
    texts: dict[tuple[str, str], set[str]] = {(e.game, e.lang): set() for e in load()}
    for e in load():
        texts[(e.game, e.lang)] |= {e.question.lower(), *(k.lower() for k in e.keywords)}
    for q in SETS[name]():
        assert q.q.lower() not in texts[(q.game, q.lang)], q


@pytest.mark.parametrize("path", HELD_OUT, ids=lambda path: path.stem)
def test_held_out_questions_are_new_not_tuning_questions_reworded(path: Path) -> None:
    tuning = by_game_and_language(load_questions())
    copies = [(q.q, alike) for q in questions(path) if (alike := copy_of(q.q, tuning[(q.game, q.lang)])) is not None]
    assert not copies, copies


@pytest.mark.parametrize("name", SETS)
def test_no_paraphrase_copies_a_question_the_search_is_measured_on(name: str) -> None:
    """Paraphrases are written from the entries' meaning: one that is a question of a set reworded would teach the set.

    The tuning set teaches the search too, but each of its questions is measured on a model taught without
    it; a paraphrase copying it would teach it all the same.
    """
    asked = by_game_and_language(SETS[name]())
    copies = [
        (e.id, paraphrase, alike)
        for e in load()
        for paraphrase in e.asked
        if (alike := copy_of(paraphrase, asked[(e.game, e.lang)])) is not None
    ]
    assert not copies, copies
