"""What the search learns from players' questions: a naive Bayes model of each section, one rule a test.

Small made-up entries and questions prove each rule of the model and of how the search uses it;
tests/faq/test_search_quality.py measures it on the real content, each question asked of a model
taught without it.
"""

from __future__ import annotations

import math

import pytest

from faq.content import Entry, Question
from faq.evaluation import cross_validated, evaluate, fold_of
from faq.learned import learn
from faq.search import Index


def entry(id: str, question: str, asked: tuple[str, ...] = ()) -> Entry:
    return Entry(
        id=id,
        game="12days",
        lang="en",
        topic="day",
        question=question,
        answer="See the rules.",
        details="The rulebook says more.",
        page="",
        keywords=(),
        controls=(),
        asked=asked,
    )


def player(q: str, *expect: str) -> Question:
    return Question(game="12days", lang="en", q=q, expect=expect)


def ids(index: Index, query: str) -> list[str]:
    return [hit.entry.id for hit in index.search(query, game="12days", lang="en", limit=3)]


ENTRIES = [entry("deal", "Who deals the cards?"), entry("count", "How many cards does each player get?")]


# --- the model ------------------------------------------------------------------------------------


def test_the_chances_of_all_entries_add_up_to_one() -> None:
    model = learn([({"deal": 1.0}, [0]), ({"count": 1.0}, [1])], 3, least=1)
    assert math.isclose(sum(model.shares({"deal": 1.0, "unknown": 0.5})), 1.0)


def test_an_entry_whose_questions_held_a_feature_is_the_likelier_for_a_question_holding_it() -> None:
    model = learn([({"deal": 1.0, "card": 1.0}, [0]), ({"count": 1.0, "card": 1.0}, [1])], 2, least=1)
    dealt, counted = model.shares({"deal": 1.0})
    assert dealt > 0.9 > 0.1 > counted


def test_a_feature_no_taught_question_held_says_nothing() -> None:
    model = learn([({"deal": 1.0}, [0]), ({"count": 1.0}, [1]), ({"count": 1.0}, [1])], 2, least=1)
    assert model.shares({"shuffle": 1.0}) == model.shares({})


def test_a_feature_fewer_than_three_taught_questions_hold_is_not_learnt() -> None:
    """A word only one or two questions use says more of their writer than of the entry."""
    twice = learn(
        [({"deal": 1.0, "shuffle": 1.0}, [0]), ({"deal": 1.0, "shuffle": 1.0}, [0]), ({"deal": 1.0}, [0]), ({"count": 1.0}, [1])], 2
    )
    thrice = learn(
        [
            ({"deal": 1.0, "shuffle": 1.0}, [0]),
            ({"deal": 1.0, "shuffle": 1.0}, [0]),
            ({"deal": 1.0, "shuffle": 1.0}, [0]),
            ({"count": 1.0}, [1]),
        ],
        2,
    )
    assert "shuffle" not in twice.seen and "shuffle" in thrice.seen
    assert twice.shares({"shuffle": 1.0}) == [0.5, 0.5]


def test_before_its_features_every_entry_is_as_likely_however_often_it_was_taught() -> None:
    """How many paraphrases or questions an entry has says how it was written, not how often players ask it."""
    model = learn([({"deal": 1.0}, [0]), ({"count": 1.0}, [1]), ({"count": 1.0}, [1]), ({"count": 1.0}, [1])], 2, least=1)
    assert model.shares({}) == [0.5, 0.5]


def test_a_question_two_entries_answer_teaches_both() -> None:
    model = learn([({"shuffle": 1.0}, [0, 1]), ({"deal": 1.0}, [0]), ({"count": 1.0}, [1]), ({"pot": 1.0}, [2])], 3, least=1)
    first, second, other = model.shares({"shuffle": 1.0})
    assert first == pytest.approx(second) and first > 0.4 > other


def test_every_number_of_the_model_has_four_places_as_the_browser_adds_them() -> None:
    model = learn([({"deal": 0.7071, "|dea": 0.5}, [0]), ({"count": 1.0}, [1])], 2, least=1)
    numbers = [*model.unseen, *(value for found in model.seen.values() for value in found.values())]
    assert all(value == round(value, 4) for value in numbers)


# --- the search -----------------------------------------------------------------------------------


def test_players_questions_teach_which_entry_their_words_mean() -> None:
    """ "Cards for twelve" names cards, which both entries hold; taught that players who say "twelve" ask about the cards
    each one gets, the search puts that entry first."""
    taught = [player("twelve cards each?", "count"), player("does everyone get twelve", "count")]
    assert ids(Index(ENTRIES), "cards for twelve")[0] == "deal"
    assert ids(Index(ENTRIES, examples=taught), "cards for twelve")[0] == "count"


def test_the_model_only_reorders_what_the_words_found_against_the_best_of_them() -> None:
    """An entry none of a question's words found can follow the entries they found, never pass the first of them."""
    entries = [*ENTRIES, entry("pot", "What happens to the pot?")]
    taught = [player("who deals the cards", "pot"), player("who deals", "pot")]
    assert ids(Index(entries, examples=taught), "who deals")[0] == "deal"


def test_the_letters_of_a_word_the_search_does_not_know_point_at_the_entry_taught_by_it() -> None:
    """No entry holds "refil": the letter trigrams the players' questions held teach it all the same."""
    taught = [player("refill after each day?", "count"), player("we refill to twelve right", "count")]
    assert ids(Index(ENTRIES, examples=taught), "refil how")[0] == "count"


def test_a_question_about_an_entry_of_another_section_teaches_nothing_here() -> None:
    taught = [player("who shuffles", "not-an-entry-here")]
    index = Index(ENTRIES, examples=taught)
    section = index.section("12days", "en")
    assert section is not None
    assert section.learned == Index(ENTRIES).section("12days", "en").learned  # type: ignore[union-attr]


def test_only_entries_the_words_found_are_listed() -> None:
    """The model knows every entry; it only says which of those the question's words found players mean."""
    entries = [*ENTRIES, entry("pot", "What happens to the pot?")]
    taught = [player("who deals", "pot"), player("who deals the cards then", "pot")]
    assert "pot" not in ids(Index(entries, examples=taught), "who deals the cards")


def test_a_taught_question_is_measured_on_a_model_taught_without_it() -> None:
    """Asked of the model it taught, a question is answered by memory; cross-validated, only by what the others taught.

    Three questions of one fold ask about the count in words that otherwise mean dealing, with words of their own,
    "zzyzx qwvx" (a word must be in three to be learnt); more ask each entry in its usual words.
    """
    candidates = [player(f"the cards zzyzx qwvx {n}", "count") for n in range(60)]
    fold = fold_of(candidates[0])
    rare = [q for q in candidates if fold_of(q) == fold][:3]
    usual = [player(f"who hands out the cards, round {n}", "deal") for n in range(9)]
    usual += [player(f"how many does each get, round {n}", "count") for n in range(9)]
    taught = [*rare, *usual]
    index = Index(ENTRIES, examples=taught)
    remembered = evaluate(index, taught[:1])[0]
    measured = cross_validated(index, taught)[0]
    assert remembered.found[0] == "count"
    assert measured.question == taught[0] and measured.found[0] == "deal"
