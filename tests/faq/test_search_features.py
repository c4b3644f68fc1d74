"""Each way a player may ask, one test: folding, stemming, spelling variants, synonyms, prefixes, compounds, typos, ranking.

Small made-up entries prove a feature works without the help of keywords; the real content
proves the spelling variants the FAQ promises.
"""

from __future__ import annotations

import pytest

from faq.content import Entry, load
from faq.search import Index, near
from faq.tokens import fold, stem, term, tokens


def entry(id: str, question: str, answer: str = "Ja.", details: str = "Mehr dazu steht im Regelheft.",
          keywords: tuple[str, ...] = ()) -> Entry:
    return Entry(id=id, game="auruxxx", lang="de", topic="laying", question=question, answer=answer,
                 details=details, page="", keywords=keywords, controls=())


def english(id: str, question: str) -> Entry:
    return Entry(id=id, game="auruxxx", lang="en", topic="laying", question=question, answer="Yes.",
                 details="The rulebook says more.", page="", keywords=(), controls=())


def ids(index: Index, query: str, game: str = "auruxxx", lang: str = "de", limit: int = 3) -> list[str]:
    return [hit.entry.id for hit in index.search(query, game=game, lang=lang, limit=limit)]


def terms(index: Index, query: str, game: str = "auruxxx", lang: str = "de") -> frozenset[str]:
    return index.terms(query, game=game, lang=lang)


@pytest.fixture(scope="module")
def real() -> Index:
    return Index(load())


# --- folding ---------------------------------------------------------------------------------------


def test_umlaut_folding_treats_ae_a_and_ä_alike(real: Index) -> None:
    assert fold("Kästchen", "de") == fold("Kaestchen", "de") == fold("kastchen", "de") == "kastchen"
    found = ids(real, "Kästchen")
    assert found
    assert ids(real, "Kaestchen") == found == ids(real, "kastchen") == ids(real, "KÄSTCHEN")


def test_umlaut_folding_for_o_and_u(real: Index) -> None:
    assert fold("Zwölf Rückgängig", "de") == fold("Zwoelf Rueckgaengig", "de")
    assert ids(real, "rückgängig") == ids(real, "rueckgaengig") == ids(real, "ruckgangig")
    assert ids(real, "rückgängig")[0] == "app-undo"


def test_sharp_s_folds_to_ss(real: Index) -> None:
    assert fold("Große Straße", "de") == "grosse strasse"
    assert ids(real, "große Runde", game="12days") == ids(real, "grosse Runde", game="12days")
    assert "variant-8-players" in ids(real, "große Runde", game="12days")


# --- spelling variants -------------------------------------------------------------------------------


@pytest.mark.parametrize("spelling", ["Happy-Man", "Happyman", "Happy Man", "happy man", "HAPPYMAN", "Happy-Men"])
def test_happy_man_variants_are_one_word(real: Index, spelling: str) -> None:
    assert terms(real, f"{spelling} halbiert") == terms(real, "Happy-Man halbiert")
    assert ids(real, f"was halbiert der {spelling}") == ids(real, "was halbiert der Happy-Man")
    assert "happy-man-halving" in ids(real, f"was halbiert der {spelling}")


@pytest.mark.parametrize("spelling", ["Goldene 12", "Golden 12", "G12", "g 12", "Goldene Zwölf", "goldenen 12"])
def test_g12_golden_12_variants_are_one_word(real: Index, spelling: str) -> None:
    assert terms(real, spelling) == frozenset({"golden12"})
    assert ids(real, f"wie viele {spelling} gibt es")[0] == "golden-12-in-deck"


def test_g12_variants_in_english(real: Index) -> None:
    assert ids(real, "how many G12 are there", lang="en")[0] == "golden-12-in-deck"
    assert ids(real, "how many golden twelves are there", lang="en")[0] == "golden-12-in-deck"


@pytest.mark.parametrize("spelling", ["2 ziehen", "Zieh-2", "zieh 2", "zwei ziehen", "+2", "Zieh zwei"])
def test_zieh_2_variants_are_one_word(real: Index, spelling: str) -> None:
    assert "drawtwo" in terms(real, spelling)
    assert "draw-two-card" in ids(real, f"was passiert bei {spelling}")


def test_zieh_2_variants_in_english(real: Index) -> None:
    assert "drawtwo" in terms(real, "draw 2", lang="en") and "drawtwo" in terms(real, "draw two", lang="en")
    assert "draw-two-card" in ids(real, "someone played a draw two", lang="en")


# --- stemming -------------------------------------------------------------------------------------------


def test_each_language_is_stemmed_by_its_own_snowball_stemmer() -> None:
    assert stem("beendet", "de") == stem("beenden", "de") == "beend"
    assert stem("played", "en") == stem("playing", "en") == "play"
    assert stem("halving", "en") == stem("halves", "en") == "halv"


def test_english_words_keep_their_ue() -> None:
    """Only German writes ü as ue: "blue" stays "blue" in English, and "Rueckgaengig" is "rückgängig" in German."""
    assert fold("blue true queue", "en") == "blue true queue"
    assert stem("blue", "en") == "blue" and "blue" in tokens("The blue cards", "en")
    assert fold("Rueckgaengig", "de") == fold("Rückgängig", "de") == "ruckgangig"


def test_word_forms_in_english_match() -> None:
    index = Index([english("halve", "Who may halve a round?"), english("other", "Who deals the cards?")])
    assert ids(index, "halving", lang="en") == ["halve"]
    assert ids(index, "halved", lang="en") == ["halve"]


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


