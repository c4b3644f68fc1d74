"""The search answers questions as players phrase them, in each game and each language.

Two sets of questions, both written from the entry ids and the rules in players' own words
(typos, slang and mixed languages included), before looking at what the engine handles:
the tuning set (faq/content/<game>.questions.toml), which the search learns from and may be
fitted to, and the held-out set (heldout.toml), written after the last round of tuning and
never fitted to. When the search is tuned again, a fresh held-out set is written first and the
old one joins the tuning set (its questions keep their kinds). ``make faq-eval`` prints the
rates, the kinds of question that miss, and the misses.

The goals are asserted on the tuning set, each question asked of a model taught without it
(asked of the model it taught, a question would only test the model's memory). The held-out
set is a measurement, printed by ``make faq-eval``, rather than a floor that later tuning would
be tempted to look at.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from rapidfuzz import fuzz, process

from faq.content import LANGUAGES, Question, load, load_outlines, load_questions
from faq.evaluation import Rates, by_section, cross_validated, questions
from faq.search import Index

HERE = Path(__file__).resolve().parent
HELD_OUT = HERE / "heldout.toml"
SETS: dict[str, Callable[[], list[Question]]] = {"tuning": load_questions, "held-out": lambda: questions(HELD_OUT)}
"""The players' questions the search learns from, and those it never sees."""
GAMES = tuple(load_outlines())
"""The games with a FAQ."""
MIN_TUNING_QUESTIONS = 45
MIN_HELD_OUT_QUESTIONS = 40
"""Per game and language, so that one question moves a rate by little more than two points."""
MAX_LIKENESS = 85
"""A held-out question at least this alike (RapidFuzz token-set ratio) to a tuning question is a copy, not a new one."""


@pytest.fixture(scope="module")
def index() -> Index:
    """The FAQ as served: the content's entries, taught by the content's players' questions."""
    entries = load()
    return Index(entries, examples=load_questions(entries=entries))


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


@pytest.mark.parametrize(("name", "least"), [("tuning", MIN_TUNING_QUESTIONS), ("held-out", MIN_HELD_OUT_QUESTIONS)])
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


def test_held_out_questions_are_new_not_tuning_questions_reworded() -> None:
    tuning = by_game_and_language(load_questions())
    copies = [(q.q, alike) for q in questions(HELD_OUT) if (alike := copy_of(q.q, tuning[(q.game, q.lang)])) is not None]
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


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_tuning_answer_is_first_for_85_and_in_the_top_three_for_95_percent_asked_of_a_model_taught_without_it(
    index: Index, game: str, lang: str
) -> None:
    asked = [q for q in load_questions() if (q.game, q.lang) == (game, lang)]
    outcomes = by_section(cross_validated(index, asked))[(game, lang)]
    rates = Rates.of(outcomes)
    misses = "\n".join(f"{o.question.q!r}: want {o.question.expect}, got {o.found}" for o in outcomes if not o.top1)
    assert not rates.shortfall(), f"{game}/{lang}: {rates}; not first:\n{misses}"
