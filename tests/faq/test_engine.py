"""The FAQ's one engine in the gate: a fixed sample answered rightly, off-topic questions answered with nothing, the phone's
search equal to the server's, a language that is only data, and the words kept as plain, capped data.

The index is built once per process (``faq.search.shared``); the quality figures on the held-out sets are measurements,
printed by ``make faq-eval`` (bench/faq.py), not tests.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from faq.content import CONTENT, languages, load_words
from faq.search import FAQ, shared
from tests.waiting import PATIENCE_SECONDS

HERE = Path(__file__).resolve().parent
RUNNER = HERE / "offline_search.js"
TEST_LANGUAGE = HERE / "language"
"""A content folder with a language only the tests know (Dutch) and one game's entries in it."""
MAX_GROUPS, MAX_WORDS = 120, 700
"""The most groups of words for the same thing, and words in them, one file may list: synonyms are reviewed data, not a second search."""


@pytest.fixture(scope="module")
def faq() -> FAQ:
    """The FAQ as served, every section built once."""
    return shared().warm()


def offline(faq: FAQ, asked: list[tuple[str, str, str]], limit: int = 3) -> list[list[str]]:
    """Return the ids the phone's script (static/js/faq-offline.js) finds for each question, run by node on the index the server ships."""
    node = shutil.which("node")
    assert node, "node runs the phone's search (the Makefile installs it with npm)"
    payload = f'{{"index":{faq.offline_json},"asked":{json.dumps([{"game": game, "lang": lang, "q": q} for game, lang, q in asked])},"limit":{limit}}}'
    found = subprocess.run([node, str(RUNNER)], input=payload, capture_output=True, text=True, timeout=PATIENCE_SECONDS * 4, check=True)
    ids: list[list[str]] = json.loads(found.stdout)
    return ids


def online(faq: FAQ, asked: list[tuple[str, str, str]], limit: int = 3) -> list[list[str]]:
    """Return the ids the server finds for each question."""
    return [[hit.entry.id for hit in faq.search(q, game=game, lang=lang, limit=limit)] for game, lang, q in asked]


def misspelt(word: str, rng: random.Random) -> str:
    """Return a word with one letter dropped, added, changed or swapped with its neighbour."""
    at, kind = rng.randrange(len(word)), rng.randrange(4)
    if kind == 0:
        return word[:at] + word[at + 1 :]
    if kind == 1:
        return word[:at] + rng.choice("aeinorstuäöü") + word[at:]
    if kind == 2:
        return word[:at] + rng.choice("aeilmnorstu") + word[at + 1 :]
    return word[:at] + word[at + 1 : at + 2] + word[at] + word[at + 2 :]


def sample(faq: FAQ) -> list[tuple[str, str, str]]:
    """Every entry's question, every 40th player's question, each language's unanswerable questions, and 300 questions made of
    the entries' words misspelt, cut off mid-word, run together or shouted."""
    asked = [(e.game, e.lang, e.question) for e in faq.entries] + [(q.game, q.lang, q.q) for q in faq.questions[::40]]
    asked += [(game, lang, q) for game, lang in faq.sections() for q in faq.languages[lang].unanswerable[::3]]
    rng = random.Random(13)
    vocabulary = sorted({(e.game, e.lang, w) for e in faq.entries for w in re.findall(r"[\w-]+", f"{e.question} {e.answer}")})
    for _ in range(300):
        game, lang, _ = rng.choice(vocabulary)
        chosen = [w for other, spoken, w in rng.sample(vocabulary, 400) if (other, spoken) == (game, lang)][: rng.randint(1, 5)] or [
            "karte"
        ]
        chosen = [misspelt(w, rng) if len(w) > 2 and rng.random() < 0.4 else w for w in chosen]
        chosen[-1] = chosen[-1][: rng.randint(1, len(chosen[-1]))] if rng.random() < 0.3 else chosen[-1]
        query = rng.choice([" ", " ", "", "-"]).join(chosen)
        asked.append((game, lang, query.upper() if rng.random() < 0.2 else query))
    return asked


def test_every_entrys_own_question_finds_it_first(faq: FAQ) -> None:
    missed = [(e.game, e.lang, e.id, found) for e in faq.entries if (found := online(faq, [(e.game, e.lang, e.question)], 1)[0]) != [e.id]]
    assert not missed, missed


