"""Finding the FAQ entry that answers a question asked the way people ask at the table.

Each game's FAQ in each language is a section: its entries as tokens (faq.tokens: Snowball
stems, a synonym group as one token), and a lexicon of every word its entries, keywords and
synonyms use, each with the token it is looked up by. A query's words are resolved onto that
lexicon: a known word by lookup; an unknown one by the tokens it begins (a word still being
typed), the known word it extends by an ending, the known words it is compounded of, and the
known words one typo away (RapidFuzz). In-memory SQLite FTS5 tables rank the entries with
bm25, a matching question above a passing mention.

The browser's offline search (static/js/faq-offline.js) gets the same tokens and lexicon from
``Index.offline()`` and resolves and ranks the same way, so both find the same answers.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape
from rapidfuzz import process
from rapidfuzz.distance import Indel

from faq.content import Entry
from faq.tokens import PHRASES, SPELLINGS, SYNONYMS, meaningful, stem, stopwords, term, tokens, words

COLUMNS = ("question", "keywords", "answer", "details", "parts")
WEIGHTS = (4.0, 3.0, 2.0, 1.0, 1.0)
"""Weights of each column's bm25: question, keywords, answer, details and split compound parts."""
MIN_TYPO_LENGTH = 4
"""Shorter words are never corrected: "ner" is colloquial "einer", not a typo of "er"."""
MAX_TYPO_DISTANCE = 2
"""Indel distance of one letter wrong, swapped, missing or extra (a wrong or swapped letter is one out, one in)."""
MIN_STEM_LENGTH = 4
"""The shortest known word an unknown longer word may be cut back to."""
MAX_ENDING = 3
"""The most letters cut from an unknown word to reach a known one ("rausgehn" to "rausgeh")."""
MIN_PART = 3
"""The shortest part of a compound word."""
PREFIX = "*"
"""Marks a term that matches every token beginning with it (a word still being typed); other terms match a token exactly."""


def matches(token: str, term: str) -> bool:
    """Tell whether an index token is what a term looks for.

    >>> matches("kart", "kart"), matches("kartentausch", "kart"), matches("kartentausch", "kartent*")
    (True, False, True)
    """
    return token.startswith(term[:-1]) if term.endswith(PREFIX) else token == term


def near(word: str, other: str) -> bool:
    """Tell whether two words are one typo apart: at most one letter wrong, swapped, missing or extra.

    That is an Indel distance of at most 2 between words whose lengths differ by at most one,
    or, as the browser checks it, words that become equal after dropping one letter from each.

    >>> near("hapyman", "happyman"), near("bonsu", "bonus"), near("swab", "swap"), near("card", "kart")
    (True, True, True, False)
    """
    return abs(len(word) - len(other)) <= 1 and Indel.distance(word, other) <= MAX_TYPO_DISTANCE


@dataclass(frozen=True)
class Hit:
    """An entry that answers a query, with its rank and the stems that matched (for highlighting)."""

    entry: Entry
    score: float
    terms: frozenset[str]

    def highlight(self, text: str) -> Markup:
        """Return text escaped for HTML with the words that matched the query marked."""
        out: list[str] = []
        for piece in re.split(r"(\w[\w-]*)", text):
            found = tokens(piece, self.entry.lang)
            if piece and found and any(matches(token, term) for term in self.terms for token in found):
                out.append(f"<mark>{escape(piece)}</mark>")
            else:
                out.append(str(escape(piece)))
        return Markup("".join(out))


