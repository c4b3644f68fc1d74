"""Each way a player may ask, one test: folding, spelling variants, synonyms, prefixes, compounds, typos, ranking.

Small made-up entries prove a feature works without the help of keywords; the real content
proves the spelling variants the FAQ promises.
"""

from __future__ import annotations

import pytest

from faq.content import Entry, load
from faq.search import Index, fold, stem


def entry(id: str, question: str, answer: str = "Ja.", details: str = "Mehr dazu steht im Regelheft.",
          keywords: tuple[str, ...] = ()) -> Entry:
    return Entry(id=id, game="auruxxx", lang="de", topic="laying", question=question, answer=answer,
                 details=details, page="", keywords=keywords, controls=())


def ids(index: Index, query: str, game: str = "auruxxx", lang: str = "de", limit: int = 3) -> list[str]:
    return [hit.entry.id for hit in index.search(query, game=game, lang=lang, limit=limit)]


@pytest.fixture(scope="module")
def real() -> Index:
    return Index(load())


# --- folding ---------------------------------------------------------------------------------------


def test_umlaut_folding_treats_ae_a_and_ä_alike(real: Index) -> None:
    assert fold("Kästchen") == fold("Kaestchen") == fold("kastchen") == "kastchen"
    found = ids(real, "Kästchen")
    assert found
    assert ids(real, "Kaestchen") == found == ids(real, "kastchen") == ids(real, "KÄSTCHEN")


def test_umlaut_folding_for_o_and_u(real: Index) -> None:
    assert fold("Zwölf Rückgängig") == fold("Zwoelf Rueckgaengig")
    assert ids(real, "rückgängig") == ids(real, "rueckgaengig") == ids(real, "ruckgangig")
    assert ids(real, "rückgängig")[0] == "app-undo"


def test_sharp_s_folds_to_ss(real: Index) -> None:
    assert fold("Große Straße") == "grosse strasse"
    assert ids(real, "große Runde", game="12days") == ids(real, "grosse Runde", game="12days")
    assert "variant-8-players" in ids(real, "große Runde", game="12days")


# --- spelling variants -------------------------------------------------------------------------------


@pytest.mark.parametrize("spelling", ["Happy-Man", "Happyman", "Happy Man", "happy man", "HAPPYMAN", "Happy-Men"])
def test_happy_man_variants_are_one_word(real: Index, spelling: str) -> None:
    assert real.terms(f"{spelling} halbiert") == real.terms("Happy-Man halbiert")
    assert ids(real, f"was halbiert der {spelling}")[0] == "happy-man-halving"


@pytest.mark.parametrize("spelling", ["Goldene 12", "Golden 12", "G12", "g 12", "Goldene Zwölf", "goldenen 12"])
def test_g12_golden_12_variants_are_one_word(real: Index, spelling: str) -> None:
    assert real.terms(spelling) == frozenset({"golden12"})
    assert ids(real, f"wie viele {spelling} gibt es")[0] == "golden-12-in-deck"


def test_g12_variants_in_english(real: Index) -> None:
    assert ids(real, "how many G12 are there", lang="en")[0] == "golden-12-in-deck"
    assert ids(real, "how many golden twelves are there", lang="en")[0] == "golden-12-in-deck"


@pytest.mark.parametrize("spelling", ["2 ziehen", "Zieh-2", "zieh 2", "zwei ziehen", "+2", "Zieh zwei"])
def test_zieh_2_variants_are_one_word(real: Index, spelling: str) -> None:
    assert "drawtwo" in real.terms(spelling)
    assert "draw-two-card" in ids(real, f"was passiert bei {spelling}")


def test_zieh_2_variants_in_english(real: Index) -> None:
    assert "drawtwo" in real.terms("draw 2") and "drawtwo" in real.terms("draw two")
    assert "draw-two-card" in ids(real, "someone played a draw two", lang="en")


# --- synonyms ----------------------------------------------------------------------------------------


def test_synonyms_aussetzen_finds_passen() -> None:
    index = Index([entry("pass", "Wie oft darf ich passen?"), entry("other", "Wer gibt die Karten?")])
    assert ids(index, "aussetzen") == ["pass"]


def test_synonyms_beenden_finds_ausgehen() -> None:
    index = Index([entry("out", "Womit darf ich ausgehen?"), entry("other", "Wer gibt die Karten?")])
    assert ids(index, "beenden") == ["out"]
    assert ids(index, "Runde beendet") == ["out"]


def test_synonyms_strafpunkte_finds_minuspunkte() -> None:
    index = Index([entry("minus", "Wann gibt es Minuspunkte?"), entry("other", "Wer gibt die Karten?")])
    assert ids(index, "Strafpunkte") == ["minus"]


