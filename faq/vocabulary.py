"""The words the FAQ understands: the shared words of any card table, and each game's own.

``content/words.toml`` holds what is true of every game: the stopwords, and the everyday words
for drawing, laying, winning or a card. Each game's ``content/<game>.words.toml`` holds its own
glossary, written from its rules: the everyday words for its terms (Santa = Weihnachtsmann =
Nikolaus; Happy-Man = Figur = Männchen) and the phrases that are one thing (Happy Man, Golden 12).
A glossary's words may come from either language, since players mix them. A game's words win
over the shared ones, so "Runde" can be a day in one game and a round in another.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Container, Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from faq.numerals import number_words
from faq.tokens import Folding, plain, stem

SHARED = "words.toml"
VERB_ENDINGS = {"de": ("test", "tet", "ten", "te", "st", "et", "t"), "en": ()}
"""The endings of a German verb's forms that Snowball's German stemmer keeps (spielt, legst, zählte);
English's stemmer cuts its own (plays, played, playing)."""
PARTICIPLE = "ge"
MIN_PARTICIPLE = 6
"""The shortest participle whose "ge" is cut ("gelegt", not "geht")."""
MIN_ROOT = 3
"""The shortest root a verb ending is cut back to."""
SEPARABLE = {
    "de": (
        "ab",
        "an",
        "auf",
        "aus",
        "durch",
        "ein",
        "los",
        "mit",
        "nach",
        "raus",
        "rein",
        "um",
        "vor",
        "weg",
        "weiter",
        "zu",
        "zuruck",
        "zusammen",
        "hin",
        "her",
        "drauf",
        "druber",
        "ruber",
        "runter",
        "rauf",
        "rum",
        "hoch",
        "dazu",
        "dran",
    ),
    "en": (),
}
"""German's separable verb particles, those of the table's talk too ("leg sie drauf", "schieb sie rüber", "runtergelegt"):
"austeilen", "teilt ... aus", "ausgeteilt", "auszuteilen"."""
INFIXES = ("ge", "zu")
"""What German writes between a separable verb's particle and the verb in its participle and its infinitive with zu:
"ein-ge-tragen", "ab-zu-legen"."""


class BrokenVocabulary(ValueError):
    """Raised with every problem found in the vocabulary files."""


@dataclass(frozen=True)
class Vocabulary:
    """The words one game's FAQ understands in one language: how its text folds, what says nothing, what means the same."""

    game: str
    lang: str
    folding: Folding
    stopwords: frozenset[str]
    groups: tuple[tuple[str, ...], ...]
    """Folded words that mean the same, the first naming the group; the game's own groups first."""

    def meaningful(self, word: str) -> bool:
        """Tell whether a folded word can say which answer is meant: no stopword, no lone letter."""
        return word not in self.stopwords and (len(word) > 1 or word.isdigit())

    @cached_property
    def _concepts(self) -> dict[str, str]:
        """Every glossary word and its stem, with the group it belongs to: a word a group lists belongs to it, whatever other
        group's word shares its stem ("ander" is listed for changing a setting though "andere", other, stems to it)."""
        found: dict[str, str] = {}
        for group in self.groups:
            for word in group:
                found.setdefault(word, group[0])
        for group in self.groups:
            for word in group:
                found.setdefault(stem(word, self.lang), group[0])
        return found

    def term(self, word: str, known: Container[str] = ()) -> str:
        """Return the term a folded word is looked up by: its group's name, the term of the verb it is a form of, or else its own stem.

        A digit is its own term, so "6er" and "Sechsen" (both folded to 6) find a 6.
        """
        if word in self._concepts:
            return self._concepts[word]
        own = stem(word, self.lang)
        if own in self._concepts:
            return self._concepts[own]
        verb = self.infinitive(word, known)
        return own if verb is None else self.term(verb)

    def infinitive(self, word: str, known: Container[str]) -> str | None:
        """Return the infinitive a verb form belongs to where the stemmer keeps the form's ending, if that infinitive is a known word or a glossary word.

        Snowball's German stemmer cuts "spielen" to "spiel" but leaves "spielt", "gespielt" and
        "legst" whole, so a verb's forms were different words.

        >>> vocabulary = Vocabulary("x", "de", Folding("de"), frozenset(), (("ablegen", "legen", "spielen"),))
        >>> vocabulary.infinitive("gespielt", ()), vocabulary.infinitive("liegt", {"liegen"}), vocabulary.infinitive("nacht", ())
        ('spielen', 'liegen', None)
        """
        bares = [word[len(PARTICIPLE) :] for participle in (PARTICIPLE,) if word.startswith(participle) and len(word) > MIN_PARTICIPLE]
        bares += self.unparticipled(word)
        for bare in bares:
            if bare in known or bare in self._concepts:
                return bare
        for bare in (word, *bares):
            for ending in VERB_ENDINGS[self.lang]:
                root = bare[: -len(ending)]
                if bare.endswith(ending) and len(root) >= MIN_ROOT:
                    for form in (root + "en", root + "n"):
                        if form != word and (form in known or form in self._concepts):
                            return form
        return None

    def unparticipled(self, word: str) -> list[str]:
        """Return a separable verb's form without the "ge" or "zu" after its particle: the verb's own form, or its infinitive.

        "eingetragen" is "eintragen", "abzulegen" "ablegen", "aufgedeckt" "aufdeckt" (the verb's form, which
        Vocabulary.infinitive reads): the stemmer keeps the infix, so these were words of their own.

        >>> Vocabulary("x", "de", Folding("de"), frozenset(), ()).unparticipled("abzulegen"), Vocabulary("x", "en", Folding("en"), frozenset(), ()).unparticipled("abzulegen")
        (['ablegen'], [])
        """
        return [
            particle + word[len(particle) + len(infix) :]
            for particle in SEPARABLE[self.lang]
            for infix in INFIXES
            if word.startswith(particle + infix) and len(word) - len(particle) - len(infix) >= MIN_ROOT
        ]

    def terms(self, text: str) -> list[str]:
        """Return the terms of a text's meaningful words, in order."""
        return [self.term(word) for word in self.folding.words(text) if self.meaningful(word)]


