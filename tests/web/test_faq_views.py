"""Every FAQ address: the start page, a game's questions, one answer, search (page, fragment, JSON), offline files."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from faq.content import load
from tests.helpers import HTMX
from views.site.faq import index as faq_index

JSON = {"Accept": "application/json"}
GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}
ENGLISH = {"Accept-Language": "en-GB,en;q=0.9"}


def faq_of(app):  # type: ignore[no-untyped-def]
    """Return the FAQ an app searches."""
    with app.app_context():
        return faq_index()


def entries(game: str, lang: str) -> list[object]:
    return [e for e in load() if e.game == game and e.lang == lang]


def test_start_page_links_both_games(plain_client: FlaskClient) -> None:
    response = plain_client.get("/faq", headers=GERMAN)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert 'href="/faq/auruxxx"' in html and 'href="/faq/12days"' in html


@pytest.mark.parametrize("game", ["auruxxx", "12days"])
def test_game_page_lists_every_question_in_the_ui_language(plain_client: FlaskClient, game: str) -> None:
    for headers, lang in ((GERMAN, "de"), (ENGLISH, "en")):
        html = plain_client.get(f"/faq/{game}", headers=headers).get_data(as_text=True)
        assert 'class="faq-search"' in html and f'data-lang="{lang}"' in html
        assert html.count("<summary>") == len(entries(game, lang))
        assert "js/faq-offline.js" in html


def test_game_page_of_unknown_game_is_404(plain_client: FlaskClient) -> None:
    assert plain_client.get("/faq/monopoly").status_code == 404


def test_control_filter_shows_only_that_controls_questions(plain_client: FlaskClient) -> None:
    html = plain_client.get("/faq/auruxxx?control=passes", headers=ENGLISH).get_data(as_text=True)
    wanted = [e for e in entries("auruxxx", "en") if "passes" in e.controls]  # type: ignore[attr-defined]
    assert 0 < len(wanted) < len(entries("auruxxx", "en"))
    assert html.count("<summary>") == len(wanted)
    for entry in wanted:
        assert f"/faq/auruxxx/{entry.id}" in html  # type: ignore[attr-defined]
    assert 'href="/faq/auruxxx"' in html  # the way back to all questions


def test_control_filter_for_12days(plain_client: FlaskClient) -> None:
    html = plain_client.get("/faq/12days?control=claus", headers=GERMAN).get_data(as_text=True)
    wanted = [e for e in entries("12days", "de") if "claus" in e.controls]  # type: ignore[attr-defined]
    assert html.count("<summary>") == len(wanted) > 0


def test_unknown_control_shows_no_questions(plain_client: FlaskClient) -> None:
    response = plain_client.get("/faq/auruxxx?control=nonsense")
    assert response.status_code == 200
    assert "<summary>" not in response.get_data(as_text=True)


def test_entry_page_shows_one_answer(plain_client: FlaskClient) -> None:
    response = plain_client.get("/faq/auruxxx/fourth-pass", headers=GERMAN)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "Darf ich ein viertes Mal passen?" in html
    assert "Nach drei Kreuzen in einer Runde" in html


def test_entry_page_follows_lang_parameter(plain_client: FlaskClient) -> None:
    html = plain_client.get("/faq/12days/pot-grows?lang=en", headers=GERMAN).get_data(as_text=True)
    assert "Can the pot build up over several days?" in html


@pytest.mark.parametrize("address", ["/faq/auruxxx/no-such-entry", "/faq/12days/fourth-pass", "/faq/monopoly/fourth-pass"])
def test_entry_page_of_unknown_entry_is_404(plain_client: FlaskClient, address: str) -> None:
    assert plain_client.get(address).status_code == 404


# --- search ----------------------------------------------------------------------------------------


def test_search_json_shape_and_order(plain_client: FlaskClient) -> None:
    response = plain_client.get("/faq/search?q=wie+oft+passen&game=auruxxx&lang=de", headers=JSON)
    assert response.status_code == 200 and response.is_json
    assert "Accept" in response.headers["Vary"]
    found = response.get_json()
    assert isinstance(found, list) and 1 <= len(found) <= 10
    for item in found:
        assert set(item) == {"id", "game", "lang", "question", "answer", "page"}
        assert item["game"] == "auruxxx" and item["lang"] == "de"
    assert found[0]["id"] == "passing-limit-and-cost"
    assert found[0]["page"] == "1"
    assert len({item["id"] for item in found}) == len(found)


def test_search_json_order_is_the_index_order(plain_client: FlaskClient, plain_app) -> None:  # type: ignore[no-untyped-def]
    query = "santa und mrs claus"
    found = plain_client.get(f"/faq/search?q={query}&game=12days&lang=de", headers=JSON).get_json()
    index = faq_of(plain_app)
    assert [item["id"] for item in found] == [h.entry.id for h in index.search(query, game="12days", lang="de")]


def test_search_lang_parameter_overrides_ui_language(plain_client: FlaskClient) -> None:
    english = plain_client.get("/faq/search?q=skip&game=auruxxx&lang=en", headers={**JSON, **GERMAN}).get_json()
    assert english and {item["lang"] for item in english} == {"en"}
    german = plain_client.get("/faq/search?q=passen&game=auruxxx&lang=de", headers={**JSON, **ENGLISH}).get_json()
    assert german and {item["lang"] for item in german} == {"de"}


def test_search_without_lang_uses_ui_language(plain_client: FlaskClient) -> None:
    found = plain_client.get("/faq/search?q=pot&game=12days", headers={**JSON, **ENGLISH}).get_json()
    assert found and {item["lang"] for item in found} == {"en"}


def test_search_empty_query_finds_nothing(plain_client: FlaskClient) -> None:
    assert plain_client.get("/faq/search?q=&game=auruxxx", headers=JSON).get_json() == []
    assert plain_client.get("/faq/search?q=+++&game=auruxxx", headers=JSON).get_json() == []


@pytest.mark.parametrize("address", ["/faq/search?q=passen&game=monopoly", "/faq/search?q=passen"])
def test_search_with_unknown_or_missing_game_is_400(plain_client: FlaskClient, address: str) -> None:
    assert plain_client.get(address).status_code == 400
    assert plain_client.get(address, headers=JSON).status_code == 400


def test_search_page_for_plain_request(plain_client: FlaskClient) -> None:
    response = plain_client.get("/faq/search?q=Kartentausch&game=auruxxx&lang=de")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "<html" in html and 'id="results"' in html and 'value="Kartentausch"' in html
    vary = response.headers["Vary"]
    assert "HX-Request" in vary and "Accept" in vary


def test_search_fragment_for_htmx(plain_client: FlaskClient) -> None:
    response = plain_client.get("/faq/search?q=Kartentausch&game=auruxxx&lang=de", headers=HTMX)
    assert response.status_code == 200
    html = response.get_data(as_text=True).strip()
    assert html.startswith('<section id="results"') and html.endswith("</section>")
    assert "<html" not in html and "<form" not in html
    assert 'href="/faq/auruxxx/kartentausch"' in html
    vary = response.headers["Vary"]
    assert "HX-Request" in vary and "Accept" in vary


def test_search_results_mark_matched_words(plain_client: FlaskClient) -> None:
    html = plain_client.get("/faq/search?q=Kartentausch&game=auruxxx&lang=de", headers=HTMX).get_data(as_text=True)
    assert "<mark>Kartentausch</mark>" in html
    html = plain_client.get("/faq/search?q=aussetzen&game=auruxxx&lang=de", headers=HTMX).get_data(as_text=True)
    assert re.search(r"<mark>pass\w*</mark>", html, re.IGNORECASE)  # a synonym is marked too


def test_search_escapes_the_query(plain_client: FlaskClient) -> None:
    query = '"><script>alert(1)</script>'
    for headers in ({}, HTMX):
        html = plain_client.get("/faq/search", query_string={"q": query, "game": "auruxxx"}, headers=headers).get_data(as_text=True)
        assert "<script>alert(1)</script>" not in html
    page = plain_client.get("/faq/search", query_string={"q": query, "game": "auruxxx"}).get_data(as_text=True)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


@pytest.mark.parametrize(
    ("query", "game", "lang"),
    [("what is the capital of france", "auruxxx", "en"), ("asdf qwer", "12days", "en"), ("pizza bestellen", "12days", "de")],
)
def test_a_question_the_faq_cannot_answer_gets_no_answer_and_the_topics_to_browse(
    plain_client: FlaskClient, query: str, game: str, lang: str
) -> None:
    """Off topic or gibberish gets no entry at all, said plainly, with a link to each topic of the game's FAQ instead."""
    ui = ENGLISH if lang == "en" else GERMAN
    html = plain_client.get("/faq/search", query_string={"q": query, "game": game, "lang": lang}, headers={**HTMX, **ui}).get_data(
        as_text=True
    )
    assert '<ol class="hits">' not in html and 'class="hit"' not in html
    topics = re.findall(rf'<a href="/faq/{game}(?:\?lang={lang})?#topic-([a-z0-9-]+)"', html)
    assert topics and len(topics) == len(set(topics)) >= 5, html
    assert ("No answer found" if lang == "en" else "Keine Antwort gefunden") in html
    assert plain_client.get("/faq/search", query_string={"q": query, "game": game, "lang": lang}, headers=JSON).get_json() == []


