"""The FAQ's one engine: the server builds each section's index once, and a question is answered by looking its words up in it.

Building (``build``) is the only place that knows a language: it reads every word the entries, their
paraphrases, the players' questions and the language's files use, and writes down the terms each word
stands for (its stem, its group of words for the same thing, its number, the known words a compound
joins), the phrases of several words that are one, and what the section learnt from players'
questions: per feature of a question, how much likelier it is in a question about each entry (a naive
Bayes model, as whole numbers). Answering (``Searcher``, and static/js/faq-offline.js on the phone,
step for step) knows no language: it cuts a question into plain words, looks them up, adds whole
numbers and compares them. The server's answer and the phone's come from the same index by the same
sums of integers, so they cannot differ; tests/faq runs both on the same questions all the same.

A question's features are the terms its words stand for (and each two in a row), the letter trigrams
of its words, and its words as written (and each two in a row): "wie viele" and "who gets" say what is
asked, the trigrams read words the lexicon lacks. An entry is also raised by the one of its questions
(its own, a paraphrase or a player's) that shares most trigrams with the question. A question none of
whose words the index knows, or too few of them, gets no answer.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from faq.content import Entry, Question
from faq.language import Language, words

TERM, PART, GUESS, GRAM, WORD, PAIR = 2, 1, 1, 1, 1, 2
"""How much each feature of a question counts: a word's term, a compound's part, a guess (a typo, a word being typed), a letter
trigram, a word as written or two in a row, two terms in a row."""
SCALE = 10
"""The model's log odds are kept as whole tenths: the phone adds the very same integers."""
SMOOTHING = 0.1
"""What a feature an entry was never taught counts as (Lidstone)."""
LEAST_TEXTS = 4
"""The fewest taught texts a feature must be in to be learnt: rarer ones say more of their writer than of the entry."""
ALIKE = 600
"""How much an entry is raised by the share of trigrams its most alike question has in common with the asked one (Dice), in the model's units."""
MIN_GUESS = 4
"""The shortest word corrected as a typo or completed as one being typed."""
COMPLETIONS = 5
"""The most known words a last word still being typed stands for."""
NOTHING = 150
"""How much the answer "nothing" is raised against the entries, in the model's units: an answer must be clearly likelier than no answer."""
KNOWN_SHARE = (1, 3)
"""A question is answered only if at least this share of its meaningful words tells what it is about (a guessed word half), and one at least."""


SETTINGS = {
    "term": TERM,
    "part": PART,
    "guess": GUESS,
    "gram": GRAM,
    "word": WORD,
    "pair": PAIR,
    "alike": ALIKE,
    "nothing": NOTHING,
    "knownShare": list(KNOWN_SHARE),
    "minGuess": MIN_GUESS,
    "completions": COMPLETIONS,
}
"""The numbers the phone's search uses, shipped in each index: one place says them."""


def trigrams(tokens: Iterable[str]) -> list[str]:
    """Return the letter trigrams of words, each padded with a space at both ends, in order, once each.

    >>> trigrams(["zug", "ab"])
    [' zu', 'zug', 'ug ', ' ab', 'ab ']
    """
    found: dict[str, None] = {}
    for token in tokens:
        padded = f" {token} "
        for at in range(len(padded) - 2):
            found.setdefault(padded[at : at + 3], None)
    return list(found)


def one_letter_less(word: str) -> list[str]:
    """Return every way of dropping one letter of a word: two words one typo apart share one of these, or one is the other."""
    return [word[:at] + word[at + 1 :] for at in range(len(word))]


