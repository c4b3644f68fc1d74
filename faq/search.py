"""Finding the FAQ entry that answers a question asked the way people ask at the table.

Everything that does not depend on the question is worked out here, once, when the index is
built; the server and the browser's offline search (static/js/faq-offline.js) then do the same
few steps on the same data (``Index.offline()``), so both find the same answers:

1. Fold the question into words (faq.tokens: numbers as digits, phrases joined, stopwords out),
   join a German verb with the particle that ends its clause ("teilt ... aus": "austeil"), and
   join two neighbours that together make a known word ("Karten Tausch").
2. Look each word up in the section's lexicon: every word its entries, their paraphrases and
   the glossaries use, their stems, the number words, and the known words a compound of the
   entries splits into. A word the lexicon lacks stands for the known words it begins (a word
   still being typed), the known word it extends by an ending or makes small (Kärtchen, Männle),
   the known words it is compounded of, however many ("Goldzwölfstrafe"), else the known head it
   ends in ("Holzmännle"), and the known words one typo away, each a little less sure than a known word.
3. Add up each entry's weight for the best term of every word: the weights are BM25F over the
   entry's fields (question, paraphrases, keywords, answer, details), computed here. An entry
   whose title fields hold more of the words is raised, more so when one line of them (the
   question, one paraphrase, the keywords) holds them at once, and a question of one or two
   words that names only terms an entry is the home of (its ``names``) raises that entry, and
   a longer one naming such a term among other words raises it half as much.
   Several numbers in one question share their weight: a list of cards played describes a
   situation, and no one of them is what is asked about. An entry is raised, too, by the share
   of the question's letter trigrams its question and paraphrases hold, and more by the one of
   them most alike in letters: the words' own letters count where the lexicon missed a form or a
   misspelling, and a paraphrase the question all but repeats is what it asks.
4. Add what the section learnt from players' questions (faq.learned): the chance its model gives each
   entry found of answering a question with these terms, letter trigrams and words raises the entry,
   against the best entry's score. The hand-made steps find the entries that share a question's words; the
   model knows which of them players mean when they ask that way.
5. A question that matches nothing still gets the entries whose questions look most like it.
"""

from __future__ import annotations

import math
import re
import threading
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, pairwise
from typing import Any

from markupsafe import Markup, escape

from faq.content import CONTENT, LANGUAGES, Entry, Question
from faq.learned import Features, Learned, learn
from faq.tokens import WORD, stem
from faq.vocabulary import INFIXES, MIN_ROOT, SEPARABLE, Vocabulary, load_vocabularies

