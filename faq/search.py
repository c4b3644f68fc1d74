"""Finding the FAQ entry that answers a question asked the way people ask at the table.

An in-memory SQLite FTS5 index, built from the content at start, ranks entries with a
matching question above a passing mention. Before a query reaches it, words are folded
(case, umlauts, ß), spelling variants become one word (Happy-Man, Happyman, Happy Man),
synonyms join in (aussetzen ~ passen), endings are cut so prefixes match, compounds are
split into words the index knows, and a misspelt word is replaced by its nearest neighbours.
"""

from __future__ import annotations

import difflib
import re
import sqlite3
import threading
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from markupsafe import Markup, escape

from faq.content import Entry

PHRASES: tuple[tuple[str, str], ...] = (
    (r"happy[\s-]*m[ae]n+", "happyman"),
    (r"golden(?:e|en)?[\s-]*(?:12|zwolf|zwolfen|twelve)s?", "golden12"),
    (r"\bg[\s-]?12\b", "golden12"),
    (r"\b(?:2|zwei|two)[\s-]*(?:ziehen|zieh|draw)\b|\bzieh[\s-]*(?:2|zwei)\b|\bdraw[\s-]*(?:2|two)\b|\+2", "drawtwo"),
    (r"\b2er\b|\bzweier\b", "drawtwo"),
    (r"mrs\.?[\s-]*claus|frau[\s-]*claus|mrs\.?[\s-]*santa|missis[\s-]*claus", "mrsclaus"),
    (r"santa[\s-]*claus|weihnachtsmann|nikolaus", "santa"),
    (r"\b(?:8|eight|acht)[\s-]*(?:nights|nachte|nacht)\b", "8nights"),
    (r"\b(?:8|eight|acht)[\s-]*(?:players|spieler)\b", "8players"),
    (r"\b50er\b|\bfunfziger\b|\bfifty\b", "50"),
    (r"\bday[\s-]*cards?\b|\btages[\s-]*karten?\b|\bholiday[\s-]*cards?\b", "tageskarte"),
    (r"\bauf[\s-]+einmal\b|\bzugleich\b|\bat[\s-]+(?:the[\s-]+)?same[\s-]+time\b|\bat[\s-]+once\b|\bsimultaneous(?:ly)?\b", "gleichzeitig"),
    (r"\b12[\s-]*days\b", " "),
    *((rf"\bzu[\s-]+{word}\b", f"{number} personen")
      for number, word in enumerate(("zweit", "dritt", "viert", "funft", "sechst", "siebt", "acht"), start=2)),
)
"""Spellings of one thing that should count as one word, after folding."""

SYNONYMS: tuple[frozenset[str], ...] = tuple(
    frozenset(group.split())
    for group in (
        "passen pass passe passt passing aussetzen aussetze skip skipping schieben kreuz kreuze kreuzchen cross crosses",
        "beenden beende beendet ausgehen rausgehen raus fertig finish finisher finished finishing out",
        "strafpunkte minuspunkte penalty strafe",
        "halbieren halbiert halbe halb halfte halve halves halving half",
        "ziehen nachziehen draw draws drawing",
        "ablegen ablage legen lay laying play spielen ausspielen discard hauen schmeissen",
        "gewinnt gewinnen gewonnen gewinner sieger win wins won winner winning siegt",
        "gleichstand unentschieden tie ties tied gleichauf",
        "topf pott jackpot pot",
        "verschenken schenken geschenk gift gifts give gives schenkt",
        "mehrheit meiste meisten most majority majorities",
        "ruckgangig undo zuruck",
        "korrigieren korrektur korrigiert correct correction fix falsch wrong vertippt",
        "handkarten hand blatt",
        "zahlt zahlen wert worth count counts score scores wertung",
        "figur figure",
        "aktionskarte aktionskarten action",
        "runde runden round rounds",
        "tauschen tausch wechseln swap swaps trade exchange",
        "niemand keiner nobody",
        "richtung direction way",
        "leute personen person people player players mitspieler",
        "farbe farben colour colours color colors rot rote roten blau blaue blauen grun grune grunen gelb gelbe gelben"
        " red blue green yellow",
        "antippen drucken klicken tap tapped click press",
        "kriegen kriegt bekommen bekommt erhalten receive",
        "deck packung schachtel spielmaterial",
    )
)
"""Words a player may use for the same thing; a query with one also looks for the others."""