def _words_of(raw: Any, place: str, problems: list[str]) -> list[list[str]]:
    """Return the word lists of a file's ``[[glossary]]`` tables, noting what is malformed."""
    found = []
    for index, group in enumerate(raw if isinstance(raw, list) else []):
        words = group.get("words") if isinstance(group, dict) else None
        if not isinstance(words, list) or len(words) < 2 or not all(isinstance(w, str) and w.strip() for w in words):
            problems.append(f"{place}: glossary[{index}]: at least two words")
            continue
        found.append(words)
    return found


def _phrases_of(raw: Any, place: str, problems: list[str]) -> list[tuple[str, str]]:
    """Return a file's ``[[phrase]]`` tables as (pattern, word), noting what is malformed or does not compile."""
    found = []
    for index, phrase in enumerate(raw if isinstance(raw, list) else []):
        pattern = phrase.get("pattern") if isinstance(phrase, dict) else None
        means = phrase.get("means") if isinstance(phrase, dict) else None
        if not isinstance(pattern, str) or not isinstance(means, str) or not re.fullmatch(r"[a-z0-9 ]+", means):
            problems.append(f"{place}: phrase[{index}]: a pattern and the plain words it means")
            continue
        try:
            groups = re.compile(pattern).groups
        except re.error as error:
            problems.append(f"{place}: phrase[{index}]: {error}")
            continue
        if groups:
            problems.append(f"{place}: phrase[{index}]: groups must not capture, write (?:...)")
            continue
        found.append((pattern, means))
    return found


def _read(path: Path, problems: list[str]) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        problems.append(f"{path.name}: {error}")
        return {}


def build(game: str, lang: str, shared: dict[str, Any], own: dict[str, Any], problems: list[str]) -> Vocabulary:
    """Return one game's vocabulary in one language from the shared words and its own file."""
    fold_plain = lambda text: plain(text, lang)  # noqa: E731
    numbers = number_words(lang, fold_plain)
    groups_raw = _words_of(own.get("glossary"), f"{game}.words.toml", problems) + _words_of(shared.get("glossary"), SHARED, problems)
    written = [*_phrases_of(own.get("phrase"), f"{game}.words.toml", problems)]
    numbered = Folding(lang, numbers)
    spoken: list[tuple[str, str]] = []
    for words in groups_raw:
        name = numbered.fold(words[0])
        for word in words[1:]:
            folded = numbered.fold(word)
            parts = [re.escape(part) for part in re.split(r"[\s.-]+", folded.strip()) if part]
            if len(parts) > 1:
                spoken.append((r"\b" + r"[\s.-]*".join(parts) + r"\b", name))
    phrases = (*written, *sorted(spoken, key=lambda phrase: -len(phrase[0])), *_phrases_of(shared.get("phrase"), SHARED, problems))
    folding = Folding(lang, numbers, phrases)
    groups = tuple(tuple(dict.fromkeys(w for word in words for w in folding.words(word))) for words in groups_raw)
    stopwords = frozenset(w for word in shared.get("stopwords", "").split() for w in folding.words(word))
    return Vocabulary(game=game, lang=lang, folding=folding, stopwords=stopwords, groups=groups)


def load_vocabularies(folder: Path, games: Iterable[str], languages: Iterable[str]) -> dict[tuple[str, str], Vocabulary]:
    """Return every game's vocabulary in every language, or raise BrokenVocabulary listing all problems.

    A game without a words file of its own understands the shared words only.
    """
    problems: list[str] = []
    shared = _read(folder / SHARED, problems)
    found = {}
    for game in games:
        path = folder / f"{game}.words.toml"
        own = _read(path, problems) if path.exists() else {}
        if own and own.get("game") != game:
            problems.append(f"{path.name}: must say the game matching its name")
        for lang in languages:
            found[(game, lang)] = build(game, lang, shared, own, problems)
    if problems:
        raise BrokenVocabulary("\n".join(sorted(set(problems))))
    return found