FIELDS = ("question", "asked", "keywords", "answer", "details", "parts")
"""What of an entry is searched: its question, its paraphrases in players' words, its keywords, the
answer, the details, and the parts of the compounds it uses. The answer and the details, written
from the rules rather than from players' questions, weigh a quarter and a fifth of the question:
what a player asks in words no paraphrase foresaw, the rules' own text often still says. The keywords weigh as much as the
question: a few words that name what the entry is about, which carry to players' words that no paraphrase holds."""
WEIGHTS = {"question": 4.0, "asked": 4.0, "keywords": 4.0, "answer": 1.0, "details": 0.75, "parts": 0.5}
TITLE = ("question", "asked", "keywords")
"""The fields that say what an entry is about; a word found in them raises the entry."""
COVERAGE = 1.0
"""How much an entry is raised when its title fields, taken together, hold all of the question's words."""
NAMED = 2.0
"""How much an entry is raised when a short question names nothing but terms it is the home of (its ``names``)."""
NAMED_AMONG_OTHERS = 1.0
"""How much for each such term a longer question names among its other words: "what happens with the pot if the day is tied"
says what it is about in one word, the rest is the situation."""
APP_TOPIC = "app"
"""The topic of the entries about using the app rather than the rules."""
APP_WORDS = (
    "app",
    "tischblock",
    "tap",
    "tippen",
    "antippen",
    "phone",
    "handy",
    "screen",
    "bildschirm",
    "display",
    "button",
    "knopf",
    "eingeben",
    "eintragen",
    "enter",
    "type",
    "speichern",
    "save",
)
"""Words that say a question is about the app: an app entry's name that rules entries use too ("Variante", "final hand",
"Rundenende") names the app entry only in a question that says one of these, else it asks the rule."""
NAMED_PART = 0.5
"""How much a part of a compound name names its entry: "Tageskarte" is the home of the day card, less of every "Tag"."""
SHORT = 2
"""The most words a question may have and still be a term looked up: "Kartensegen", "quick mode"."""
LINE_COVERAGE = 1.0
"""How much more when one line of them (its question, one paraphrase, or its keywords) holds them all: the
question said in one breath, not pieced together from many paraphrases, so more paraphrases sharpen an
entry rather than blur it."""
K1, B = 25.0, 0.9
"""BM25F's saturation of the weighted counts (high: the field weights already say how much a mention counts) and length normalisation,
nearly full: an entry with many paraphrases holds a word many times by its length alone, and a word says less of it than of an
entry that holds the word in fewer lines (each paraphrase asked of a search without it found its entry first more often: at 0.5,
81.3 / 85.8 / 86.3 / 84.6 % for 12 Days de, en and AURUXXX de, en; at 0.9, 82.0 / 86.2 / 86.3 / 85.3 %)."""
SURE = {"known": 1.0, "number": 0.9, "ending": 0.9, "prefix": 0.8, "compound": 0.8, "head": 0.7, "typo": 0.7}
"""How sure a term stands for a word, by how it was found. A number names a card, a day or a score, if not always the one asked
about ("three of us"): less sure than a known word, as sure as a known word's ending, surer than a word still being typed or a
typo's correction, which are guesses; so is the head of a compound whose modifier is no known word."""
MIN_TYPO_LENGTH = 4
"""Shorter words are never corrected: "ner" is colloquial "einer", not a typo of "er"."""
MIN_PREFIX = 3
"""The shortest beginning of a word that is completed."""
MIN_STEM_LENGTH = 4
"""The shortest known word an unknown longer word may be cut back to."""
MAX_ENDING = 3
"""The most letters cut from an unknown word to reach a known one ("rausgehn" to "rausgeh")."""
MIN_HALF = 3
"""The shortest half of a misspelt word split in two ("hapy man")."""
MIN_PART = 3
"""The shortest part of a compound word."""
LINKS = ("", "s", "n", "en", "es")
"""What German writes between the parts of a compound: Tag-es-karte, Runde-n-ende."""
PART_ENDINGS = {"de": ("e", "n", "en", "s", "es", "er", "ern"), "en": ("s", "es")}
"""The endings the last part of a compound may bear that its known word lacks: Pass-kreuz-e, Goldzwölf-strafe-n."""
DIMINUTIVES = {"de": ("lein", "chen", "erl", "les", "le", "li", "la"), "en": ()}
"""German's diminutive endings, standard and dialect: Kärt-chen, Männ-lein; Swabian Männ-le (plural -la, -les), Swiss
Männ-li, Bavarian Mand-erl."""
FEMININE = {"de": ("innen", "in"), "en": ()}
"""How German names a woman, and women, by a man's word: Spieler-in, Mitspieler-innen, Karten-geber-in."""
MIN_HEAD = 4
"""The shortest known head a compound whose modifier is no known word is read as (Holz-männle: Männle)."""
PREFIXES = {"de": ("ver", "zer", "ent", "emp", "miss"), "en": ()}
"""German's inseparable verb prefixes of three letters or more, no modifier of a compound: "verlegen" is no kind of "legen"."""
REMEMBERED = 50_000
"""How many words' readings as compounds a section remembers: the entries' words, and the queries' up to a bound."""
HEADS = {"de": True, "en": False}
"""Whether a word that is no known word, nor made of them, is read as the known compound it ends in: German puts a compound's
head last ("Holzmännle" is a Männle); English writes its compounds apart, and the known end of an English word is mostly
none of its meaning ("understand" is no "stand")."""
PARTICIPLE = "ge"
"""German's participle prefix, which the stemmer keeps: "getauscht" is "tauscht" done, cut back to "tausch"."""
LOOKS = 1.0
"""How much an entry is raised by the share of a question's letter trigrams its question and paraphrases hold: the
words' own letters, where the lexicon missed a form, a misspelling or an ending ("colect", "refilled", "running")."""
LINE_LOOKS = 3.0
"""How much more by the one of them (its question or one paraphrase) that looks most like the question, by the share of
both their trigrams they have in common (Dice): taken together, the many paraphrases of a well-asked entry hold most letters
of any question, while one line of the length and the letters of the question is the question said again."""
PARTICLES = SEPARABLE
"""German verb particles that end a clause when the verb is split ("teilt ... aus", "fängt ... an"): the particle, a stopword,
and the bare verb ("teilt") say little; joined ("austeilt") they are the verb ("austeilen")."""
VERB_AT = 4
"""The finite verb of a clause stands among its first words ("Wer teilt", "Teilt man", "Wie viele Karten teilt man")."""
SEPARATED_ENDINGS = ("", "e", "st", "t", "et", "en", "n")
"""The endings cut from a joined verb ("austeilt") to find it among the known words and stems ("austeil"), which it becomes."""
CONJUNCTIONS = {
    "de": ("und", "oder", "aber", "sondern", "dass", "weil", "wenn", "ob", "falls", "bevor", "nachdem", "sobald", "obwohl", "damit"),
    "en": (),
}
"""Words that begin a clause of their own: "ich zieh eine nach und leg sie ab" is two clauses, two particle verbs, and so is
"deckt jeder seine Karte auf, wenn alle gelegt haben": players leave out the comma before "wenn", "dass", "weil" or "ob",
and the main clause's particle then stands before the conjunction, not at the end of the question."""
CLAUSE = re.compile(r"[^.,;:!?|()\n]+")
"""A clause of folded text: the stretch between punctuation (the paraphrases of an entry are joined by "|")."""
NEAREST = 3
"""How many entries a question that matches nothing still gets."""
PLACES = 4
"""Decimal places of every weight: the browser adds the very same numbers."""
LEARNED = 1.0
"""How much the chance the learnt model gives an entry raises it, against the score of the entry the hand-made steps put first:
as much as that score, so the model decides between entries the words find alike, and the words still rank what it is unsure of."""
GRAM_WEIGHT = 0.5
"""How much a letter trigram of a question counts for the learnt model, against a term it is sure of: a word is about three trigrams."""
WORD_WEIGHT = 0.5
"""How much each word of a question as written, stopwords included, and each two words in a row count for the learnt model:
"wie viele", "who gets" and "can i" say what is asked, which the terms, stopwords left out, do not."""


Group = tuple[tuple[str, float], ...]
"""The terms that stand for one word of a question, each with how sure it is."""


def variants(word: str) -> set[str]:
    """Return a word and every way of dropping one of its letters: two words may be one typo apart only where their variants meet.

    >>> sorted(variants("swab") & variants("swap")), bool(variants("card") & variants("kart"))
    (['swa'], False)
    """
    return {word} | {word[:at] + word[at + 1 :] for at in range(len(word))}


