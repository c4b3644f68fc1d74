"""Rules from the game: "Rules?" and every "?" open this game's questions, and each FAQ page leads back to the sheet."""

from __future__ import annotations

import html
import re

from tests.helpers import PhoneClient, start

ENGLISH = {"Accept-Language": "en"}
GERMAN = {"Accept-Language": "de"}


def links(page: str) -> list[str]:
    """Return every link target of a page, unescaped."""
    return [html.unescape(target) for target in re.findall(r'href="([^"]*)"', page)]


def test_rules_in_the_header_open_this_games_questions_with_the_way_back(phone: PhoneClient) -> None:
    token = start(phone, "12days", variant="standard")
    page = phone.get(f"/g/{token}", headers=ENGLISH).get_data(as_text=True)
    header = page.split("</header>")[0]
    assert f"/faq/12days?back={token}" in links(header)
    helps = [target for target in links(page) if target.startswith("/faq/")]
    assert helps and all(target.startswith("/faq/12days?") and f"back={token}" in target for target in helps)


def test_every_game_screen_links_its_own_rules(phone: PhoneClient) -> None:
    token = start(phone, "auruxxx")
    for screen in ("", "/finish", "/join", "/history"):
        header = phone.get(f"/g/{token}{screen}").get_data(as_text=True).split("</header>")[0]
        assert f"/faq/auruxxx?back={token}" in links(header), screen


def test_a_faq_page_from_a_sheet_leads_back_to_it_in_the_readers_language(phone: PhoneClient) -> None:
    token = start(phone, "auruxxx")
    page = phone.get(f"/faq/auruxxx?control=passes&back={token}", headers=GERMAN).get_data(as_text=True)
    assert f"/g/{token}" in links(page)
    assert "Zurück zum Spielblock" in page and 'data-lang="de"' in page
    answers = [target for target in links(page) if target.startswith("/faq/auruxxx/")]
    assert answers and all(target.endswith(f"back={token}") for target in answers)
    assert f"/faq/auruxxx?back={token}" in links(page), "show all questions keeps the way back"
    answer = phone.get(answers[0], headers=ENGLISH).get_data(as_text=True)
    assert f"/g/{token}" in links(answer) and "Back to the sheet" in answer


def test_search_results_keep_the_way_back(phone: PhoneClient) -> None:
    token = start(phone, "auruxxx")
    page = phone.get(f"/faq/auruxxx?back={token}").get_data(as_text=True)
    assert f'name="back" value="{token}"' in page
    results = phone.get(f"/faq/search?game=auruxxx&q=passen&back={token}", headers={"HX-Request": "true"})
    hits = [target for target in links(results.get_data(as_text=True)) if target.startswith("/faq/auruxxx/")]
    assert hits and all(target.endswith(f"back={token}") for target in hits)


def test_no_way_back_to_an_unknown_game_or_one_of_another_kind(phone: PhoneClient) -> None:
    days = start(phone, "12days", variant="standard")
    for back in ("not-a-game", days):
        page = phone.get(f"/faq/auruxxx?back={back}").get_data(as_text=True)
        assert "/g/" not in page and f"back={back}" not in page


def test_a_faq_page_that_leads_back_to_a_sheet_is_never_cached(phone: PhoneClient) -> None:
    """Its links carry the sheet's token, so no cache may keep it; a plain FAQ page may be kept."""
    token = start(phone, "auruxxx")
    assert phone.get(f"/faq/auruxxx?back={token}").headers.get("Cache-Control") == "no-store"
    assert phone.get("/faq/auruxxx").headers.get("Cache-Control") != "no-store"