class Searcher:
    """A question answered from a section's index by lookups and sums of integers, as static/js/faq-offline.js does it."""

    def __init__(self, index: Mapping[str, Any]) -> None:
        self.index = index
        self.lexicon: Mapping[str, list[str]] = index["words"]
        self.keys = sorted(key for key, terms in self.lexicon.items() if terms)
        self.by_deletion: dict[str, list[str]] = defaultdict(list)
        for key in self.keys:
            if len(key) >= MIN_GUESS and not self.lexicon[key][0].isdigit():
                for variant in [key, *one_letter_less(key)]:
                    self.by_deletion[variant].append(key)
        self.telling = set(index["telling"])
        self.lines = [trigrams(line.split()) for line in index["lines"]]
        self.by_gram: dict[str, list[int]] = defaultdict(list)
        for number, grams in enumerate(self.lines):
            for gram in grams:
                self.by_gram[gram].append(number)

    def guesses(self, token: str, last: bool) -> tuple[list[str], int]:
        """Return the terms an unknown word may stand for, and how surely: the known word one typo away, the known words it joins,
        or, said last, the known words it begins (a word still being typed)."""
        if len(token) < MIN_GUESS or token.isdigit():
            return [], 0
        typos = sorted(
            {
                key
                for variant in [token, *one_letter_less(token)]
                for key in self.by_deletion.get(variant, ())
                if typo(token, key) and len(key) + len(token) > 2 * MIN_GUESS
            }
        )
        if typos:
            return [self.lexicon[key][0] for key in typos], TERM
        parts = split(token, self.lexicon, self.index["links"], self.index["part"])
        if parts:
            return parts, TERM
        if not last:
            return [], 0
        return [self.lexicon[key][0] for key in self.keys if key.startswith(token)][:COMPLETIONS], GUESS

    def word(self, tokens: Sequence[str], canon: Sequence[str], at: int) -> tuple[int, list[tuple[str, int]], int]:
        """Return how many words a question's word at ``at`` takes (a phrase takes several), the terms they stand for with how much each
        counts, and how much they tell what the question is about: 2 for a known term of the entries, none for a stopword or an unknown word."""
        phrases = self.index["phrases"]
        size = next((size for size in (3, 2) if at + size <= len(tokens) and " ".join(canon[at : at + size]) in phrases), 0)
        token = tokens[at]
        if size:
            found, sure = [(phrases[" ".join(canon[at : at + size])], TERM)], TERM
        elif token in self.lexicon:
            found, sure = [(term, TERM if place == 0 else PART) for place, term in enumerate(self.lexicon[token])], TERM
        elif token.isdigit() or len(token) == 1:
            found, sure = [(token, TERM)] if token.isdigit() else [], TERM
        else:
            guessed, sure = self.guesses(token, at == len(tokens) - 1)
            found = [(term, GUESS) for term in guessed]
        if sure < TERM or not found:
            return max(size, 1), found, sure if found else 0
        return max(size, 1), found, TERM if any(term in self.telling or term.isdigit() for term, _ in found) else 0

    def read(self, text: str) -> tuple[dict[str, int], list[str], int, int]:
        """Return a question's features, the terms its words stand for, how much of it tells what it is about, and how much it could (2 a word)."""
        tokens = words(text)
        canon = [listed[0] if (listed := self.lexicon.get(token)) and listed[0].isdigit() else token for token in tokens]
        features: dict[str, int] = {}
        terms: list[str] = []
        telling = meaningful = at = 0
        while at < len(tokens):
            size, found, tells = self.word(tokens, canon, at)
            stopword = self.lexicon.get(tokens[at]) == [] and size == 1
            at += size
            if stopword or (not found and len(tokens[at - 1]) == 1):
                continue
            telling, meaningful = telling + tells, meaningful + TERM
            terms += [found[0][0]] if found else []
            for term, much in found:
                features[term] = max(features.get(term, 0), much)
        for first, second in itertools.pairwise(terms):
            features[f"^{first} {second}"] = PAIR
        for gram in trigrams(tokens):
            features["|" + gram] = GRAM
        for token in tokens:
            features["~" + token] = WORD
        for first, second in itertools.pairwise(tokens):
            features[f"~{first} {second}"] = WORD
        return features, terms, telling, meaningful

    def rank(self, text: str) -> tuple[list[tuple[int, int]], list[str]]:
        """Return (score, position) of the entries answering a question, best first, and the terms it looked for; none if it asks nothing the FAQ knows."""
        features, terms, telling, meaningful = self.read(text)
        share, of = KNOWN_SHARE
        if telling < TERM or telling * of < share * meaningful:
            return [], terms
        model, unseen = self.index["model"], self.index["unseen"]
        held = sum(much for name, much in features.items() if name in model)
        scores = [held * weight for weight in unseen]
        for name in sorted(features):
            for place in range(0, len(model.get(name, ())), 2):
                scores[model[name][place]] += features[name] * model[name][place + 1]
        asked = trigrams(words(text))
        if asked:
            shared = Counter(line for gram in asked for line in self.by_gram.get(gram, ()))
            best = [0] * len(scores)
            for line, count in shared.items():
                alike = math.floor(ALIKE * 2 * count / (len(asked) + len(self.lines[line])))
                at = self.index["lineEntries"][line]
                best[at] = max(best[at], alike)
            scores = [score + raise_ for score, raise_ in zip(scores, best)]
        scores[-1] += NOTHING
        ranked = sorted(((score, at) for at, score in enumerate(scores)), key=lambda scored: (-scored[0], scored[1]))
        nothing = len(scores) - 1
        return ([] if ranked[0][1] == nothing else [scored for scored in ranked if scored[1] != nothing]), terms


