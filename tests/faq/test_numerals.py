"""Number words and back: every cardinal num2words spells for the FAQ reads back as its digits with text2num.

The FAQ turns "sechs", "twelve" and their card names into digits (faq.numerals, from num2words);
text2num is a second, independent reader of number words, so the two must agree on each word.
"""

from __future__ import annotations

import pytest
from num2words import num2words
from text_to_num import text2num

from faq.numerals import CARDINALS, COMPOUNDS, number_words
from faq.tokens import Folding, plain


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_cardinal_reads_back_as_its_digits(lang: str) -> None:
    folding = Folding(lang, number_words(lang, lambda text: plain(text, lang)))
    for number in (*CARDINALS, *COMPOUNDS):
        spelt = num2words(number, lang=lang)
        assert text2num(spelt, lang) == number
        if " " not in spelt:  # "one hundred" is a number and a word, and no card, day or score says it
            assert folding.fold(spelt) == str(number), spelt


@pytest.mark.parametrize(
    ("lang", "card", "digits"),
    [
        ("de", "Sechsen", "6"),
        ("de", "Sechser", "6"),
        ("de", "Dreiern", "3"),
        ("de", "Zwölfen", "12"),
        ("de", "Einsen", "1"),
        ("en", "sixes", "6"),
        ("en", "sevens", "7"),
        ("en", "twelves", "12"),
        ("en", "ones", "1"),
    ],
)
def test_card_names_are_their_number(lang: str, card: str, digits: str) -> None:
    assert number_words(lang, lambda text: plain(text, lang))[plain(card, lang)] == digits
