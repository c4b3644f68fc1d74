"""The light/dark switch: the phone's own setting by default, the switch's choice once tapped."""

from __future__ import annotations

from flask.testing import FlaskClient


def test_pages_follow_the_phone_until_the_switch_is_tapped(plain_client: FlaskClient) -> None:
    page = plain_client.get("/").get_data(as_text=True)
    assert "data-theme" not in page
    assert '<meta name="color-scheme" content="light dark">' in page
    assert "/theme/dark?next=/" in page and "/theme/light?next=/" in page


def test_the_switch_remembers_the_choice_and_goes_back(plain_client: FlaskClient) -> None:
    response = plain_client.get("/theme/dark?next=/faq")
    assert response.status_code == 303
    assert response.headers["Location"] == "/faq"
    assert 'data-theme="dark"' in plain_client.get("/faq").get_data(as_text=True)
    plain_client.get("/theme/light?next=/")
    assert 'data-theme="light"' in plain_client.get("/").get_data(as_text=True)


def test_an_unknown_look_or_a_foreign_return_address_changes_nothing(plain_client: FlaskClient) -> None:
    assert plain_client.get("/theme/pink").status_code == 404
    assert "data-theme" not in plain_client.get("/").get_data(as_text=True)
    response = plain_client.get("/theme/dark?next=https://example.org/")
    assert response.headers["Location"] == "/"


def test_a_forged_cookie_is_ignored(plain_client: FlaskClient) -> None:
    plain_client.set_cookie("theme", '"><script>')
    page = plain_client.get("/").get_data(as_text=True)
    assert "data-theme" not in page
