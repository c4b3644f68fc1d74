"""The browser's offline search finds what the server finds: the same questions through both, their top 3 compared.

static/js/faq-offline.js, the very file the FAQ page loads, runs here in node on the index the
server ships (``Index.offline()``); tests/browser/test_faq_offline.py shows it answering in Chromium.
``make faq-eval`` prints the same agreement.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from faq.content import Entry, Question, load, load_questions
from faq.evaluation import questions
from faq.search import Index
from faq.shared import offline_json
from tests.waiting import PATIENCE_SECONDS

HERE = Path(__file__).resolve().parent
RUNNER = HERE / "offline_search.js"
QUESTION_SETS = {"tuning": load_questions, "held-out": lambda: questions(HERE / "heldout.toml")}
"""The players' questions the search learns from, and those it never sees."""
AGREEMENT_REQUIRED = 0.95


@pytest.fixture(scope="module")
def index() -> Index:
    """The FAQ as served: the content's entries, taught by the content's players' questions."""
    entries = load()
    return Index(entries, examples=load_questions(entries=entries))


def offline_search(index: Index, asked: list[dict[str, str]], limit: int = 3) -> subprocess.Popen[str]:
    """Start node on the offline search of the shipped index (as the server sends it, made once per index) for the questions."""
    node = shutil.which("node")
    assert node, "node is needed to run the offline search (the Makefile installs it with npm)"
    search = subprocess.Popen([node, str(RUNNER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert search.stdin is not None
    search.stdin.write(f'{{"index":{offline_json(index)},"asked":{json.dumps(asked)},"limit":{limit}}}')
    search.stdin.close()
    return search


def offline_top(index: Index, asked: list[dict[str, str]], limit: int = 3, search: subprocess.Popen[str] | None = None) -> list[list[str]]:
    """Return the ids the offline search finds for each question, run by node (started already, or now)."""
    search = search or offline_search(index, asked, limit)
    assert search.stdout is not None and search.stderr is not None
    output, problems = search.stdout.read(), search.stderr.read()
    assert search.wait(timeout=PATIENCE_SECONDS * 4) == 0, problems
    found: list[list[str]] = json.loads(output)
    return found


def agreement(index: Index, asked: list[dict[str, str]], limit: int = 3) -> tuple[float, list[str]]:
    """Return the share of questions whose top results are the same, in the same order, and the differences.

    Node searches while the server's search answers here: the two take about as long.
    """
    search = offline_search(index, asked, limit)
    server = [[hit.entry.id for hit in index.search(q["q"], game=q["game"], lang=q["lang"], limit=limit)] for q in asked]
    offline = offline_top(index, asked, limit, search)
    differences = [
        f"{question['game']}/{question['lang']} {question['q']!r}: server {ours}, offline {other}"
        for question, ours, other in zip(asked, server, offline, strict=True)
        if ours != other
    ]
    return 1 - len(differences) / len(asked), differences


@pytest.mark.parametrize("name", QUESTION_SETS)
def test_offline_search_agrees_with_the_server_on_each_question_set(index: Index, name: str) -> None:
    found: list[Question] = QUESTION_SETS[name]()
    asked = [{"game": q.game, "lang": q.lang, "q": q.q} for q in found]
    rate, differences = agreement(index, asked)
    print(f"offline and server top 3 agree on {rate:.1%} of {len(asked)} {name} questions")
    assert rate >= AGREEMENT_REQUIRED, "\n".join(differences)


def misspelt(word: str, rng: random.Random) -> str:
    """Return a word with one letter dropped, added, changed or swapped with its neighbour."""
    at = rng.randrange(len(word))
    kind = rng.randrange(4)
    if kind == 0:
        return word[:at] + word[at + 1 :]
    if kind == 1:
        return word[:at] + rng.choice("aeinorstuäöü") + word[at:]
    if kind == 2:
        return word[:at] + rng.choice("aeilmnorstu") + word[at + 1 :]
    return word[:at] + word[at + 1 : at + 2] + word[at] + word[at + 2 :] if at + 1 < len(word) else word


def test_offline_search_agrees_on_misspelt_half_typed_and_run_together_words(index: Index) -> None:
    """Words from the entries, misspelt, cut off mid-word, run together or shouted, in every section."""
    rng = random.Random(13)
    vocabulary: dict[tuple[str, str], list[str]] = {}
    for entry in index.entries:
        vocabulary.setdefault((entry.game, entry.lang), []).extend(re.findall(r"[\w+-]+", f"{entry.question} {entry.answer}"))
    asked = []
    for _ in range(400):
        game, lang = rng.choice(sorted(vocabulary))
        chosen = [rng.choice(vocabulary[(game, lang)]) for _ in range(rng.randint(1, 5))]
        chosen = [misspelt(w, rng) if len(w) > 2 and rng.random() < 0.4 else w for w in chosen]
        chosen[-1] = chosen[-1][: rng.randint(1, len(chosen[-1]))] if rng.random() < 0.3 else chosen[-1]
        query = rng.choice([" ", " ", "", "-"]).join(chosen)
        asked.append({"game": game, "lang": lang, "q": query.upper() if rng.random() < 0.2 else query})
    rate, differences = agreement(index, asked, limit=10)
    assert rate >= AGREEMENT_REQUIRED, "\n".join(differences)


def test_offline_search_reads_a_number_said_in_two_words_as_one() -> None:
    """ "forty five" is 45 offline too, not a 40 and a 5."""
    entries = [
        Entry(
            id=id,
            game="auruxxx",
            lang="en",
            topic="score",
            question=f"Is {number} a good score?",
            answer="Yes.",
            details="Lowest wins.",
            page="",
            keywords=(),
            controls=(),
        )
        for id, number in (("forty", 40), ("forty-five", 45))
    ]
    asked = [{"game": "auruxxx", "lang": "en", "q": q} for q in ("is forty five a good score", "forty-five points")]
    assert offline_top(Index(entries), asked, limit=1) == [["forty-five"], ["forty-five"]]


def test_offline_search_reads_compounds_diminutives_and_heads_as_the_server(index: Index) -> None:
    """Compounds of three parts, dialect diminutives, feminine forms, unknown modifiers, inseparable prefixes and separable
    verbs' participles, read alike offline."""
    asked = [
        {"game": game, "lang": "de", "q": q}
        for game in ("auruxxx", "12days")
        for q in (
            "goldzwölfstrafe einstellen",
            "holzmännle",
            "was bringt das kärtle",
            "tageskartenstapel in der mitte",
            "siebenköpfige familie",
            "omakartenstapel",
            "verlegt",
            "automatisch",
            "stapelkärtchen",
            "großgruppenvariante",
            "die kartengeberin",
            "mitspielerinnen",
            "abzulegen",
            "eingetragen",
        )
    ]
    rate, differences = agreement(index, asked, limit=10)
    assert rate == 1, "\n".join(differences)


def test_offline_search_reads_a_phrase_after_one_that_only_looks_ahead_as_the_server(index: Index) -> None:
    """ "zwei Dreien und zwei Fünfen" marks several pairs by looking ahead, then each pair at the same place: the browser's
    own replace went on a letter later and lost the first pair's "gleiche"."""
    asked = [
        {"game": "12days", "lang": lang, "q": q}
        for lang, q in (
            ("de", "zwei dreien und zwei fünfen und ne elf"),
            ("de", "zwei fünfen und zwei achten, sonst nix"),
            ("en", "two 3s and two 5s and a 9, who wins"),
            ("en", "two nines and two fours"),
        )
    ]
    rate, differences = agreement(index, asked, limit=10)
    assert rate == 1, "\n".join(differences)