def test_synonyms_bridge_the_languages() -> None:
    """A German word finds an English entry and the other way round, as players mix them at the table."""
    index = Index([entry("pass", "Wie oft darf ich passen?"), entry("other", "Wer gibt die Karten?"),
                   english("santa", "What is Santa worth?"), english("deal", "Who deals the cards?")])
    assert ids(index, "skip") == ["pass"]
    assert ids(index, "Weihnachtsmann", lang="en") == ["santa"]


def test_synonyms_are_one_token_in_either_language() -> None:
    """A synonym group is one word to the index: an entry naming several of them does not count them several times."""
    assert {term(word, "de") for word in ("aussetzen", "passen", "skip", "kreuz")} == {"pass"}
    assert tokens("Wie oft darf ich aussetzen?", "de") == ["oft", "aussetz", "pass"]


def test_synonyms_of_one_word_cover_it_once() -> None:
    """Coverage counts query words, not expanded synonyms: one word asked, one word covered."""
    index = Index([entry("pass", "Wie oft darf ich passen?", keywords=("aussetzen", "schieben", "Kreuz"))])
    groups = index.groups("aussetzen kostet", game="auruxxx", lang="de")
    assert groups == [frozenset({"pass"}), frozenset({"kostet"})]
    assert index.sections[("auruxxx", "de")].coverage(0, groups) == 0.5


# --- prefixes, compounds, typos --------------------------------------------------------------------------


def test_prefix_finds_longer_word() -> None:
    index = Index([entry("segen", "Was macht der Kartensegen?"), entry("other", "Wer gibt die Karten?")])
    assert ids(index, "kartens")[0] == "segen"
    assert ids(index, "Kartense") == ["segen"]


def test_word_being_typed_also_means_the_known_word_one_letter_longer() -> None:
    """"Weihnachtsman" may be typed on, or may miss an n: it finds the Weihnachtsmann, and so Santa."""
    index = Index([entry("santa", "Was zählt Santa?"), entry("role", "Wer spielt den Weihnachtsmann?"), entry("other", "Wer gibt?")])
    assert terms(index, "weihnachtsman") == {"weihnachtsman*", term("santa", "de")}
    assert set(ids(index, "weihnachtsman")) == {"santa", "role"}


def test_unknown_word_is_cut_back_to_the_known_word_it_extends() -> None:
    index = Index([entry("out", "Wann darf ich rausgehen?"), entry("other", "Wer gibt die Karten?")])
    assert terms(index, "rausgehn") == {"rausgehn", term("rausgehen", "de")}
    assert ids(index, "rausgehn") == ["out"]


def test_neighbours_that_make_a_known_word_are_joined(real: Index) -> None:
    assert terms(real, "Karten Tausch") == terms(real, "Kartentausch")
    assert ids(real, "Karten Tausch")[0] == "kartentausch"


def test_prefix_word_forms_match() -> None:
    index = Index([entry("halve", "Wer darf halbieren?"), entry("other", "Wer gibt die Karten?")])
    assert ids(index, "halbiert") == ["halve"]


def test_compound_is_split_into_known_words() -> None:
    index = Index([
        entry("count", "Welche Anzahl an Karten bekommt jeder?"),
        entry("other", "Wer gibt zuerst?"),
    ])
    section = index.sections[("auruxxx", "de")]
    assert section.compound("kartenanzahl") == {term("karten", "de"), term("anzahl", "de")}
    assert ids(index, "Kartenanzahl") == ["count"]


def test_compound_may_start_with_the_start_of_a_known_word() -> None:
    index = Index([entry("figure", "Was macht die Holzfigur?", details="Das Männchen wandert."), entry("other", "Wer gibt?")])
    assert index.sections[("auruxxx", "de")].compound("holzmannchen") == {"holz*", term("mannchen", "de")}
    assert ids(index, "Holzmännchen") == ["figure"]


def test_compound_in_real_content(real: Index) -> None:
    assert "happy-man-card" in ids(real, "Holzmännchen")


def test_typo_is_tolerated() -> None:
    index = Index([entry("pot", "Was passiert mit dem Topf?"), entry("other", "Wer gibt die Karten?")])
    assert ids(index, "topff") == ["pot"]
    assert ids(index, "Topff") == ["pot"]


def test_typo_in_real_content(real: Index) -> None:
    assert term("halbiert", "de") in terms(real, "happyman halbirt")
    assert "happy-man-halving" in ids(real, "happyman halbirt was genau")
    hits = real.search("happyman halbirt", game="auruxxx", lang="de", limit=3)
    assert all("halb" in (h.entry.question + h.entry.answer).lower() for h in hits)
    assert ids(real, "kartensegn")[0] == "kartensegen"


@pytest.mark.parametrize("typo", ["hapy man", "happy mna", "hapyman", "Happy-Mann"])
def test_misspelt_happy_man_finds_the_happy_man(real: Index, typo: str) -> None:
    assert terms(real, typo) >= {"happyman"}
    assert "happy-man-halving" in ids(real, f"{typo} halbiert")
    assert "happy-man-halving" in ids(real, f"what does the {typo} halve", lang="en")


def test_one_typo_means_one_letter_wrong_swapped_missing_or_extra() -> None:
    assert near("topf", "topff") and near("kreuz", "kruez") and near("passen", "pasen") and near("bonus", "bnous")
    assert not near("karte", "kurze") and not near("pass", "past12") and not near("card", "kart")


def test_typo_tolerance_leaves_short_words_alone() -> None:
    index = Index([entry("day", "Wer bekommt den Tag?")])
    assert terms(index, "tay") == frozenset({"tay"})
    assert ids(index, "tay") == []


def test_colloquial_filler_words_are_ignored(real: Index) -> None:
    assert terms(real, "ne ner eig mal") == frozenset()
    assert terms(real, "darf man eig mit ner 7 auf ne 8") == frozenset({"7", "8"})


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