def typo(word: str, other: str) -> bool:
    """Tell whether two words are one typo apart: one letter wrong, missing or extra, or two neighbours swapped.

    >>> typo("kreuz", "kruez"), typo("topf", "topff"), typo("anna", "kann"), typo("pass", "pass")
    (True, True, False, False)
    """
    if word == other or abs(len(word) - len(other)) > 1:
        return False
    if len(word) != len(other):
        longer, shorter = (word, other) if len(word) > len(other) else (other, word)
        return any(longer[:at] + longer[at + 1 :] == shorter for at in range(len(longer)))
    wrong = [at for at in range(len(word)) if word[at] != other[at]]
    return len(wrong) == 1 or (
        len(wrong) == 2 and wrong[1] == wrong[0] + 1 and word[wrong[0]] == other[wrong[1]] and word[wrong[1]] == other[wrong[0]]
    )


def build(
    language: Language, entries: Sequence[Entry], questions: Iterable[Question], topics: Mapping[str, str], unanswerable: Iterable[str] = ()
) -> dict[str, Any]:
    """Return the index of one game's FAQ in one language: its lexicon, phrases, learnt model, questions to compare, entries and topics.

    The model learns one more answer after the entries: nothing, taught by questions the FAQ cannot answer.
    """
    position = {entry.id: at for at, entry in enumerate(entries)}
    entry_texts = sum(len(texts_of(entry)) for entry in entries)
    taught = [(text, [at], asked) for at, entry in enumerate(entries) for text, asked in texts_of(entry)]
    taught += [(q.q, found, True) for q in questions if (found := [position[i] for i in q.expect if i in position])]
    taught += [(text, [len(entries)], True) for text in unanswerable]
    tokens = {token for text, _, _ in taught for token in words(text)} | set(language.synonyms) | set(language.numbers)
    lexicon: dict[str, list[str]] = {token: [] if token in language.stopwords else [language.term(token)] for token in tokens}
    for text, _, _ in taught:
        for variant in language.spelt(text):
            lexicon.setdefault(variant, [] if variant in language.stopwords else [language.term(variant)])
    own = {token for text, _, _ in taught[:entry_texts] for token in words(text)} | set(language.synonyms) | set(language.numbers)
    guesser = Searcher(
        {"words": {token: lexicon[token] for token in own if token in lexicon}, "lines": [], "telling": [], "links": [], "part": 0}
    )
    for token, terms in lexicon.items():
        if token not in own and terms and len(token) >= MIN_GUESS:
            terms += [term for term in guesser.guesses(token, last=False)[0] if term not in terms]
    if language.compound_links:
        for token, terms in lexicon.items():
            terms += [part for part in split(token, lexicon, language.compound_links, language.compound_part) if part not in terms]
    index: dict[str, Any] = {
        "words": dict(sorted(lexicon.items())),
        "phrases": dict(sorted(language.phrases.items())),
        "links": list(language.compound_links),
        "part": language.compound_part,
        "model": {},
        "unseen": [],
        "lines": [],
        "lineEntries": [],
        "telling": [],
        "settings": SETTINGS,
    }
    return teach(index, taught, len(entries) + 1, entry_texts) | {
        "entries": [{"id": e.id, "question": e.question, "answer": e.answer, "page": e.page, "topic": e.topic} for e in entries],
        "topics": [{"id": topic, "title": title} for topic, title in topics.items()],
    }