@pytest.mark.parametrize(
    ("game", "lang", "question", "answered_by"),
    [
        ("auruxxx", "de", "hapy man halbirt", "happy-man-halving"),
        ("auruxxx", "de", "wie oft darf man passen", "passing-limit-and-cost"),
        ("auruxxx", "de", "Goldzwölfstrafe einstellen", "house-rule-golden-12-in-hand"),
        ("auruxxx", "en", "forty five points, is that good", "who-wins"),
        ("auruxxx", "en", "can i pass a fourth time", "fourth-pass"),
        ("12days", "de", "santa und mrs claus zusammen", "santa-and-mrs-claus-cancel"),
        ("12days", "de", "Tageskartenstapel", "setup-deal-twelve"),
        ("12days", "en", "two sixes cancel?", "tied-cards-cancel"),
        ("12days", "en", "won't the highest card win", "highest-card-does-not-win"),
    ],
)
def test_players_phrasings_find_their_answer_among_the_first_three(faq: FAQ, game: str, lang: str, question: str, answered_by: str) -> None:
    """Typos, compounds, number words, contractions: read on the server, looked up on the phone."""
    assert answered_by in online(faq, [(game, lang, question)])[0]


@pytest.mark.parametrize(
    ("game", "lang", "question"),
    [
        ("auruxxx", "en", "what is the capital of france"),
        ("12days", "en", "asdf qwer"),
        ("12days", "de", "pizza bestellen"),
        ("auruxxx", "de", "?!"),
    ],
)
def test_a_question_the_faq_cannot_answer_gets_nothing(faq: FAQ, game: str, lang: str, question: str) -> None:
    assert online(faq, [(game, lang, question)]) == [[]] == offline(faq, [(game, lang, question)])


def test_the_phones_search_finds_what_the_servers_finds(faq: FAQ) -> None:
    """Entries' questions, players' questions, unanswerable ones and mangled words: the same answers in the same order, or none on both."""
    asked = sample(faq)
    differences = [
        (question, ours, theirs) for question, ours, theirs in zip(asked, online(faq, asked, 10), offline(faq, asked, 10)) if ours != theirs
    ]
    assert not differences, differences[:10]


def test_a_language_is_a_file_its_entries_and_no_code() -> None:
    """Dutch, known only to the tests: its language file and entries make a FAQ that answers Dutch questions, online and offline alike."""
    dutch = FAQ(TEST_LANGUAGE).warm()
    assert languages(TEST_LANGUAGE) == ("nl",) and list(dutch.sections()) == [("auruxxx", "nl")]
    asked = [
        ("auruxxx", "nl", "hoeveel gouden twaalven zijn er"),
        ("auruxxx", "nl", "wat doet de kaartenruil"),
        ("auruxxx", "nl", "wie wint er aan het eind"),
        ("auruxxx", "nl", "het poppetje, wat halveert dat"),
        ("auruxxx", "nl", "wat is de hoofdstad van frankrijk"),
    ]
    found = online(dutch, asked, 1)
    assert found == [["golden-12-in-deck"], ["kartentausch"], ["who-wins"], ["happy-man-card"], []]
    assert offline(dutch, asked, 1) == found


WORD_FILES = sorted(CONTENT.glob("languages/*.toml")) + sorted(
    path for path in CONTENT.glob("*.*.toml") if path.name.count(".") == 2 and "questions" not in path.name and "claims" not in path.name
)
"""Every file with words of its own: each language's, and each game's entries in each language."""


@pytest.mark.parametrize("path", WORD_FILES, ids=lambda path: path.name)
def test_words_for_the_same_thing_are_plain_capped_data(path: Path) -> None:
    """No regular expression per phrasing: a group lists plain words (a phrase is words with spaces), within a cap."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    groups = [group["words"] for group in data.get("synonym", [])]
    if path.parent.name != "languages":
        game, lang, _ = path.name.split(".")
        assert load_words(CONTENT, game, lang)[0] == groups
    assert "phrase" not in data and not any("pattern" in group for group in data.get("synonym", []))
    assert len(groups) <= MAX_GROUPS and sum(map(len, groups)) <= MAX_WORDS
    assert all(re.fullmatch(r"[\w .'’+-]+", word) for group in groups for word in group), [
        w for g in groups for w in g if not re.fullmatch(r"[\w .'’+-]+", w)
    ]