def one_typo_apart(word: str, other: str) -> bool:
    """Tell whether two different words are one typo apart: one letter wrong, two neighbours swapped, one missing or one extra.

    Variants that meet where each word dropped a letter at places far apart are two typos: "anna" is no "kann", "dachte" no "achten".

    >>> one_typo_apart("kreuz", "kruez"), one_typo_apart("topf", "topff"), one_typo_apart("anna", "kann"), one_typo_apart("ziehn", "zehnt")
    (True, True, False, False)
    """
    if len(word) < len(other):
        word, other = other, word
    if len(word) - len(other) == 1:
        return any(word[:at] + word[at + 1 :] == other for at in range(len(word)))
    if len(word) != len(other):
        return False
    wrong = [at for at in range(len(word)) if word[at] != other[at]]
    return len(wrong) == 1 or (
        len(wrong) == 2 and wrong[1] == wrong[0] + 1 and word[wrong[0]] == other[wrong[1]] and word[wrong[1]] == other[wrong[0]]
    )


def is_number(group: Group) -> bool:
    """Tell whether a word of a question is a number: every term it stands for is digits."""
    return all(term.isdigit() for term, _ in group)


def grams(text: str) -> set[str]:
    """Return the letter trigrams of a folded text's words, padded, for finding what looks alike."""
    return {f" {word} "[at : at + 3] for word in text.split() for at in range(len(word))}


@dataclass(frozen=True)
class Hit:
    """An entry that answers a query, with its rank and the terms that matched (for highlighting)."""

    entry: Entry
    score: float
    terms: frozenset[str]
    vocabulary: Vocabulary
    nearest: bool = False
    """True when nothing matched and the entry is only the closest in looks."""

    def highlight(self, text: str) -> Markup:
        """Return text escaped for HTML with the words that matched the query marked."""
        out: list[str] = []
        for piece in re.split(r"(\w[\w-]*)", text):
            if piece and set(self.vocabulary.terms(piece)) & self.terms:
                out.append(f"<mark>{escape(piece)}</mark>")
            else:
                out.append(str(escape(piece)))
        return Markup("".join(out))


