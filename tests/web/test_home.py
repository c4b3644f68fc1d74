"""The front page speaks German by default and English on request."""

import re

from flask.testing import FlaskClient

GAME_NAMES = ("AURUXXX – Die Goldene Zwölf", "12 Days")


def test_home_is_german_by_default(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert '<html lang="de">' in page
    assert "Der Spielblock für euren Kartentisch" in page
    assert "2–6 Spieler" in page and "3–8 Spieler" in page
    for name in GAME_NAMES:
        assert name in page


def test_home_follows_the_browser_language(client: FlaskClient) -> None:
    page = client.get("/", headers={"Accept-Language": "en-GB,en;q=0.9"}).get_data(as_text=True)
    assert '<html lang="en">' in page
    assert "The score pad for your card table" in page
    for name in GAME_NAMES:
        assert name in page


def test_unsupported_browser_language_falls_back_to_german(client: FlaskClient) -> None:
    page = client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert '<html lang="de">' in page


def test_language_cookie_beats_the_browser(client: FlaskClient) -> None:
    client.set_cookie("lang", "en")
    page = client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert '<html lang="en">' in page
    assert "Which game are you playing?" in page


def test_switch_sets_the_cookie_and_goes_back(client: FlaskClient) -> None:
    response = client.get("/lang/en?next=/%3Fx%3D1")
    assert response.status_code == 303
    assert response.headers["Location"] == "/?x=1"
    cookie = client.get_cookie("lang")
    assert cookie is not None and cookie.value == "en"
    assert '<html lang="en">' in client.get("/").get_data(as_text=True)


def test_switch_links_point_back_to_the_current_page(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'href="/lang/en?next=/"' in page
    assert 'href="/lang/de?next=/" hreflang="de" lang="de" aria-current="true"' in page


def test_switch_refuses_unknown_languages(client: FlaskClient) -> None:
    assert client.get("/lang/fr").status_code == 404
    assert client.get_cookie("lang") is None


def test_switch_never_sends_you_to_another_site(client: FlaskClient) -> None:
    for target in ("//evil.example/", "https://evil.example/", "/\\evil.example", "evil"):
        response = client.get("/lang/de", query_string={"next": target})
        assert response.headers["Location"] == "/"


def test_pages_vary_by_language(client: FlaskClient) -> None:
    vary = client.get("/").headers["Vary"]
    assert "Accept-Language" in vary and "Cookie" in vary


def test_page_loads_only_local_assets(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert re.search(r'<script src="/static/vendor/htmx\.min\.js\?v=[0-9a-f]+" defer></script>', page)
    assert "<style" not in page and "style=" not in page
    assert "<script>" not in page and "http://" not in page and "https://" not in page