class Section:
    """The FAQ of one game in one language: each entry's tokens per column, and the words a query may use."""

    def __init__(self, game: str, lang: str, entries: Iterable[Entry]) -> None:
        self.game = game
        self.lang = lang
        self.entries = list(entries)
        texts = [(e.question, " ".join(e.keywords), e.answer, e.details) for e in self.entries]
        written = [text for e in self.entries for text in (e.question, *e.keywords, e.answer, e.details)]
        content = {w for text in written for w in words(text, lang) if meaningful(w, lang)}
        self.columns = [
            [tokens(column, lang) for column in text]
            + [[t for w in words(" ".join(text), lang) for part in self._compound_parts(w, content) for t in tokens(part, lang)]]
            for text in texts
        ]
        self.tokens = sorted({token for entry in self.columns for column in entry for token in column})
        synonyms = {w for group in SYNONYMS for synonym in group for w in words(synonym, lang)}
        used = sorted(content | synonyms)
        self.lexicon = {stem(w, lang): term(w, lang) for w in used} | {w: term(w, lang) for w in used}
        """Every word a query may use, with the token it is looked up by: the entries' words, the synonyms, and their stems."""
        self._keys = sorted(self.lexicon)

    @staticmethod
    def _compound_parts(word: str, known: Container[str]) -> list[str]:
        """Return the two known words a long compound is made of (Handkarten: hand, karten), if any."""
        if len(word) < 2 * MIN_PART + 1:
            return []
        for cut in range(MIN_PART, len(word) - MIN_PART + 1):
            head, tail = word[:cut], word[cut:]
            if head in known and tail.startswith("s") and tail[1:] in known:
                tail = tail[1:]
            if head in known and tail in known:
                return [head, tail]
        return []

    def compound(self, word: str) -> set[str]:
        """Return the terms of the parts of a compound nobody here wrote: a known word, or the start of one, and a known word.

        "Holzmännchen" is the start of "Holzfigur" and "Männchen"; "Kartenanzahl" is "Karten" and "Anzahl".
        """
        for cut in range(MIN_PART, len(word) - MIN_PART + 1):
            head, tail = word[:cut], word[cut:]
            if tail in self.lexicon and head in self.lexicon:
                return {self.lexicon[head], self.lexicon[tail]}
            if tail in self.lexicon and len(head) >= MIN_STEM_LENGTH and self.has_prefix(head):
                return {head + PREFIX, self.lexicon[tail]}
        return set()

    def has_prefix(self, word: str) -> bool:
        """Tell whether some index token begins with a word (the player may still be typing it)."""
        at = bisect_left(self.tokens, word)
        return at < len(self.tokens) and self.tokens[at].startswith(word)

    def known(self, word: str) -> bool:
        """Tell whether a word means something here as it stands."""
        return word in self.lexicon or self.has_prefix(word)

    @lru_cache(maxsize=4096)
    def typo_of(self, word: str) -> tuple[str, ...]:
        """Return the lexicon's words one typo away from a word."""
        if len(word) < MIN_TYPO_LENGTH:
            return ()
        found = process.extract(word, self._keys, scorer=Indel.distance, score_cutoff=MAX_TYPO_DISTANCE, limit=None)
        return tuple(sorted(key for key, _, _ in found if near(word, key)))

    def resolve(self, word: str) -> frozenset[str]:
        """Return the terms that stand for one query word.

        A known word stands for its token. An unknown word that begins an index token may still
        be being typed: it stands for every token it begins and for the known words one letter
        longer ("weihnachtsman" begins "Weihnachtsmann", which means Santa). Any other unknown
        word stands for the known word it extends by an ending, the known words it is compounded
        of, and the known words one typo away.
        """
        if word in self.lexicon:
            return frozenset({self.lexicon[word]})
        if self.has_prefix(word):
            return frozenset({word + PREFIX} | {self.lexicon[other] for other in self.typo_of(word) if other.startswith(word)})
        terms = {word}
        for cut in range(len(word) - 1, max(MIN_STEM_LENGTH, len(word) - MAX_ENDING) - 1, -1):
            if word[:cut] in self.lexicon:
                terms.add(self.lexicon[word[:cut]])
                break
        terms |= self.compound(word)
        terms |= {self.lexicon[other] for other in self.typo_of(word)}
        return frozenset(terms)

    def joined(self, asked: Sequence[str]) -> list[str]:
        """Return the query's words with two neighbours joined where together they make a known word.

        Players split compounds ("Karten Tausch") and misspell split names ("hapy man").
        """
        out: list[str] = []
        at = 0
        while at < len(asked):
            if at + 1 < len(asked):
                pair = asked[at] + asked[at + 1]
                unknown = not self.known(asked[at]) or not self.known(asked[at + 1])
                worth = meaningful(asked[at], self.lang) or meaningful(asked[at + 1], self.lang)
                if worth and (pair in self.lexicon or (unknown and self.typo_of(pair))):
                    out.append(pair)
                    at += 2
                    continue
            out.append(asked[at])
            at += 1
        return out

    def groups(self, query: str) -> list[frozenset[str]]:
        """Return, for each meaningful word of a query, the terms that stand for it."""
        found: list[frozenset[str]] = []
        for word in self.joined(words(query, self.lang)):
            if not meaningful(word, self.lang):
                continue
            group = self.resolve(word)
            if group not in found:
                found.append(group)
        return found

    def coverage(self, position: int, groups: list[frozenset[str]]) -> float:
        """Return the share of query words the entry's question and keywords contain: several words matching beats one.

        Synonyms of one word count once, so an entry listing many of them is not favoured.
        """
        own = self.columns[position][0] + self.columns[position][1]
        return sum(1 for group in groups if any(matches(t, term) for term in group for t in own)) / len(groups)

    def offline(self) -> dict[str, Any]:
        """Return what the browser needs to search this section the same way without a network."""
        return {
            "game": self.game,
            "lang": self.lang,
            "spellings": [list(pair) for pair in SPELLINGS[self.lang]],
            "stopwords": sorted(stopwords(self.lang)),
            "lexicon": self.lexicon,
        }


