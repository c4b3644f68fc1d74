"""Numbers as players write them: digits, number words, ordinals and card names all become the digits.

"drei Sechsen auf ne Sieben", "three 6s on a seven" and "3 Sechser auf eine 7" ask the same, and
the answers write "drei 6er", "three 8s" or "Zehnen". num2words spells each number the way a
language writes it, and the card names follow from the spelling by the language's endings, so
every form maps back to its digits, in the entries as in the questions.
"""

from __future__ import annotations

from collections.abc import Callable

from num2words import num2words

CARDINALS = (*range(21), *range(30, 101, 10))
"""Every number a card, a day, a score or a count in the FAQ is likely to be said as, with the names of its cards."""
COMPOUNDS = tuple(number for number in range(21, 100) if number % 10)
"""Scores said in words ("fünfundvierzig"): no card bears them, so they have no card names. English writes them
in two words ("forty five", "forty-five"), which the folding joins once each is digits (faq.tokens)."""
ORDINALS = {"de": range(2, 21), "en": range(3, 21)}
"""Ordinals read as numbers: "am dritten Tag", "zu viert", "the twelfth day". "erste", "first" and
"second" mostly mean something else ("who goes first"), so they stay words."""
CARD_ENDINGS = {"de": ("er", "ern", "ers", "en", "n"), "en": ("s", "es")}
"""How a number becomes the name of its cards: "Sechser", "Sechsen", "Zehnern"; "sixes", "sevens"."""
SHORT_CARD_ENDINGS = {"de": ("er", "ern", "ers"), "en": ()}
"""The card names German says without the e of a number's final "-en": "Siebner", "Siebnern" (as well as "Siebener")."""
ORDINAL_ENDINGS = {"de": ("", "n", "r", "m", "s"), "en": ("",)}
"""The declined forms of an ordinal: "dritte", "dritten", "dritter"."""
NICKNAMES = {"de": {}, "en": {"deuce": 2}}
"""Card names no number word spells, with their number: English card players call a two a deuce ("two deuces")."""
DIGIT_ENDINGS = {"de": ("er", "ern", "ers", "en", "te", "ten", "ter"), "en": ("s", "es", "th", "st", "nd", "rd")}
"""Endings written straight after digits: "6er", "3ern", "12ten"; "8s", "12th"."""


def number_words(lang: str, fold: Callable[[str], str]) -> dict[str, str]:
    """Return every way a language writes the numbers players use, folded, with the digits each stands for.

    >>> words = number_words("de", str.lower)
    >>> words["sechsen"], words["dreier"], words["zwölf"], words["dritten"], words["6er"], words["siebt"], words["siebnern"]
    ('6', '3', '12', '3', '6', '7', '7')
    >>> words = number_words("en", str.lower)
    >>> words["sixes"], words["sevens"], words["twelve"], words["8s"], words["twelfth"], "first" in words, words["deuces"]
    ('6', '7', '12', '8', '12', False, '2')
    """
    found: dict[str, str] = {}
    for number in CARDINALS:
        word = fold(num2words(number, lang=lang))
        digits = str(number)
        for form in (word, *(word + ending for ending in CARD_ENDINGS[lang])):
            found.setdefault(form, digits)
        if word.endswith("en"):
            for ending in SHORT_CARD_ENDINGS[lang]:
                found.setdefault(word[:-2] + "n" + ending, digits)
        for ending in DIGIT_ENDINGS[lang]:
            found.setdefault(digits + ending, digits)
    for name, number in NICKNAMES[lang].items():
        for form in (name, *(name + ending for ending in CARD_ENDINGS[lang])):
            found.setdefault(fold(form), str(number))
    for number in COMPOUNDS:
        found.setdefault(fold(num2words(number, lang=lang)), str(number))
    for number in ORDINALS[lang]:
        word = fold(num2words(number, lang=lang, to="ordinal"))
        stem = word[:-1] if lang == "de" and word.endswith("e") else word
        for form in (stem, *(word + ending for ending in ORDINAL_ENDINGS[lang])):
            found.setdefault(form, str(number))
    return {form: digits for form, digits in found.items() if form.isalnum()}
