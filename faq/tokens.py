"""The one definition of the FAQ's tokens: how a text becomes the words and stems the search compares.

The server's index and the offline index shipped to the browser are both built from these
functions, so a word means the same on both sides. Text is folded (case, accents, ß, and in
German the spellings ae/oe/ue), spelling variants become one word (Happy-Man, Happyman,
Happy Man), and every meaningful word is cut to its stem by the Snowball stemmer of the
entry's language.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from functools import cache

import Stemmer

LANGUAGE_NAMES = {"de": "german", "en": "english"}
"""The Snowball algorithm of each FAQ language."""

SPELLINGS: dict[str, tuple[tuple[str, str], ...]] = {
    "de": (("ae", "a"), ("oe", "o"), ("ue", "u")),
    "en": (),
}
"""Spellings of one letter, per language: German writes ä as ae without umlaut keys (so does Snowball's German stemmer)."""

PHRASES: tuple[tuple[str, str], ...] = (
    (r"happy[\s-]*m[ae]n+", "happyman"),
    (r"golden(?:e|en)?[\s-]*(?:12|zwoe?lf|zwoe?lfen|twelve)s?", "golden12"),
    (r"\bg[\s-]?12\b", "golden12"),
    (r"\bpick(?:s|ed|ing)?[\s-]+up\b", "draw"),
    (r"\b(?:2|zwei|two)[\s-]*(?:ziehen|zieh|draw)\b|\bzieh[\s-]*(?:2|zwei)\b|\bdraw[\s-]*(?:2|two)\b|\+2", "drawtwo"),
    (r"\b2er\b|\bzweier\b", "drawtwo"),
    (r"mrs\.?[\s-]*claus|frau[\s-]*claus|mrs\.?[\s-]*santa|missis[\s-]*claus", "mrsclaus"),
    (r"santa[\s-]*claus", "santa"),
    (r"\b(?:8|eight|acht)[\s-]*(?:nights|nae?chte|nacht)\b", "8nights"),
    (r"\b(?:8|eight|acht)[\s-]*(?:players|spieler)\b", "8players"),
    (r"\bday[\s-]*cards?\b|\btages[\s-]*karten?\b|\bholiday[\s-]*cards?\b", "tageskarte"),
    (r"\bauf[\s-]+einmal\b|\bat[\s-]+(?:the[\s-]+)?same[\s-]+time\b|\bat[\s-]+once\b", "gleichzeitig"),
    (r"\bcard[\s-]*blessing\b", "kartensegen"),
    (r"\bcard[\s-]*swap\b", "kartentausch"),
    (r"\bquick[\s-]*mode\b", "schnellmodus"),
    (r"\bhouse[\s-]*rules?\b", "hausregel"),
    (r"\bhand[\s-]*bonus\b", "handbonus"),
    (r"\b12[\s-]*days\b", " "),
    (r"\bwieviel", "wie viel"),
    *((rf"\bzu[\s-]+{word}\b", f"{number} personen")
      for number, word in enumerate(("zweit", "dritt", "viert", "fue?nft", "sechst", "siebt", "acht"), start=2)),
)
"""Spellings of one thing that should count as one word, after folding (patterns both Python and JavaScript read alike)."""

SYNONYMS: tuple[tuple[str, ...], ...] = tuple(
    tuple(group.split())
    for group in (
        "passen pass passe passt passing aussetzen aussetze skip skipping schieben kreuz kreuze kreuzchen cross crosses",
        "beenden beende beendet ausgehen rausgehen raus fertig finish finisher finished finishing out",
        "strafpunkte minuspunkte penalty strafe",
        "halbieren halbiert halbe halb halfte halve halves halving half",
        "ziehen nachziehen nachnehmen gezogen draw draws drawing drew drawn",
        "ablegen legen gelegt abgelegt lay laying laid play put puts ausspielen ausgespielt hauen schmeissen",
        "gewinnt gewinnen gewonnen gewinner sieger win wins won winner winning siegt",
        "gleichstand unentschieden tie ties tied gleichauf",
        "topf pott jackpot pot",
        "verschenken schenken geschenk gift gifts give gives schenkt",
        "mehrheit meiste meisten most majority majorities",
        "ruckgangig undo zuruck",
        "korrigieren korrektur korrigiert correct correction fix falsch wrong vertippt fehler mistake mistakes",
        "handkarten hand blatt",
        "zahlt wert worth value values count counts score scores wertung",
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
        "gleiche gleichen dieselbe dieselben derselben selbe same identical duplicate duplicates doppelt doppelte",
        "karte karten card cards",
        "punkte punkt points point",
        "tag tage day days",
        "viel viele vielen many much",
        "santa weihnachtsmann nikolaus",
        "gleichzeitig zugleich simultaneous simultaneously",
        "50 50er funfziger fifty",
        "anfang beginn begin beginning start",
        "behalten zuruckhalten keep",
        "ende schluss end",
        "ausweichen umgehen vermeiden avoid dodge",
        "eintragen eingeben eintippen notieren erfassen enter input",
        "schnellmodus schnell schneller quick fast faster",
        "gesamt insgesamt overall total",
        "alle jeder jede everyone everybody all",
    )
)
"""Words a player may use for the same thing, in either language: each group is one token, named by its first word."""

STOPWORDS = frozenset(
    """
    a an and are as at be by can could do does for from get got how i if in is it me my of on or so that the
    then this to was what when where which who why will with you your
    ab aber als am an auch auf aus bei bin bis da dann darf das dass dem den der des die dir du durch
    ein eine einem einen einer es fur gibt hab habe hat hatte ich ihr im in ist ja jetzt kann konnen man mich
    mir mit muss nach nicht noch nur ob oder sich sie sind so soll um und uns was weil wenn wer wie wieso wir
    wird zu zum zur
    er ne ner nen nem nes eig eigentlich mal denn halt eh hin geht gehts gibts
    we us our they their now just its im there happen happens happened have has had been into than too very
    """.split()
)
"""Words that say nothing about which answer is meant, in either language (written folded, without umlauts)."""

_stemmers = {lang: Stemmer.Stemmer(name) for lang, name in LANGUAGE_NAMES.items()}
_stemming = threading.Lock()


def fold(text: str, lang: str) -> str:
    """Return text lower-cased, without accents, ß as ss, the language's spellings unified and variants joined.

    >>> fold("Darf ich mit der Goldenen Zwölf ausgehen? Happy Man, Fußball, Maerchen", "de")
    'darf ich mit der golden12 ausgehen? happyman, fussball, marchen'
    >>> fold("Blue cards", "en"), fold("Blue cards", "de")
    ('blue cards', 'blu cards')
    """
    text = text.lower().replace("ß", "ss")
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    for spelling, letter in SPELLINGS[lang]:
        text = text.replace(spelling, letter)
    for pattern, replacement in PHRASES:
        text = re.sub(pattern, replacement, text)
    return text


def words(text: str, lang: str) -> list[str]:
    """Return the folded words of a text."""
    return re.findall(r"[a-z0-9]+", fold(text, lang))


@cache
def stopwords(lang: str) -> frozenset[str]:
    """Return the stopwords folded as the language folds its text."""
    return frozenset(word for stopword in STOPWORDS for word in words(stopword, lang))


def meaningful(word: str, lang: str) -> bool:
    """Tell whether a folded word can say which answer is meant: no stopword, no lone letter."""
    return word not in stopwords(lang) and (len(word) > 1 or word.isdigit())


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


@cache
def concepts(lang: str) -> dict[str, str]:
    """Return the token of each synonym's stem: the stem of its group's first word (the first group wins a stem)."""
    found: dict[str, str] = {}
    for group in SYNONYMS:
        stems = [stem(folded, lang) for synonym in group for folded in words(synonym, lang)]
        for each in stems:
            found.setdefault(each, stems[0])
    return found


def term(word: str, lang: str) -> str:
    """Return the token a folded word is looked up by: its synonym group's, or else its own stem.

    >>> term("aussetzen", "de"), term("skip", "de"), term("halbierte", "de"), term("halving", "en")
    ('pass', 'pass', 'halbi', 'halbieren')
    """
    own = stem(word, lang)
    return concepts(lang).get(own, own)


def tokens(text: str, lang: str) -> list[str]:
    """Return what the index stores for a text: each meaningful word's stem and, for a synonym, its group's token.

    The stem stays so that a word still being typed finds it; a whole word is looked up by its term.

    >>> tokens("Wie oft darf ich aussetzen?", "de")
    ['oft', 'aussetz', 'pass']
    """
    out: list[str] = []
    for word in words(text, lang):
        if meaningful(word, lang):
            own = stem(word, lang)
            out += dict.fromkeys((own, concepts(lang).get(own, own)))
    return out