def texts_of(entry: Entry) -> list[tuple[str, bool]]:
    """Return what an entry teaches the model, each text saying whether it is asked like a question (its own and its paraphrases),
    to be compared with the question asked, or not (its keywords and names, its answer and its details)."""
    return [
        (entry.question, True),
        *((asked, True) for asked in entry.asked),
        (" ".join((*entry.keywords, *entry.names)), False),
        (entry.answer, False),
        (entry.details, False),
    ]


def split(token: str, lexicon: Mapping[str, list[str]], links: Sequence[str], part: int) -> list[str]:
    """Return the terms of the known words a compound joins, two or three, as the language joins them ("tageskarte": tag, karte), or none.

    >>> split("tageskartenstapel", {"tag": ["tag"], "karte": ["kart"], "stapel": ["stapel"]}, ["", "es", "n"], 3)
    ['tag', 'kart', 'stapel']
    """
    for cut in range(len(token) - part, part - 1, -1):
        head = lexicon.get(token[:cut])
        for link in links if head else ():
            rest = token[cut + len(link) :]
            if not token.startswith(link, cut) or len(rest) < part:
                continue
            if lexicon.get(rest):
                return [head[0], lexicon[rest][0]]  # type: ignore[index]
            tail = split(rest, lexicon, links, part) if len(rest) >= 2 * part else []
            if len(tail) == 2:
                return [head[0], *tail]  # type: ignore[index]
    return []


def teach(index: dict[str, Any], taught: Sequence[tuple[str, Sequence[int], bool]], entries: int, entry_texts: int) -> dict[str, Any]:
    """Return the index with the model taught by texts, each with the positions of the entries it is about, and its questions to compare.

    Every entry is as likely as any other before a question's features are looked at: how many
    paraphrases an entry has, or how many questions were written about it, says how it was written,
    not how often players ask it.
    """
    reader = Searcher(index)
    read = [(reader.read(text), about, asked) for text, about, asked in taught]
    featured = [(features, about) for (features, _, _, _), about, _ in read]
    written = {name for (features, _, _, _), _, _ in read[:entry_texts] for name in features if name[0] not in "|~^"}
    held = Counter(name for features, _ in featured for name in features)
    names = {name for name, texts in held.items() if texts >= LEAST_TEXTS}
    counts: list[dict[str, float]] = [defaultdict(float) for _ in range(entries)]
    for features, about in featured:
        for at in about:
            for name, much in features.items():
                if name in names:
                    counts[at][name] += much
    seen: dict[str, list[int]] = defaultdict(list)
    for at in range(entries):
        for name, count in sorted(counts[at].items()):
            seen[name] += [at, round(SCALE * math.log((count + SMOOTHING) / SMOOTHING))]
    lines = [(" ".join(words(text)), about[0]) for text, about, asked in taught if asked]
    return index | {
        "model": dict(sorted(seen.items())),
        "unseen": [round(SCALE * math.log(SMOOTHING / (sum(counts[at].values()) + SMOOTHING * len(names)))) for at in range(entries)],
        "lines": [line for line, _ in lines],
        "lineEntries": [at for _, at in lines],
        "telling": sorted(written),
    }
