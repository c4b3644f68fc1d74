"""A language of the FAQ as data: how its questions are read, from ``content/languages/<lang>.toml``.

Everything that differs between languages lives in that file (the stemmer's name, stopwords,
contractions, how numbers are written, how compounds are joined, the everyday words for the
same thing), and everything here reads it the same way for every language. Only the server
reads a language: it turns every word the FAQ knows into the terms it stands for
(``Language.terms``), and the phone looks those words up (faq/index.py).
"""

from __future__ import annotations

import re
import threading
import tomllib
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import Stemmer

WORD = re.compile(r"[a-z0-9]+")
MIN_STEMMED = 3
"""The shortest word a stem is looked for: shorter words are their own term."""


def unmarked(text: str) -> str:
    """Return text lower-cased, ß as ss, without accents or other marks: what the phone does to a question too.

    >>> unmarked("Zwölf Fußbälle, Mrs. Claus")
    'zwolf fussballe, mrs. claus'
    """
    text = unicodedata.normalize("NFKD", text.lower().replace("ß", "ss"))
    return "".join(char for char in text if not unicodedata.category(char).startswith("M"))


def words(text: str) -> list[str]:
    """Return the words of a text as the search compares them: plain letters and digits.

    >>> words("Happy-Man, 2er & Kärtchen!")
    ['happy', 'man', '2er', 'kartchen']
    """
    return WORD.findall(unmarked(text))


class BrokenLanguage(ValueError):
    """Raised with every problem found in a language file."""


@dataclass(frozen=True)
class Language:
    """How one language's questions are read: its stopwords, numbers, compounds and words for the same thing."""

    code: str
    name: str
    stemmer: str
    stopwords: frozenset[str]
    numbers: dict[str, str]
    """Every way of writing a number (a word, a card's name, digits with an ending) with its digits."""
    phrases: dict[str, str]
    """Several words that are one ("won t": not, "happy man": happyman), keyed by their words joined by a space."""
    synonyms: dict[str, str] = field(default_factory=dict)
    """Each word of a group of words for the same thing, with the group's name (its first word)."""
    spellings: tuple[tuple[str, str], ...] = ()
    compound_links: tuple[str, ...] = ()
    compound_part: int = 3
    unanswerable: tuple[str, ...] = ()
    """Questions no entry answers, which teach the search what it cannot answer."""

    @cached_property
    def _stemmer(self) -> Any:
        return Stemmer.Stemmer(self.stemmer)

    @cached_property
    def _stemming(self) -> threading.Lock:
        return threading.Lock()

    def stem(self, word: str) -> str:
        """Return a word's Snowball stem (one word at a time: a stemmer keeps its state while it works)."""
        with self._stemming:
            return str(self._stemmer.stemWord(word))

    def term(self, word: str) -> str:
        """Return the term a plain word stands for: its number, its group's name, or its stem (a group may list either).

        >>> english = Language("en", "English", "english", frozenset(), {"six": "6", "sixes": "6"}, {}, {"draw": "draw", "pick": "draw"})
        >>> english.term("sixes"), english.term("picking"), english.term("halving"), english.term("12")
        ('6', 'draw', 'halv', '12')
        """
        if word in self.numbers:
            return self.numbers[word]
        if word in self.synonyms or word.isdigit() or len(word) < MIN_STEMMED:
            return self.synonyms.get(word, word)
        stem = self.stem(word)
        return self.synonyms.get(stem, stem)

    def with_words(self, groups: Iterable[Sequence[str]], numbers: Mapping[str, int]) -> Language:
        """Return this language with a game's own groups of words, which come first, and its own names of numbers ("Rebhuhn": 1)."""
        counted = self.numbers | {unmarked(word): str(value) for word, value in numbers.items()}
        synonyms, phrases = _grouped(groups, counted, self)
        return replace(self, numbers=counted, phrases=phrases | self.phrases, synonyms=synonyms | self.synonyms)

    def spelt(self, text: str) -> set[str]:
        """Return the other ways players type a text's words without some letters' keys ("Männchen": maennchen)."""
        found = set()
        for letter, written in self.spellings:
            if letter in text.lower():
                found |= set(words(text.lower().replace(letter, written)))
        return found


