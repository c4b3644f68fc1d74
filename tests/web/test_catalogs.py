"""The catalogs follow the texts: every text the code and templates show has its German translation.

A text that changes in a template while its catalog entry stays behind shows up in English on
a German phone; ``make messages`` marks such an entry fuzzy, and a fuzzy entry is not used.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None, "_l": None, "N_": None}
"""The functions whose first argument is a text to translate, as ``make messages`` extracts them."""


def texts_in_the_tree() -> set[str]:
    """Return every text the code and templates mark for translation, as ``babel.cfg`` finds them."""
    with (ROOT / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    found = extract_from_dir(str(ROOT), method_map, options_map, keywords=KEYWORDS)
    return {message if isinstance(message, str) else message[0] for _, _, message, _, _ in found}


def test_every_text_has_a_german_translation_that_is_not_fuzzy() -> None:
    """A missing or fuzzy entry would show the English text on a German page."""
    with (ROOT / "translations/de/LC_MESSAGES/messages.po").open("rb") as catalog:
        german = {entry.id if isinstance(entry.id, str) else entry.id[0]: entry for entry in read_po(catalog) if entry.id}
    untranslated = sorted(
        text
        for text in texts_in_the_tree()
        if text not in german
        or german[text].fuzzy
        or not (german[text].string if isinstance(german[text].string, str) else german[text].string[0])
    )
    assert not untranslated, "run make messages and translate: " + "; ".join(untranslated)