def test_synonyms_of_one_word_cover_it_once() -> None:
    """Coverage counts query words, not expanded synonyms: one word asked, one word covered."""
    index = Index([entry("pass", "Wie oft darf ich passen?", keywords=("aussetzen", "schieben", "Kreuz"))])
    groups = index.groups("aussetzen kostet")
    assert len(groups) == 2 and {"pass", "aussetz", "kreuz"} <= groups[0]
    assert index._coverage(index.entries[0], groups) == 0.5


# --- prefixes, compounds, typos --------------------------------------------------------------------------


def test_prefix_finds_longer_word() -> None:
    index = Index([entry("segen", "Was macht der Kartensegen?"), entry("other", "Wer gibt die Karten?")])
    assert ids(index, "kartens")[0] == "segen"
    assert ids(index, "Kartense") == ["segen"]
    assert stem("halbiert") == "halbier" and stem("halbieren") == "halbier"


def test_prefix_word_forms_match() -> None:
    index = Index([entry("halve", "Wer darf halbieren?"), entry("other", "Wer gibt die Karten?")])
    assert ids(index, "halbiert") == ["halve"]


def test_compound_is_split_into_known_words() -> None:
    index = Index([
        entry("count", "Welche Anzahl an Karten bekommt jeder?"),
        entry("other", "Wer gibt zuerst?"),
    ])
    assert index.split_compound("kartenanzahl") == ["karten", "anzahl"]
    assert ids(index, "Kartenanzahl") == ["count"]


def test_compound_in_real_content(real: Index) -> None:
    assert "happy-man-card" in ids(real, "Holzmännchen")


def test_typo_is_tolerated() -> None:
    index = Index([entry("pot", "Was passiert mit dem Topf?"), entry("other", "Wer gibt die Karten?")])
    assert ids(index, "topff") == ["pot"]
    assert ids(index, "Topff") == ["pot"]


def test_typo_in_real_content(real: Index) -> None:
    assert "halbier" in real.terms("happyman halbirt")
    assert "happy-man-halving" in ids(real, "happyman halbirt was genau")
    hits = real.search("happyman halbirt", game="auruxxx", lang="de", limit=3)
    assert all("halb" in (h.entry.question + h.entry.answer).lower() for h in hits)
    assert ids(real, "kartensegn")[0] == "kartensegen"


def test_typo_tolerance_leaves_short_words_alone() -> None:
    index = Index([entry("day", "Wer bekommt den Tag?")])
    assert index.terms("tay") == frozenset({"tay"})
    assert ids(index, "tay") == []


def test_colloquial_filler_words_are_ignored(real: Index) -> None:
    assert real.terms("ne ner eig mal") == frozenset()
    assert real.terms("darf man eig mit ner 7 auf ne 8") == frozenset({"7", "8"})


# --- ranking ---------------------------------------------------------------------------------------------


def test_matching_question_ranks_above_mention_in_details() -> None:
    mention = entry("mention", "Was kostet eine Aktionskarte?", details="Zum Beispiel der Kartentausch kostet 25 Punkte.")
    question = entry("question", "Was macht der Kartentausch?", answer="Du tauschst die Hand.")
    for order in ([mention, question], [question, mention]):
        assert ids(Index(order), "Kartentausch")[0] == "question"


def test_matching_question_ranks_above_mention_in_real_content(real: Index) -> None:
    found = ids(real, "Kartentausch", limit=10)
    assert found[0] == "kartentausch"
    assert "action-cards-laying" in found  # mentions Kartentausch only in passing


def test_results_stay_within_game_and_language(real: Index) -> None:
    for game, lang in (("auruxxx", "en"), ("12days", "de")):
        hits = real.search("Punkte points", game=game, lang=lang)
        assert hits and all(h.entry.game == game and h.entry.lang == lang for h in hits)


def test_empty_or_meaningless_query_finds_nothing(real: Index) -> None:
    assert ids(real, "") == [] and ids(real, "   ") == [] and ids(real, "und oder") == []
    assert ids(real, "<script>") == [] or all(isinstance(i, str) for i in ids(real, "<script>"))


def test_highlight_marks_matches_and_escapes(real: Index) -> None:
    hit = real.search("Kartentausch", game="auruxxx", lang="de")[0]
    marked = hit.highlight("Der Kartentausch & <b>mehr</b>")
    assert "<mark>Kartentausch</mark>" in marked
    assert "&amp;" in marked and "&lt;b&gt;" in marked