def _grouped(groups: Iterable[Sequence[str]], numbers: Mapping[str, str], language: Language) -> tuple[dict[str, str], dict[str, str]]:
    """Return the words of groups with their group's name, and the phrases among them; each word and its stem belong to the first group naming it."""
    synonyms: dict[str, str] = {}
    phrases: dict[str, str] = {}
    listed = [[" ".join(numbers.get(w, w) for w in words(word)) for word in group] for group in groups]
    for group in listed:
        name = group[0].replace(" ", "")
        for word in group:
            (phrases if " " in word else synonyms).setdefault(word, name)
    for group in listed:
        for word in group:
            if " " not in word and not word.isdigit() and len(word) >= MIN_STEMMED:
                synonyms.setdefault(language.stem(word), group[0].replace(" ", ""))
    return synonyms, phrases


def number_words(data: dict[str, Any]) -> dict[str, str]:
    """Return every way a language's number data writes a number, with its digits.

    >>> found = number_words({"words": ["null", "eins", "zwei"], "tens": ["zwanzig"], "tens_and_units": "{unit}und{ten}",
    ...     "unit_in_tens": {"1": "ein"}, "card_endings": ["er"], "digit_endings": ["er"], "said": {"zwo": 2}})
    >>> found["zweier"], found["einundzwanzig"], found["12er"], found["zwo"]
    ('2', '21', '12', '2')
    """
    found: dict[str, str] = {}
    cardinals = {unmarked(word): number for number, word in enumerate(data.get("words", []))}
    cardinals |= {unmarked(word): 10 * (2 + at) for at, word in enumerate(data.get("tens", []))}
    for word, number in cardinals.items():
        for form in (word, *(word + ending for ending in data.get("card_endings", []))):
            found.setdefault(form, str(number))
    for number in range(100):
        for form in (str(number), *(f"{number}{ending}" for ending in data.get("digit_endings", []))):
            found.setdefault(form, str(number))
    units = {number: unmarked(data.get("unit_in_tens", {}).get(str(number), word)) for word, number in cardinals.items() if 0 < number < 10}
    tens = {number: word for word, number in cardinals.items() if number >= 20 and number % 10 == 0}
    pattern = data.get("tens_and_units")
    if pattern:
        for ten, ten_word in tens.items():
            for unit, unit_word in units.items():
                found.setdefault(" ".join(words(pattern.format(ten=ten_word, unit=unit_word))), str(ten + unit))
    for number, stem in enumerate(data.get("ordinals", []), start=2):
        for ending in data.get("ordinal_endings", [""]) if stem else ():
            found.setdefault(unmarked(stem + ending), str(number))
    for word, number in data.get("said", {}).items():
        found[unmarked(word)] = str(number)
    return found


def load_language(path: Path) -> Language:
    """Return the language of one file, or raise BrokenLanguage saying what is wrong with it."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise BrokenLanguage(f"{path.name}: {error}") from error
    problems = [f"{path.name}: {key} is needed" for key in ("name", "stemmer", "stopwords", "numbers") if key not in data]
    if data.get("stemmer") not in Stemmer.algorithms():
        problems.append(f"{path.name}: stemmer must be one of Snowball's: {', '.join(Stemmer.algorithms())}")
    groups = [group.get("words", []) for group in data.get("synonym", [])]
    if not all(
        isinstance(group, list) and len(group) > 1 and all(isinstance(word, str) and words(word) for word in group) for group in groups
    ):
        problems.append(f"{path.name}: every [[synonym]] lists two words at least")
    if problems:
        raise BrokenLanguage("\n".join(problems))
    numbers = number_words(data["numbers"])
    bare = Language(path.stem, data["name"], data["stemmer"], frozenset(words(data["stopwords"])), numbers, {})
    synonyms, phrases = _grouped(groups, numbers, bare)
    phrases = {" ".join(words(key)): value for key, value in data.get("phrases", {}).items()} | phrases
    phrases |= {key: value for key, value in numbers.items() if " " in key}
    return replace(
        bare,
        numbers={key: value for key, value in numbers.items() if " " not in key},
        phrases=phrases,
        synonyms=synonyms,
        spellings=tuple(data.get("spellings", {}).items()),
        compound_links=tuple(data.get("compound_links", ())),
        compound_part=int(data.get("compound_part", 3)),
        unanswerable=tuple(line.strip() for line in data.get("unanswerable", "").splitlines() if line.strip()),
    )


def load_languages(folder: Path) -> dict[str, Language]:
    """Return every language of a content folder (``languages/<lang>.toml``), by its code."""
    return {path.stem: load_language(path) for path in sorted((folder / "languages").glob("*.toml"))}