STOPWORDS = frozenset(
    """
    a an and are as at be by can could do does for from get got how i if in is it me my of on or so that the
    then this to was what when where which who why will with you your
    ab aber alle als am an auch auf aus bei bin bis da dann darf das dass dem den der des die dir du durch
    ein eine einem einen einer es fur gibt hab habe hat hatte ich ihr im in ist ja jetzt kann konnen man mich
    mir mit muss nach nicht noch nur ob oder sich sie sind so soll um und uns was weil wenn wer wie wieso wir
    wird zu zum zur
    er ne ner nen nem nes eig eigentlich mal denn halt eh hin
    we us our they their now just its im there
    """.split()
)

ENDINGS = ("ungen", "ing", "ung", "en", "er", "es", "em", "et", "ed", "st", "e", "n", "s", "t")
"""Endings cut from a word, longest first, so "beendet" and "beenden" both look for "beend"."""
WEIGHTS = (8.0, 5.0, 2.5, 1.0, 2.0)
"""bm25 weights of question, keywords, answer, details and split compound parts."""
MIN_TYPO_LENGTH = 4
"""Shorter words are never corrected: "ner" is colloquial "einer", not a typo of "er"."""
COLUMNS = ("question", "keywords", "answer", "details", "parts")


def fold(text: str) -> str:
    """Return text lower-cased, without accents, ß as ss and ae/oe/ue as a/o/u, variants joined.

    >>> fold("Darf ich mit der Goldenen Zwölf ausgehen? Happy Man, Fußball, Maerchen")
    'darf ich mit der golden12 ausgehen? happyman, fussball, marchen'
    """
    text = text.lower().replace("ß", "ss")
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = re.sub(r"([aou])e", r"\1", text)
    for pattern, replacement in PHRASES:
        text = re.sub(pattern, replacement, text)
    return text


def words(text: str) -> list[str]:
    """Return the folded words of a text."""
    return re.findall(r"[a-z0-9]+", fold(text))


def stem(word: str) -> str:
    """Return a word without a common German or English ending, so its other forms match as a prefix.

    >>> stem("beendet"), stem("halbiert"), stem("passen"), stem("golden12")
    ('beend', 'halbier', 'pass', 'golden12')
    """
    if len(word) <= 4 or word[-1].isdigit():
        return word
    for ending in ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 4:
            return word[: -len(ending)]
    return word


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
            folded = "".join(words(piece))
            if piece and folded and any(folded.startswith(term) for term in self.terms):
                out.append(f"<mark>{escape(piece)}</mark>")
            else:
                out.append(str(escape(piece)))
        return Markup("".join(out))