class Section:
    """The FAQ of one game in one language: the lexicon a question's words are looked up in, and each term's weight per entry."""

    def __init__(self, vocabulary: Vocabulary, entries: Iterable[Entry], examples: Iterable[Question] = ()) -> None:
        self.vocabulary = vocabulary
        self.game, self.lang = vocabulary.game, vocabulary.lang
        self.entries = list(entries)
        fold = vocabulary.folding
        meaningful = vocabulary.meaningful
        # Each title line folded once: an entry's lines of terms and its letters are both made from them.
        lines_folded = {line: fold.fold(line) for e in self.entries for line in (e.question, *e.asked, " ".join((*e.keywords, *e.names)))}
        folded = [
            {
                "question": lines_folded[e.question],
                "asked": fold.fold(" | ".join(e.asked)),
                "keywords": fold.fold(" | ".join((*e.keywords, *e.names))),
                "answer": fold.fold(e.answer),
                "details": fold.fold(e.details),
            }
            for e in self.entries
        ]
        seen = {w for entry in folded for text in entry.values() for w in WORD.findall(text)} | {
            w for group in vocabulary.groups for w in group
        }
        seen |= {stem(w, self.lang) for w in seen}
        words = [
            {name: [w for w in self.unseparated(text, seen, keep=True) if meaningful(w)] for name, text in entry.items()}
            for entry in folded
        ]
        used = sorted({w for entry in words for found in entry.values() for w in found} | {w for group in vocabulary.groups for w in group})
        known = set(used)
        lexicon = {word: vocabulary.term(word, known) for word in used}
        lexicon.update({form: digits for form, digits in fold.numbers.items() if form not in lexicon})
        lexicon.update({own: term for word, term in list(lexicon.items()) if (own := stem(word, self.lang)) not in lexicon})
        self.lexicon = lexicon
        """Every word a query may use, with the term it is looked up by."""
        self._compounds: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
        """How each word looked at so far reads as a compound (Section._compound)."""
        self.keys = sorted(lexicon)
        self._by_variant: dict[str, list[str]] = defaultdict(list)
        for key in self.keys:
            for variant in variants(key):
                self._by_variant[variant].append(key)
        fields: list[dict[str, list[str]]] = []
        for entry in words:
            terms = {name: [lexicon[w] for w in found] for name, found in entry.items()}
            terms["parts"] = [term for found in entry.values() for word in found for term in self.split(word)]
            fields.append(terms)
        self.postings = self._weigh(fields)
        """Each term's weight in each entry that holds it, by the entry's position."""
        titled: dict[str, set[int]] = defaultdict(set)
        for at, f in enumerate(fields):
            for name in TITLE:
                for term in f[name]:
                    titled[term].add(at)
        self.titles = {term: sorted(titled[term]) for term in self.postings if titled[term]}
        """The entries whose title fields hold a term."""
        self.lines = [
            [
                sorted(
                    {
                        term
                        for word in self.unseparated(lines_folded[line], seen, keep=True)
                        if meaningful(word)
                        for term in self._line_terms(word)
                    }
                )
                for line in (e.question, *e.asked, " ".join((*e.keywords, *e.names)))
            ]
            for e in self.entries
        ]
        """Each entry's title lines (question, paraphrases, keywords), each as the terms it holds."""
        lined: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for at, lines in enumerate(self.lines):
            for number, line in enumerate(lines):
                for term in line:
                    lined[term].append((at, number))
        self._lined = dict(lined)
        """The (entry, line) pairs whose title line holds a term."""
        self.names = [self._name_terms(self.unseparated(fold.fold(" ".join(e.names)), seen, keep=True)) for e in self.entries]
        """The terms each entry is the home of, each with how much it names it: a compound name names its entry whole, its parts
        ("Tageskarte": Tag, Karte) less (``NAMED_PART``), or every question with a "Tag" would be pulled there."""
        self.app_terms = sorted({lexicon.get(word) or vocabulary.term(word) for word in fold.words(" ".join(APP_WORDS))})
        """The terms of the words that say a question is about the app."""
        ruled = {term for term, held in self.titles.items() if any(self.entries[at].topic != APP_TOPIC for at in held)}
        self.app_names = [sorted(set(names) & ruled) if e.topic == APP_TOPIC else [] for e, names in zip(self.entries, self.names)]
        """The names of each app entry that rules entries use too, which name it only in a question about the app."""
        self.looks = [[lines_folded[line] for line in (e.question, *e.asked)] for e in self.entries]
        """Each entry's question and paraphrases, folded, to compare a query with letter by letter."""
        by_entry: dict[str, list[int]] = defaultdict(list)
        by_line: dict[str, list[int]] = defaultdict(list)
        self._line_entry: list[int] = []
        """The entry of each line (a question or a paraphrase), numbered across all entries."""
        self._line_size: list[int] = []
        """How many letter trigrams each line has."""
        for at, looks in enumerate(self.looks):
            for text in looks:
                held = grams(text)
                for gram in held:
                    by_line[gram].append(len(self._line_entry))
                self._line_entry.append(at)
                self._line_size.append(len(held))
            for gram in set().union(*(grams(text) for text in looks)):
                by_entry[gram].append(at)
        self._gram_entries = dict(by_entry)
        """The entries whose question or paraphrases hold a letter trigram."""
        self._gram_lines = dict(by_line)
        """The lines that hold a letter trigram."""
        self.learned = self.teach(examples)
        """What the section learnt from its entries' own texts and from players' questions."""

    def teach(self, examples: Iterable[Question], remembered: dict[str, dict[str, float]] | None = None) -> Learned:
        """Return the model taught by every entry's question, paraphrases, answer and details, and by players' questions with the entries that answer them.

        The answer and the details are the rules' own words: what a player asks in words no paraphrase
        foresaw, they often still say.

        A player's question naming an entry this section lacks teaches nothing (the content loader refuses such files).
        ``remembered`` keeps each text's features for the next call, for whoever teaches the section again and again
        (to measure it); a server teaches it once and keeps only the model (the features would take a third of its FAQ's memory).
        """
        remembered = {} if remembered is None else remembered

        def features_of(text: str, folded: str | None = None) -> dict[str, float]:
            if text not in remembered:
                folded = self.vocabulary.folding.fold(text) if folded is None else folded
                remembered[text] = self.features(folded, self._groups(folded))
            return remembered[text]

        position = {entry.id: at for at, entry in enumerate(self.entries)}
        taught: list[tuple[Features, list[int]]] = [
            (features_of(line, folded), [at])
            for at, entry in enumerate(self.entries)
            for line, folded in zip((entry.question, *entry.asked), self.looks[at], strict=True)
        ]
        taught += [(features_of(text), [at]) for at, entry in enumerate(self.entries) for text in (entry.answer, entry.details)]
        for example in examples:
            answered_by = [position[found] for found in example.expect if found in position]
            if answered_by:
                taught.append((features_of(example.q), answered_by))
        return learn(taught, len(self.entries))

    @staticmethod
    def features(folded: str, groups: Sequence[Group]) -> dict[str, float]:
        """Return a folded text whose groups are known as the learnt model sees it: each term its words stand for, as sure as the
        surest of them, each letter trigram, each word as written and each two words in a row.

        A trigram is written with a leading "|", a word or two with a leading "~", which no term holds.
        """
        found: dict[str, float] = {}
        for group in groups:
            for term, sure in group:
                found[term] = max(found.get(term, 0.0), sure)
        for gram in grams(folded):
            found["|" + gram] = GRAM_WEIGHT
        words = WORD.findall(folded)
        for word in words:
            found["~" + word] = WORD_WEIGHT
        for word, following in pairwise(words):
            found[f"~{word} {following}"] = WORD_WEIGHT
        return found

    @staticmethod
    def _weigh(fields: Sequence[Mapping[str, list[str]]]) -> dict[str, dict[int, float]]:
        """Return every term's weight per entry by BM25F: the fields' weighted, length-normalised counts added, then saturated once.

        An entry that names a word in its question, its paraphrases and its answer is about it,
        but not three times as much as one that names it once in its question. A word's rarity
        is damped by its square root: among some forty entries, a word one entry uses and a word
        three use differ by chance as much as by meaning, and an undamped rarity let one rare
        word of a question outweigh an entry that holds all the others.
        """
        count = len(fields) or 1
        averages = {name: sum(len(f[name]) for f in fields) / count or 1.0 for name in FIELDS}
        frequency = Counter(term for f in fields for term in {t for name in FIELDS for t in f[name]})
        weights: dict[str, dict[int, float]] = defaultdict(dict)
        for at, f in enumerate(fields):
            counted: dict[str, float] = defaultdict(float)
            for name in FIELDS:
                norm = 1 - B + B * len(f[name]) / averages[name]
                for term, times in Counter(f[name]).items():
                    counted[term] += WEIGHTS[name] * times / norm
            for term, mentions in counted.items():
                rarity = math.sqrt(math.log(1 + (count - frequency[term] + 0.5) / (frequency[term] + 0.5)))
                weights[term][at] = round(rarity * mentions * (K1 + 1) / (mentions + K1), PLACES)
        return {term: dict(sorted(found.items())) for term, found in weights.items()}

    def _name_terms(self, words: Iterable[str]) -> dict[str, float]:
        """Return the terms an entry's names hold, each with how much it names the entry: a whole word fully, a compound's part by ``NAMED_PART``."""
        found: dict[str, float] = {}
        for word in filter(self.vocabulary.meaningful, words):
            for term in self.split(word):
                found[term] = max(found.get(term, 0.0), NAMED_PART)
        for word in filter(self.vocabulary.meaningful, words):
            found[self.lexicon[word]] = 1.0
        return dict(sorted(found.items()))

    def _line_terms(self, word: str) -> list[str]:
        """Return the terms a word of a title line holds: its own, and those of the parts it is compounded of."""
        return [self.lexicon[word], *self.split(word)]

    def split(self, word: str) -> list[str]:
        """Return the terms of the known words a compound is made of (Handkarten: Hand, Karte; Goldzwölfstrafe: Gold, 12, Strafe), or none.

        A compound is read from the left, each part a known word or a known number ("Zehnerkarten",
        "Siebenköpfige"), joined to the next as German joins them (Tag-es-karte, Gruppe-n-variante),
        in as few parts as it can be read in, the longest first part winning among as many: a word
        of two known words is read as before, one of three or more ("Goldzwölfstrafe",
        "Tageskartenstapel") no longer goes unread. A part inside, neither first nor last, has
        ``MIN_STEM_LENGTH`` letters at least, and so has a number ("ein" is the article and the
        prefix of "einstellen", no 1).

        A word the lexicon lacks may bear an ending on its last part, the part a compound is declined
        by (Pass-kreuz-e, Goldzwölf-strafe-n), or make it small (Stapel-kärt-chen). A word the entries use
        is split into known words as they stand: its parts only add to a word already understood, and
        a guessed ending there is noise ("vorhanden" is no "Hand").
        """
        return list(self._compound(word)[0])

    def _compound(self, word: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Return the terms of a compound's known parts (Section.split), and those of its known head where its modifier is no known word.

        German puts the head last: "Holzmännle" is a Männle, whatever "Holz" means. The head is the
        longest known end of a word the lexicon lacks, itself a known word or a compound of known words,
        ``MIN_HEAD`` letters at least and longer than the modifier before it, which has ``MIN_PART`` letters
        at least and is no inseparable prefix: a short known end of a longer word is as often chance
        ("Automa-tisch", "Xylo-phon") as its head.
        """
        if word in self._compounds:
            return self._compounds[word]
        size, loose = len(word), word not in self.lexicon
        ends: dict[int, tuple[str, ...]] = {}
        """The fewest known parts each end of the word (from a position on) is read in."""

        def read(start: int, whole: bool) -> tuple[str, ...]:
            if whole:
                own = self._part(word[start:], loose)
                if own is not None:
                    return (own,)
            best: tuple[str, ...] = ()
            shortest = MIN_STEM_LENGTH if start else MIN_PART
            for cut in range(size - MIN_PART, start + shortest - 1, -1):
                head = word[start:cut]
                if head not in self.lexicon or (len(head) < MIN_STEM_LENGTH and self.lexicon[head].isdigit()):
                    continue
                for link in LINKS:
                    rest = ends.get(cut + len(link), ()) if word.startswith(link, cut) else ()
                    if rest and (not best or len(rest) + 1 < len(best)):
                        best = (self.lexicon[head], *rest)
                if len(best) == 2:
                    break
            return best

        for start in range(size - MIN_PART, MIN_PART - 1, -1):
            found = read(start, whole=True)
            if found:
                ends[start] = found
        parts = read(0, whole=False) if size >= 2 * MIN_PART else ()
        heads: tuple[str, ...] = ()
        if HEADS[self.lang] and loose and not parts:
            heads = next(
                (
                    ends[start]
                    for start in range(MIN_PART, min(size - MIN_HEAD, (size - 1) // 2) + 1)
                    if start in ends and word[:start] not in PREFIXES[self.lang]
                ),
                (),
            )
        if len(self._compounds) < REMEMBERED:
            self._compounds[word] = (parts, heads)
        return parts, heads

    def _part(self, part: str, loose: bool) -> str | None:
        """Return the term of the last part of a compound: a known word, or, in a word the lexicon lacks (``loose``), a known word
        with an ending (Kreuz-e) or made small (Männ-le).

        A number is a part from ``MIN_STEM_LENGTH`` letters on, and so is a word cut back to: "bestimmen" ends in no "Imm-en".
        """
        if part in self.lexicon:
            return None if len(part) < MIN_STEM_LENGTH and self.lexicon[part].isdigit() else self.lexicon[part]
        if not loose:
            return None
        for ending in PART_ENDINGS[self.lang]:
            if part.endswith(ending) and len(part) - len(ending) >= MIN_STEM_LENGTH and part[: -len(ending)] in self.lexicon:
                return self.lexicon[part[: -len(ending)]]
        return self._diminutive(part)

    def _diminutive(self, word: str) -> str | None:
        """Return the term of the known word a German diminutive makes small, standard or dialect, or a feminine form names a woman by, or None.

        "Kärtchen", "Kärtle" and "Kärtli" are small cards, "Männle", "Männlein" and "Mannderl" small men,
        "Spielerin" and "Mitspielerinnen" players: the ending cut (and the umlaut already folded), the word
        left, or it with an "e", is known.
        """
        for ending in (*DIMINUTIVES[self.lang], *FEMININE[self.lang]):
            base = word[: -len(ending)]
            if word.endswith(ending) and len(base) >= MIN_STEM_LENGTH:
                for known in (base, base + "e"):
                    if known in self.lexicon:
                        return self.lexicon[known]
        return None

    def _typos(self, word: str) -> list[str]:
        """Return the known words one typo away from a word (one letter wrong, swapped, missing or extra), number words aside.

        A number word is the likeliest word to be spelt right and the likeliest to lie one letter from an
        everyday word: "ziehn" is "ziehen", not "zehn"; "night" no "eight"; "meins" no "eins".
        """
        if len(word) < MIN_TYPO_LENGTH:
            return []
        return sorted(
            {
                key
                for variant in variants(word)
                for key in self._by_variant.get(variant, ())
                if len(key) >= MIN_TYPO_LENGTH and not self.lexicon[key].isdigit() and one_typo_apart(word, key)
            }
        )

    def _completions(self, word: str) -> list[str]:
        """Return the known words a word begins, as it would be still being typed."""
        if len(word) < MIN_PREFIX:
            return []
        at = bisect_left(self.keys, word)
        found = []
        while at < len(self.keys) and self.keys[at].startswith(word):
            found.append(self.keys[at])
            at += 1
        return found

    def resolve(self, word: str) -> list[Group]:
        """Return the groups of terms one query word stands for: one group, or two for a compound's parts."""
        if word in self.lexicon:
            return [((self.lexicon[word], SURE["number"] if word.isdigit() else SURE["known"]),)]
        found: dict[str, float] = {}

        def add(term: str, sure: float) -> None:
            found[term] = max(found.get(term, 0.0), sure)

        completions = self._completions(word)
        for key in completions:
            add(self.lexicon[key], SURE["prefix"])
        small = None if completions else self._diminutive(word)
        if small is not None:
            add(small, SURE["ending"])
        bare = word[len(PARTICIPLE) :] if self.lang == "de" and word.startswith(PARTICIPLE) else ""
        bares = [form for form in (bare, *self.vocabulary.unparticipled(word)) if form]
        known = next((form for form in bares if form in self.lexicon), None)
        if known is not None:
            add(self.lexicon[known], SURE["ending"])
        elif not completions:
            for stem_of in (word, *(form for form in bares if len(form) > MIN_STEM_LENGTH)):
                for cut in range(len(stem_of) - 1, max(MIN_STEM_LENGTH, len(stem_of) - MAX_ENDING) - 1, -1):
                    if stem_of[:cut] in self.lexicon:
                        add(self.lexicon[stem_of[:cut]], SURE["ending"])
                        break
        for key in self._typos(word) if small is None else ():
            if not completions or key.startswith(word):
                add(self.lexicon[key], SURE["typo"])
        parts, heads = self._compound(word)
        groups = [tuple(sorted(found.items()))] if found else []
        if parts and not found:
            groups += [((part, SURE["compound"]),) for part in parts]
        elif heads and not found:
            groups += [((part, SURE["head"]),) for part in heads]
        return groups

    def joined(self, asked: Sequence[str]) -> list[str]:
        """Return the query's words with two neighbours joined where together they make a known word.

        Players split compounds ("Karten Tausch") and misspell split names ("hapy man"): a pair
        is joined when it is a known word, or one typo from one while a half means nothing by
        itself (letters only, and no half shorter than three letters: "eine 7", "i refill", "it ok"
        or "hand as" is no misspelt word; "wer teilt" or "geb ich" are two words, each understood).
        Two numbers stay two: "3 6" are three sixes, not 36.
        """
        meaningful = self.vocabulary.meaningful
        out: list[str] = []
        at = 0
        while at < len(asked):
            pair = asked[at] + asked[at + 1] if at + 1 < len(asked) else ""
            worth = (
                bool(pair)
                and (meaningful(asked[at]) or meaningful(asked[at + 1]))
                and not asked[at].isdigit()
                and not asked[at + 1].isdigit()
            )
            misspelt = (
                pair.isalpha()
                and min(len(asked[at]), len(asked[at + 1])) >= MIN_HALF
                and not (self._stands_alone(asked[at]) and self._stands_alone(asked[at + 1]))
            )
            if worth and (pair in self.lexicon or (misspelt and self._typos(pair))):
                out.append(pair)
                at += 2
            else:
                out.append(asked[at])
                at += 1
        return out

    def unseparated(self, folded: str, known: Container[str], *, keep: bool = False) -> list[str]:
        """Return the words of a folded text, a German verb joined with its particle where the particle ends a clause.

        "Wer teilt die Karten aus?" is "wer austeil die karten": the first of the clause's first words
        that, with the particle before it and an ending cut, is a known word or stem ("austeil") is the verb.
        An entry keeps the bare verb too (``keep``), for the player who writes it without its particle.
        """
        out: list[str] = []
        for stretch in CLAUSE.findall(folded):
            clause: list[str] = []
            for word in [*WORD.findall(stretch), ""]:
                if word and word not in CONJUNCTIONS[self.lang]:
                    clause.append(word)
                    continue
                out += self._particle_joined(clause, known, keep=keep) + ([word] if word else [])
                clause = []
        return out

    def _particle_joined(self, words: list[str], known: Container[str], *, keep: bool) -> list[str]:
        """Return the words of one clause, its verb joined with the particle that ends it (Section.unseparated)."""
        if len(words) > 1 and words[-1] in PARTICLES[self.lang]:
            particle = words[-1]
            for at, word in enumerate(words[: min(VERB_AT, len(words) - 1)]):
                verb = self._particle_verb(particle, word, known)
                if verb is not None:
                    return [*words[:-1], verb] if keep else [*words[:at], verb, *words[at + 1 : -1]]
        return words

    def _particle_verb(self, particle: str, word: str, known: Container[str]) -> str | None:
        """Return the known word or stem a verb form makes with its particle, an ending cut ("aus" + "teilt": "austeil"), or None."""
        if not word.isalpha() or word in PARTICLES[self.lang]:
            return None
        joined = particle + word
        for ending in SEPARATED_ENDINGS:
            cut = joined[: len(joined) - len(ending)]
            if joined.endswith(ending) and len(cut) >= len(particle) + MIN_PART and cut in known:
                return cut
        return None

    def _stands_alone(self, word: str) -> bool:
        """Tell whether a word means something by itself: a stopword, a known word, or one the lexicon finds by its ending, beginning or a typo."""
        return not self.vocabulary.meaningful(word) or word in self.lexicon or bool(self.resolve(word))

    def groups(self, query: str) -> list[Group]:
        """Return, for each meaningful word of a query, the terms that stand for it (a word said twice counts once).

        Several numbers share their weight: "2, 6 and 9" or "1 1 3 3 7" lists the cards of a
        situation, and no one of them is what the question is about, so each counts the less
        sure by the square root of how many numbers there are.
        """
        return self._groups(self.vocabulary.folding.fold(query))

    def _groups(self, folded: str) -> list[Group]:
        """Return the groups of a query already folded (Section.groups)."""
        found: list[Group] = []
        for word in self.joined(self.unseparated(folded, self.lexicon)):
            if self.vocabulary.meaningful(word):
                for group in self.resolve(word):
                    if group not in found:
                        found.append(group)
        numbers = sum(1 for group in found if is_number(group))
        if numbers < 2:
            return found
        share = math.sqrt(numbers)
        return [tuple((term, sure / share) for term, sure in group) if is_number(group) else group for group in found]

    def rank(self, query: str, learned: Learned | None = None) -> tuple[list[tuple[float, int]], frozenset[str], bool]:
        """Return (score, position) of the entries answering a query, best first, the terms it looked for, and whether any matched.

        ``learned`` stands in for the section's own model (to measure a model taught without some questions).
        """
        folded = self.vocabulary.folding.fold(query)
        groups = self._groups(folded)
        scores: dict[int, float] = defaultdict(float)
        covered: dict[int, float] = defaultdict(float)
        for group in groups:
            best: dict[int, float] = {}
            titled: dict[int, float] = {}
            for term, sure in group:
                for at, weight in self.postings.get(term, {}).items():
                    best[at] = max(best.get(at, 0.0), sure * weight)
                for at in self.titles.get(term, ()):
                    titled[at] = max(titled.get(at, 0.0), sure)
            for at, value in best.items():
                scores[at] += value
            for at, sure in titled.items():
                covered[at] += sure
        terms = frozenset(term for group in groups for term, _ in group)
        if scores:
            lines = self._best_lines(groups)
            alike = self._alike(grams(folded))
            found = {
                at: score
                * (1 + alike.get(at, 0.0))
                * (1 + (COVERAGE * covered[at] + LINE_COVERAGE * lines.get(at, 0.0) + self._named(at, groups)) / len(groups))
                for at, score in scores.items()
            }
            top = max(found.values())
            shares = (learned or self.learned).shares(self.features(folded, groups))
            ranked = [(score / top + LEARNED * shares[at], at) for at, score in found.items()]
            return sorted(ranked, key=lambda scored: (-scored[0], scored[1])), terms, True
        return self.nearest(folded), terms, False

    def _best_lines(self, groups: Sequence[Group]) -> dict[int, float]:
        """Return, per entry, how much of a question its best title line holds: the sum, over the words, of the surest term the line has.

        Only the lines holding some term are visited; the sums come out as the browser's, which adds
        a 0 for every word a line lacks.
        """
        held: dict[tuple[int, int], list[float]] = {}
        for number, group in enumerate(groups):
            for term, sure in group:
                for line in self._lined.get(term, ()):
                    found = held.setdefault(line, [0.0] * len(groups))
                    found[number] = max(found[number], sure)
        best: dict[int, float] = {}
        for (at, _), sures in held.items():
            best[at] = max(best.get(at, 0.0), sum(sures))
        return best

    def _named(self, at: int, groups: Sequence[Group]) -> float:
        """Return the raise of an entry for the words of a question that name a term it is the home of: full for a short question that names nothing else."""
        names = self.names[at]
        if self.app_names[at] and not any(term in self.app_terms for group in groups for term, _ in group):
            names = {term: much for term, much in names.items() if term not in self.app_names[at]}
        short = len(groups) <= SHORT and all(any(term in names for term, _ in group) for group in groups)
        return (NAMED if short else NAMED_AMONG_OTHERS) * sum(
            max((sure * names[term] for term, sure in group if term in names), default=0.0) for group in groups
        )

    def _alike(self, asked: set[str]) -> dict[int, float]:
        """Return how much a query's letter trigrams raise each entry that holds some: by the share its question and paraphrases hold, and by its line most alike."""
        if not asked:
            return {}
        size, owners, sizes = len(asked), self._line_entry, self._line_size
        best = [0.0] * len(self.entries)
        for line, shared in Counter(chain.from_iterable(self._gram_lines.get(gram, ()) for gram in asked)).items():
            dice = shared / (size + sizes[line])  # half the Dice share, doubled below: exactly the browser's 2 * shared / ...
            if dice > best[owners[line]]:
                best[owners[line]] = dice
        held = Counter(chain.from_iterable(self._gram_entries.get(gram, ()) for gram in asked))
        return {at: LOOKS * shared / size + LINE_LOOKS * (2 * best[at]) for at, shared in held.items()}

    def nearest(self, folded: str) -> list[tuple[float, int]]:
        """Return the entries whose question or paraphrases share the most letter trigrams with a folded query that matched nothing."""
        alike = [(share, at) for at, share in self._alike(grams(folded)).items()]
        return sorted(alike, key=lambda scored: (-scored[0], scored[1]))[:NEAREST]

    def offline(self) -> dict[str, Any]:
        """Return what the browser needs to search this section the same way without a network."""
        return {
            "game": self.game,
            "lang": self.lang,
            **self.vocabulary.folding.offline(),
            "stopwords": sorted(self.vocabulary.stopwords),
            "lexicon": self.lexicon,
            "postings": {term: [[at, weight] for at, weight in found.items()] for term, found in self.postings.items()},
            "titles": self.titles,
            "lines": self.lines,
            "names": [list(map(list, names.items())) for names in self.names],
            "appNames": self.app_names,
            "appTerms": self.app_terms,
            "entries": [
                {"id": e.id, "game": e.game, "lang": e.lang, "question": e.question, "answer": e.answer, "page": e.page, "looks": looks}
                for e, looks in zip(self.entries, self.looks)
            ],
            "learned": self.learned.offline(),
        }


class Index:
    """Every game's FAQ in every language, each a section searched on its own and worked out on its first question.

    Building a section costs a tenth of a second or more; an app that never answers a question in
    a game and language (most apps the tests build) never pays for it.
    """

    def __init__(
        self, entries: Iterable[Entry], vocabularies: Mapping[tuple[str, str], Vocabulary] | None = None, examples: Iterable[Question] = ()
    ) -> None:
        grouped: dict[tuple[str, str], list[Entry]] = defaultdict(list)
        for entry in entries:
            grouped[(entry.game, entry.lang)].append(entry)
        taught: dict[tuple[str, str], list[Question]] = defaultdict(list)
        for example in examples:
            taught[(example.game, example.lang)].append(example)
        if vocabularies is None:
            vocabularies = load_vocabularies(CONTENT, sorted({game for game, _ in grouped}), LANGUAGES)
        self._waiting = {key: (vocabularies[key], found, taught[key]) for key, found in grouped.items()}
        self._sections: dict[tuple[str, str], Section] = {}
        self._building = threading.Lock()
        self.entries = [entry for found in grouped.values() for entry in found]

    def section(self, game: str, lang: str) -> Section | None:
        """Return the section of one game and language, built on first use (once, however many threads ask), or None."""
        key = (game, lang)
        if key not in self._sections and key in self._waiting:
            with self._building:
                if key not in self._sections:
                    self._sections[key] = Section(*self._waiting[key])
        return self._sections.get(key)

    def built(self) -> list[Section]:
        """Return every section, building those not asked for yet (for the offline index and to time the search alone)."""
        return [found for game, lang in self._waiting if (found := self.section(game, lang)) is not None]

    def groups(self, query: str, *, game: str, lang: str) -> list[Group]:
        """Return, for each meaningful word of a query, the terms that stand for it in one game and language."""
        section = self.section(game, lang)
        return section.groups(query) if section else []

    def terms(self, query: str, *, game: str, lang: str) -> frozenset[str]:
        """Return every term a query looks for in one game and language."""
        return frozenset(term for group in self.groups(query, game=game, lang=lang) for term, _ in group)

    def search(self, query: str, *, game: str, lang: str, limit: int = 10) -> list[Hit]:
        """Return the entries of one game and language that answer a query, best first; the closest ones if none does."""
        if not query.strip():
            return []
        section = self.section(game, lang)
        if section is None:
            return []
        ranked, terms, matched = section.rank(query)
        return [
            Hit(entry=section.entries[at], score=score, terms=terms, vocabulary=section.vocabulary, nearest=not matched)
            for score, at in ranked[:limit]
        ]

    def offline(self) -> dict[str, Any]:
        """Return the index for the browser: each section's folding, lexicon, weights and entries, and the search's settings."""
        return {
            "sections": [section.offline() for section in self.built()],
            "settings": {
                "sure": SURE,
                "looks": LOOKS,
                "lineLooks": LINE_LOOKS,
                "coverage": COVERAGE,
                "lineCoverage": LINE_COVERAGE,
                "named": NAMED,
                "namedAmongOthers": NAMED_AMONG_OTHERS,
                "short": SHORT,
                "minTypoLength": MIN_TYPO_LENGTH,
                "minPrefix": MIN_PREFIX,
                "minStemLength": MIN_STEM_LENGTH,
                "maxEnding": MAX_ENDING,
                "minPart": MIN_PART,
                "minHalf": MIN_HALF,
                "links": list(LINKS),
                "partEndings": PART_ENDINGS,
                "diminutives": DIMINUTIVES,
                "feminine": FEMININE,
                "minHead": MIN_HEAD,
                "heads": HEADS,
                "prefixes": PREFIXES,
                "remembered": REMEMBERED,
                "participle": PARTICIPLE,
                "nearest": NEAREST,
                "learned": LEARNED,
                "gramWeight": GRAM_WEIGHT,
                "wordWeight": WORD_WEIGHT,
                "particles": PARTICLES,
                "infixes": list(INFIXES),
                "minRoot": MIN_ROOT,
                "conjunctions": CONJUNCTIONS,
                "verbAt": VERB_AT,
                "separatedEndings": list(SEPARATED_ENDINGS),
            },
        }
