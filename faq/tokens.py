"""The one definition of the FAQ's words: how a text becomes the folded words the search compares.

The server's index and the browser's offline search both fold text this way, from the same
data (``Folding.offline``): case, accents and ß folded, German ae/oe/ue as a/o/u (phones without
umlaut keys), number words and card names as digits (faq.numerals; "forty five" is 45), and the phrases of one thing
joined into one word (Happy-Man, Happyman, Happy Man). Words are then cut to their Snowball stem,
on the server only: the browser looks every word up in the lexicon the server built.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any

import Stemmer

LANGUAGE_NAMES = {"de": "german", "en": "english"}
"""The Snowball algorithm of each FAQ language."""

SPELLINGS: dict[str, tuple[tuple[str, str], ...]] = {
    "de": (("ae", "a"), ("oe", "o"), ("ue", "u")),
    "en": (),
}
"""Spellings of one letter, per language: German writes ä as ae without umlaut keys (so does Snowball's German stemmer)."""

WORD = re.compile(r"[a-z0-9]+")
EDGE = r"\b"
"""Where most phrases begin: at the edge of a word."""
TENS_APART = {"de": False, "en": True}
"""Whether a language writes 21 to 99 in two words ("forty five", "forty-five"; German "fünfundvierzig" is one)."""
TENS_AND_UNIT = re.compile(r"\b([2-9])0[\s-]+([1-9])\b")
"""Tens and a unit, as digits, that make one number ("40 5" is 45), where a language writes numbers apart."""


def plain(text: str, lang: str) -> str:
    """Return text lower-cased, without accents, ß as ss and the language's spellings of one letter unified.

    >>> plain("Zwölf Fußbälle, Maerchen", "de"), plain("Blue", "de"), plain("Blue", "en")
    ('zwolf fussballe, marchen', 'blu', 'blue')
    """
    text = unicodedata.normalize("NFKD", text.lower().replace("ß", "ss"))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    for spelling, letter in SPELLINGS[lang]:
        text = text.replace(spelling, letter)
    return text


def alternatives(pattern: str) -> list[str]:
    """Return the alternatives a regular expression is made of at its top level (outside groups and character classes).

    >>> alternatives(r"\\bday[\\s-]*cards?\\b|\\bsanta(?:'|’)?s\\b|[|]")
    ['\\\\bday[\\\\s-]*cards?\\\\b', "\\\\bsanta(?:'|’)?s\\\\b", '[|]']
    """
    found, start, depth, in_class, escaped = [], 0, 0, False, False
    for at, char in enumerate(pattern):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            found.append(pattern[start:at])
            start = at + 1
    return [*found, pattern[start:]]


@dataclass(frozen=True)
class Folding:
    """How one game's FAQ in one language folds a text into words: its number words and its phrases."""

    lang: str
    numbers: Mapping[str, str] = field(default_factory=dict)
    """Plain number words and card names, with the digits each stands for."""
    phrases: tuple[tuple[str, str], ...] = ()
    """Regular expressions over plain text (read alike by Python and JavaScript), each with the word it becomes."""

    @cached_property
    def _branches(self) -> tuple[tuple[str, int], ...]:
        """Every phrase's alternatives, in order, each with the phrase it belongs to."""
        return tuple((branch, at) for at, (pattern, _) in enumerate(self.phrases) for branch in alternatives(pattern))

    @cached_property
    def _phrase(self) -> re.Pattern[str] | None:
        """All phrases' alternatives as one pattern: where several match, the leftmost, then the first listed, wins, as
        in the browser's one pattern of the phrases.

        Neighbouring alternatives that all begin at a word's edge share one ``\\b``, and no alternative is a group of
        its own: the regular expression engine skips at once an alternative whose first letter is not the text's, but
        enters every group to find out. Tried one by one at every word, a group each, the alternatives were most of
        the time an index took to build and a question took to fold; which phrase matched is found afterwards.
        """
        if not self.phrases:
            return None
        runs: list[tuple[bool, list[str]]] = []
        for branch, _ in self._branches:
            edge = branch.startswith(EDGE)
            bare = branch.removeprefix(EDGE) if edge else branch
            if runs and runs[-1][0] == edge:
                runs[-1][1].append(bare)
            else:
                runs.append((edge, [bare]))
        return re.compile("|".join(EDGE + "(?:" + "|".join(bare) + ")" if edge else "|".join(bare) for edge, bare in runs))

    @cached_property
    def _each_phrase(self) -> tuple[tuple[re.Pattern[str], str], ...]:
        """Every phrase as a pattern of its own, in order, with the word it becomes."""
        return tuple((re.compile(pattern), word) for pattern, word in self.phrases)

    def _joined(self, phrase: re.Pattern[str], text: str) -> str:
        """Return text with each phrase the whole pattern finds replaced by its word, as the browser's fold does.

        Which phrase matched is the first that matches where the whole pattern did. A phrase that only looks ahead
        matches nothing and leaves the place to a phrase that holds letters ("zwei Dreien" is several equal threes):
        after an empty match, the first phrase whose match there holds letters is taken too, and the search goes on
        after it, or one letter later. The browser follows the same steps (``joinPhrases`` in faq-offline.js), since
        neither Python's ``sub`` nor JavaScript's ``replace`` says the same on its own.

        >>> Folding("en", phrases=((r"\\b(?=2 [0-9])", "several "), (r"\\b2 (?=[0-9])", "same "))).fold("2 5 and 2 8")
        'several same 5 and several same 8'
        >>> Folding("en", phrases=((r"\\b(?=2 [0-9])", "several "),)).fold("2 5")
        'several 2 5'
        """
        pieces, copied, at = [], 0, 0
        while at <= len(text) and (found := phrase.search(text, at)):
            start, end = found.span()
            pieces += [text[copied:start], next(word for pattern, word in self._each_phrase if pattern.match(text, start))]
            copied = at = end
            if start == end:
                held = next(
                    (
                        (matched.end(), word)
                        for pattern, word in self._each_phrase
                        if (matched := pattern.match(text, start)) and matched.end() > start
                    ),
                    None,
                )
                if held is None:
                    at = start + 1
                else:
                    pieces.append(held[1])
                    copied = at = held[0]
        return "".join(pieces) + text[copied:]

    def fold(self, text: str) -> str:
        """Return text plain, its numbers as digits and its phrases joined.

        >>> Folding("de", {"drei": "3"}, ((r"happy[\\s-]*m[ae]n+", "happyman"),)).fold("Drei für den Happy Man?")
        '3 fur den happyman?'
        >>> Folding("en", {"forty": "40", "five": "5"}).fold("forty-five, forty five; 40, 5")
        '45, 45; 40, 5'
        """
        text = WORD.sub(lambda word: self.numbers.get(word.group(), word.group()), plain(text, self.lang))
        if TENS_APART[self.lang]:
            text = TENS_AND_UNIT.sub(r"\1\2", text)
        if self._phrase is not None:
            text = self._joined(self._phrase, text)
        return text

    def words(self, text: str) -> list[str]:
        """Return the folded words of a text."""
        return WORD.findall(self.fold(text))

    def offline(self) -> dict[str, Any]:
        """Return what the browser needs to fold a query the same way."""
        return {
            "spellings": [list(pair) for pair in SPELLINGS[self.lang]],
            "numbers": dict(self.numbers),
            "tensApart": TENS_APART[self.lang],
            "phrases": [list(pair) for pair in self.phrases],
        }


_stemmers = {lang: Stemmer.Stemmer(name) for lang, name in LANGUAGE_NAMES.items()}
_stemming = threading.Lock()


@cache
def stem(word: str, lang: str) -> str:
    """Return the Snowball stem of a folded word in a language.

    >>> stem("beendet", "de"), stem("halbieren", "de"), stem("passen", "de"), stem("golden12", "de")
    ('beend', 'halbi', 'pass', 'golden12')
    >>> stem("halving", "en"), stem("played", "en"), stem("blue", "en")
    ('halv', 'play', 'blue')
    """
    with _stemming:  # a Snowball stemmer keeps its state while it works: one word at a time
        return str(_stemmers[lang].stemWord(word))