class Index:
    """The FTS5 index of every entry, in process memory: quick, and the same on every database.

    One connection serves all threads of a process, one query at a time (a query takes
    milliseconds), so threaded servers share it safely.
    """

    def __init__(self, entries: Iterable[Entry]) -> None:
        self.entries = list(entries)
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        self._lock = threading.Lock()
        self.db.execute(
            "CREATE VIRTUAL TABLE faq USING fts5(question, keywords, answer, details, parts, tokenize='unicode61')"
        )
        self.vocabulary = sorted({w for e in self.entries for w in words(self._text(e))})
        self._known = set(self.vocabulary)
        rows = []
        for number, entry in enumerate(self.entries):
            texts = [entry.question, " ".join(entry.keywords), entry.answer, entry.details]
            folded = [" ".join(words(t)) for t in texts]
            parts = " ".join(part for w in words(" ".join(texts)) for part in self.split_compound(w))
            rows.append((number, *folded, parts))
        self.db.executemany("INSERT INTO faq(rowid, question, keywords, answer, details, parts) VALUES (?, ?, ?, ?, ?, ?)", rows)
        self.db.commit()

    @staticmethod
    def _text(entry: Entry) -> str:
        """Return every searchable text of an entry."""
        return " ".join([entry.question, *entry.keywords, entry.answer, entry.details])

    def split_compound(self, word: str) -> list[str]:
        """Return the two known words a long compound is made of (Handkarten: hand, karten), if any."""
        if len(word) < 7:
            return []
        for cut in range(3, len(word) - 2):
            head, tail = word[:cut], word[cut:]
            tail = tail[1:] if tail.startswith("s") and tail[1:] in self._known and head in self._known else tail
            if head in self._known and tail in self._known:
                return [head, tail]
        return []

    @lru_cache(maxsize=4096)
    def _close(self, word: str) -> tuple[str, ...]:
        """Return index words spelt nearly like a word nobody wrote (typo tolerance)."""
        return tuple(difflib.get_close_matches(word, self.vocabulary, n=3, cutoff=0.8))

    def groups(self, query: str) -> list[frozenset[str]]:
        """Return, for each meaningful word of a query, the prefixes that stand for it.

        A word stands for its stem, its synonyms, the parts of a compound the index does not
        know and, for words of four letters or more, near spellings (typo tolerance).
        """
        found: list[frozenset[str]] = []
        for word in words(query):
            if word in STOPWORDS or (len(word) < 2 and not word.isdigit()):
                continue
            candidates = {word}
            for group in SYNONYMS:
                if word in group or stem(word) in {stem(w) for w in group}:
                    candidates |= group
            if not any(v.startswith(stem(word)) for v in self.vocabulary):
                candidates |= set(self.split_compound(word))
                if len(word) >= MIN_TYPO_LENGTH:
                    candidates |= set(self._close(word))
            group_terms = frozenset(stem(c) for c in candidates)
            if group_terms not in found:
                found.append(group_terms)
        return found

    def terms(self, query: str) -> frozenset[str]:
        """Return the prefixes to look for: stems of the query's words, their synonyms, parts and near spellings."""
        return frozenset(term for group in self.groups(query) for term in group)

    def search(self, query: str, *, game: str, lang: str, limit: int = 10) -> list[Hit]:
        """Return the entries of one game and language that answer a query, best first."""
        groups = self.groups(query)
        terms = frozenset(term for group in groups for term in group)
        if not terms:
            return []
        match = " OR ".join(f'"{term}"*' for term in sorted(terms))
        weights = ", ".join(str(w) for w in WEIGHTS)
        with self._lock:
            rows = self.db.execute(
                f"SELECT rowid, bm25(faq, {weights}) FROM faq WHERE faq MATCH ? ORDER BY bm25(faq, {weights})",
                (match,),
            ).fetchall()
        hits: list[Hit] = []
        for rowid, rank in rows:
            entry = self.entries[rowid]
            if entry.game != game or entry.lang != lang:
                continue
            covered = self._coverage(entry, groups)
            hits.append(Hit(entry=entry, score=-rank * (1 + covered), terms=terms))
        hits.sort(key=lambda hit: hit.score, reverse=True)
        return hits[:limit]

    def _coverage(self, entry: Entry, groups: list[frozenset[str]]) -> float:
        """Return the share of query words the question and keywords contain: several words matching beats one.

        Synonyms of one word count once, so an entry listing many of them is not favoured.
        """
        own = words(entry.question + " " + " ".join(entry.keywords))
        return sum(1 for group in groups if any(w.startswith(term) for term in group for w in own)) / len(groups)


def top_ids(index: Index, query: str, game: str, lang: str, count: int = 3) -> Sequence[str]:
    """Return the ids of the best few answers (what the evaluation scores)."""
    return [hit.entry.id for hit in index.search(query, game=game, lang=lang, limit=count)]