class Index:
    """One FTS5 table per column of every section's entries, in process memory: quick, and the same on every database.

    A table per column gives each column its own bm25 length normalisation, so a long
    explanation does not bury a question that matches. The sections share the tables, so
    bm25 weighs a word by how rare it is in the whole FAQ: a word in every entry of one small
    section still counts a little, not nothing. A search reads only its own section's rows.

    One connection serves all threads of a process, one query at a time (a query takes
    milliseconds), so threaded servers share it safely.
    """

    def __init__(self, entries: Iterable[Entry]) -> None:
        grouped: dict[tuple[str, str], list[Entry]] = defaultdict(list)
        for entry in entries:
            grouped[(entry.game, entry.lang)].append(entry)
        self.sections = {key: Section(*key, found) for key, found in grouped.items()}
        self.entries = [entry for section in self.sections.values() for entry in section.entries]
        self._first_row: dict[tuple[str, str], int] = {}
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        self._lock = threading.Lock()
        for column in COLUMNS:
            self.db.execute(f"CREATE VIRTUAL TABLE {column} USING fts5(text, tokenize='unicode61')")
        first = 0
        for key, section in self.sections.items():
            self._first_row[key] = first
            for number, column in enumerate(COLUMNS):
                self.db.executemany(
                    f"INSERT INTO {column}(rowid, text) VALUES (?, ?)",
                    [(first + position, " ".join(columns[number])) for position, columns in enumerate(section.columns)],
                )
            first += len(section.entries)
        self.db.commit()

    def groups(self, query: str, *, game: str, lang: str) -> list[frozenset[str]]:
        """Return, for each meaningful word of a query, the terms that stand for it in one game and language."""
        section = self.sections.get((game, lang))
        return section.groups(query) if section else []

    def terms(self, query: str, *, game: str, lang: str) -> frozenset[str]:
        """Return every term a query looks for in one game and language."""
        return frozenset(term for group in self.groups(query, game=game, lang=lang) for term in group)

    def search(self, query: str, *, game: str, lang: str, limit: int = 10) -> list[Hit]:
        """Return the entries of one game and language that answer a query, best first.

        Each column's bm25, weighted, ranks them, raised by the share of query words their
        question and keywords hold; equal scores keep the order of the FAQ file.
        """
        section = self.sections.get((game, lang))
        if section is None:
            return []
        groups = section.groups(query)
        terms = frozenset(term for group in groups for term in group)
        if not terms:
            return []
        match = " OR ".join(f'"{term[:-1]}"*' if term.endswith(PREFIX) else f'"{term}"' for term in sorted(terms))
        first = self._first_row[(game, lang)]
        scores: dict[int, float] = defaultdict(float)
        with self._lock:
            for weight, column in zip(WEIGHTS, COLUMNS):
                for position, rank in self.db.execute(
                    f"SELECT rowid - ?, bm25({column}) FROM {column} WHERE {column} MATCH ? AND rowid >= ? AND rowid < ?",
                    (first, match, first, first + len(section.entries)),
                ):
                    scores[position] += weight * -rank
        ranked = sorted(
            ((score * (1 + section.coverage(position, groups)), position) for position, score in scores.items()),
            key=lambda scored: (-scored[0], scored[1]),
        )
        return [Hit(entry=section.entries[position], score=score, terms=terms) for score, position in ranked[:limit]]

    def offline(self) -> dict[str, Any]:
        """Return the index for the browser: every entry's tokens in table order, each section's lexicon, and the rules.

        The browser folds a query with the same phrases and spellings, resolves its words onto
        the same lexicon and ranks with the same bm25 as FTS5 does, so offline answers match.
        """
        return {
            "entries": [
                {"id": e.id, "game": e.game, "lang": e.lang, "question": e.question, "answer": e.answer, "page": e.page,
                 "tokens": [" ".join(column) for column in section.columns[position]]}
                for section in self.sections.values()
                for position, e in enumerate(section.entries)
            ],
            "sections": [section.offline() for section in self.sections.values()],
            "phrases": [list(pair) for pair in PHRASES],
            "weights": list(WEIGHTS),
            "limits": {"minTypoLength": MIN_TYPO_LENGTH, "minStemLength": MIN_STEM_LENGTH, "maxEnding": MAX_ENDING,
                       "minPart": MIN_PART},
        }