def test_search_of_punctuation_only_says_nothing_was_found(plain_client: FlaskClient) -> None:
    html = plain_client.get("/faq/search?q=%3F%21&game=auruxxx&lang=en", headers={**HTMX, **ENGLISH}).get_data(as_text=True)
    assert '<ol class="hits">' not in html and "No answer found" in html


def test_game_page_anchors_each_topic(plain_client: FlaskClient) -> None:
    html = plain_client.get("/faq/auruxxx?lang=en").get_data(as_text=True)
    assert 'id="topic-passing"' in html and 'id="topic-happy-man"' in html


def test_overlong_query_is_cut_not_refused(plain_client: FlaskClient) -> None:
    response = plain_client.get("/faq/search", query_string={"q": "passen " * 200, "game": "auruxxx"}, headers=JSON)
    assert response.status_code == 200 and response.get_json()


# --- offline -----------------------------------------------------------------------------------------


def test_offline_index_holds_each_sections_lexicon_model_and_entries(plain_client: FlaskClient) -> None:
    """The phone gets the words, phrases, model and entries of every section: everything a language needs was worked out on the server."""
    response = plain_client.get("/faq/offline-index.json")
    assert response.status_code == 200 and response.is_json
    data = response.get_json()
    assert sum(len(section["entries"]) for section in data["sections"]) == len(load())
    section = next(s for s in data["sections"] if (s["game"], s["lang"]) == ("auruxxx", "de"))
    assert {"id", "question", "answer", "page", "topic"} <= set(section["entries"][0])
    assert section["words"]["aussetzen"] == section["words"]["passen"]
    assert section["words"]["sechsen"] == ["6"] and section["words"]["und"] == []
    assert section["phrases"]["happy man"] == "happyman"
    term = section["words"]["kartentausch"][0]
    postings = section["model"][term]
    assert all(0 <= at < len(section["entries"]) and isinstance(weight, int) for at, weight in zip(postings[::2], postings[1::2]))
    assert len(section["unseen"]) == len(section["entries"]) + 1  # the answer "nothing" comes last
