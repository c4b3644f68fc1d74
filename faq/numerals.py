"""Numbers as players write them: digits, number words, ordinals and card names all become the digits.

"drei Sechsen auf ne Sieben", "three 6s on a seven" and "3 Sechser auf eine 7" ask the same, and
the answers write "drei 6er", "three 8s" or "Zehnen". num2words spells each number the way a
language writes it, and the card names follow from the spelling by the language's endings, so
every form maps back to its digits, in the entries as in the questions.
"""

from __future__ import annotations

from collections.abc import Callable

from num2words import num2words

CARDINALS = tuple(range(0, 101))
"""Every number a card, a day, a score or a count in the FAQ is likely to be said as: "fünfundvierzig", "forty-five"."""
TENS, UNITS = range(20, 100, 10), range(1, 10)
"""The parts English writes a number of 21 to 99 in, apart: "forty five", "forty-five"."""
ORDINALS = {"de": range(2, 21), "en": range(3, 21)}
"""Ordinals read as numbers: "am dritten Tag", "zu viert", "the twelfth day". "erste", "first" and
"second" mostly mean something else ("who goes first"), so they stay words."""
CARD_ENDINGS = {"de": ("er", "ern", "ers", "en", "n"), "en": ("s", "es")}
"""How a number becomes the name of its cards: "Sechser", "Sechsen", "Zehnern"; "sixes", "sevens"."""
ORDINAL_ENDINGS = {"de": ("", "n", "r", "m", "s"), "en": ("",)}
"""The declined forms of an ordinal: "dritte", "dritten", "dritter"."""
DIGIT_ENDINGS = {"de": ("er", "ern", "ers", "en", "te", "ten", "ter"), "en": ("s", "es", "th", "st", "nd", "rd")}
"""Endings written straight after digits: "6er", "3ern", "12ten"; "8s", "12th"."""


def number_words(lang: str, fold: Callable[[str], str]) -> dict[str, str]:
    """Return every way a language writes the numbers players use, folded, with the digits each stands for.

    >>> words = number_words("de", str.lower)
    >>> words["sechsen"], words["dreier"], words["zwölf"], words["dritten"], words["6er"], words["siebt"]
    ('6', '3', '12', '3', '6', '7')
    >>> words = number_words("en", str.lower)
    >>> words["sixes"], words["sevens"], words["twelve"], words["8s"], words["twelfth"], "first" in words
    ('6', '7', '12', '8', '12', False)
    """
    found: dict[str, str] = {}
    for number in CARDINALS:
        word = fold(num2words(number, lang=lang)).replace("-", "")
        digits = str(number)
        for form in (word, *(word + ending for ending in CARD_ENDINGS[lang])):
            found.setdefault(form, digits)
        for ending in DIGIT_ENDINGS[lang]:
            found.setdefault(digits + ending, digits)
    for number in ORDINALS[lang]:
        word = fold(num2words(number, lang=lang, to="ordinal"))
        stem = word[:-1] if lang == "de" and word.endswith("e") else word
        for form in (stem, *(word + ending for ending in ORDINAL_ENDINGS[lang])):
            found.setdefault(form, str(number))
    return {form: digits for form, digits in found.items() if form.isalnum()}


def compound_numbers(lang: str) -> tuple[tuple[str, str], ...]:
    """Return the phrases that join a number said in two words, once each word is its digits: "forty five" (40 5) is 45.

    German writes such numbers as one word ("fünfundvierzig"), which number_words reads whole.

    >>> import re
    >>> [re.sub(pattern, means, "40 5 or 90-9") for pattern, means in compound_numbers("en") if re.search(pattern, "40 5 or 90-9")]
    ['45 or 90-9', '40 5 or 99']
    >>> compound_numbers("de")
    ()
    """
    if lang != "en":
        return ()
    return tuple((rf"\b{tens}[\s-]+{unit}\b", str(tens + unit)) for tens in TENS for unit in UNITS)
