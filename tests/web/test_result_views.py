"""A finished game's result sent on: the BG Stats link, field by field and without any address, and the result as a picture."""

from __future__ import annotations

import html
import io
import json
import re
import subprocess
from datetime import datetime
from typing import Any
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from models import Game, db
from tests.helpers import EN, PhoneClient, start, tap
from tests.web.evenings import PLAYERS, game_of, play_auruxxx, play_twelve_days, rematch
from tests.web.states import tokens
from views.results.picture import card_svg
from views.table.sheets import scoreboard


def bgstats_link(client: FlaskClient, token: str) -> str:
    """Return the "Save to BG Stats" address the sheet offers."""
    page = client.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    found = re.search(r'<a class="button secondary bgstats-button" href="([^"]+)"', page)
    assert found, "the finished sheet offers no BG Stats link"
    return html.unescape(found.group(1))


def play_data(link: str) -> dict[str, Any]:
    """Return the play JSON a BG Stats link carries."""
    parts = urlsplit(link)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "app.bgstatsapp.com", "/createPlay.html")
    [data] = parse_qs(parts.query)["data"]
    decoded: dict[str, Any] = json.loads(data)
    return decoded


def addresses(app: Flask, token: str) -> list[str]:
    """Return every token that opens the game or its table."""
    with app.app_context():
        game = game_of(app, token)
        return [game.token, str(game.read_token), game.card_table.token]


def local_start(app: Flask, token: str) -> str:
    """Return when the game began, as BG Stats wants it: local time in Berlin, no zone."""
    with app.app_context():
        started: datetime = game_of(app, token).created_at
    return started.astimezone(ZoneInfo("Europe/Berlin")).strftime("%Y-%m-%d %H:%M:%S")


def test_a_finished_auruxxx_game_goes_to_bg_stats_field_by_field(plain_app: Flask, phone: PhoneClient) -> None:
    """Ben −15, Cleo 15, Anna 45; the lowest total wins; Ben started (he sits after the first dealer, Anna)."""
    token = start(phone, "auruxxx", PLAYERS)
    play_auruxxx(phone, token, finisher="Ben", hands={0: 10, 2: 5})
    link = bgstats_link(phone, token)
    play = play_data(link)
    assert set(play) == {"game", "playDate", "durationMin", "location", "board", "comments", "players"}
    assert play["game"]["name"] == "AURUXXX – Die Goldene Zwölf"
    assert play["game"]["highestWins"] is False and play["game"]["noPoints"] is False
    assert re.fullmatch(r"[0-9a-f]{24}", play["game"]["sourceGameId"])
    assert play["playDate"] == local_start(plain_app, token)
    assert isinstance(play["durationMin"], int) and play["durationMin"] >= 1
    assert play["location"] == "Tischblock"
    assert [(p["name"], p["score"], p["rank"], p["winner"], p["startPlayer"]) for p in play["players"]] == [
        ("Anna", 45, 3, False, False),
        ("Ben", -15, 1, True, True),
        ("Cleo", 15, 2, False, False),
    ]
    ids = [p["sourcePlayerId"] for p in play["players"]]
    assert len(set(ids)) == 3 and all(re.fullmatch(r"[0-9a-f]{24}", i) for i in ids)
    for secret in addresses(plain_app, token):
        assert secret not in link and secret not in json.dumps(play), "the link reveals an address"
        assert play["game"]["sourceGameId"] not in secret and all(i not in secret for i in ids)


def test_a_finished_twelve_days_game_goes_to_bg_stats_field_by_field(plain_app: Flask, phone: PhoneClient) -> None:
    """Cleo 97, Anna and Ben 12 sharing second; the highest total wins; nobody starts (everyone reveals at once)."""
    token = start(phone, "12days", PLAYERS, variant="standard")
    play_twelve_days(phone, token)
    link = bgstats_link(phone, token)
    play = play_data(link)
    assert play["game"]["name"] == "12 Days"
    assert play["game"]["highestWins"] is True and play["game"]["noPoints"] is False
    assert play["playDate"] == local_start(plain_app, token) and play["location"] == "Tischblock"
    assert [(p["name"], p["score"], p["rank"], p["winner"], p["startPlayer"]) for p in play["players"]] == [
        ("Anna", 12, 2, False, False),
        ("Ben", 12, 2, False, False),
        ("Cleo", 97, 1, True, False),
    ]
    for secret in addresses(plain_app, token):
        assert secret not in link and secret not in json.dumps(play)


def test_bg_stats_ids_are_stable_per_game_and_per_player(plain_app: Flask, phone: PhoneClient) -> None:
    """The same game gives the same ids every time; the rematch is another game with the same players' ids."""
    first = start(phone, "auruxxx", PLAYERS)
    play_auruxxx(phone, first, finisher="Ben", hands={0: 10, 2: 5})
    second = rematch(phone, first)
    play_auruxxx(phone, second, finisher="Anna", hands={1: 10, 2: 5})
    one, again, other = (play_data(bgstats_link(phone, token)) for token in (first, first, second))
    assert one == again
    assert one["game"]["sourceGameId"] != other["game"]["sourceGameId"]
    assert [p["sourcePlayerId"] for p in one["players"]] == [p["sourcePlayerId"] for p in other["players"]]


def test_bg_stats_is_offered_on_phones_once_the_game_is_over_and_never_on_the_tv(plain_app: Flask, phone: PhoneClient) -> None:
    """A running game offers nothing; a finished one offers it at both addresses; the TV between games shows none."""
    token = start(phone, "auruxxx", PLAYERS)
    game = tokens(plain_app, token)
    assert "Save to BG Stats" not in phone.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    play_auruxxx(phone, token, finisher="Ben", hands={0: 10, 2: 5})
    assert "Save to BG Stats" in phone.get(f"/g/{game.read}", headers=EN).get_data(as_text=True)
    with plain_app.app_context():
        table = game_of(plain_app, token).card_table.token
    assert "Save to BG Stats" not in phone.get(f"/t/{table}/tv", headers=EN).get_data(as_text=True)


# --- The result as a picture --------------------------------------------------------------------------


def finished(phone: PhoneClient, kind: str) -> str:
    """Return a finished game of ``kind``: Ben wins the AURUXXX game, Cleo the 12 Days game."""
    if kind == "auruxxx":
        token = start(phone, kind, PLAYERS)
        play_auruxxx(phone, token, finisher="Ben", hands={0: 10, 2: 5})
    else:
        token = start(phone, kind, PLAYERS, variant="standard")
        play_twelve_days(phone, token)
    return token


@pytest.mark.parametrize(("kind", "winner"), [("auruxxx", "Ben"), ("12days", "Cleo")])
def test_the_result_card_is_a_png_drawn_from_an_svg_with_every_name(plain_app: Flask, phone: PhoneClient, kind: str, winner: str) -> None:
    """The SVG names every player with their total and the winner first; the PNG decodes, twice its size, winner band and ink included."""
    token = finished(phone, kind)
    with plain_app.test_request_context(headers=EN):
        game = db.session.get(Game, tokens(plain_app, token).id)
        assert game is not None
        svg = card_svg(game, scoreboard(game))
    for name in PLAYERS:
        assert f">{name}</text>" in svg or f">★ {name}</text>" in svg
    assert svg.index(f"★ {winner}") < min(svg.index(f">{name}</text>") for name in PLAYERS if name != winner)
    assert f"{winner} wins with" in svg and 'class="series series--' in svg, "the headline and the sheet's chart"
    width, height = (int(v) for v in re.search(r'<svg xmlns="http://www.w3.org/2000/svg" width="(\d+)" height="(\d+)"', svg).groups())  # type: ignore[union-attr]

    response = phone.get(f"/g/{tokens(plain_app, token).read}/result.png", headers=EN)
    assert response.status_code == 200 and response.mimetype == "image/png"
    assert response.headers["Cache-Control"] == "no-store"
    picture = Image.open(io.BytesIO(response.data)).convert("RGB")
    assert picture.size == (2 * width, 2 * height)
    band = picture.getpixel((40, 2 * 150 + 10))
    assert band == (0xF3, 0xE4, 0xBD), f"the winner's line is on a gold band, got {band}"
    name_strip = picture.crop((2 * 86, 2 * 150, 2 * 300, 2 * (150 + 3 * 40)))
    dark = sum(name_strip.convert("L").histogram()[:70])
    assert dark > 500, "the names are drawn in ink"


def test_a_running_game_has_a_picture_that_says_so(plain_app: Flask, phone: PhoneClient) -> None:
    """Before the end the card says the game is still running, with everyone's total so far and no chart yet."""
    token = start(phone, "auruxxx", PLAYERS)
    with plain_app.test_request_context(headers=EN):
        game = db.session.get(Game, tokens(plain_app, token).id)
        assert game is not None
        svg = card_svg(game, scoreboard(game))
    assert "The game is still running" in svg and "★" not in svg and "series--" in svg and "<polyline" not in svg
    response = phone.get(f"/g/{token}/result.png", headers=EN)
    assert response.status_code == 200 and Image.open(io.BytesIO(response.data)).size[0] == 1080


def test_a_picture_that_cannot_be_drawn_is_a_clear_503(plain_app: Flask, phone: PhoneClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """rsvg-convert taking too long: the phone is told to try again, and nothing else breaks."""
    token = finished(phone, "auruxxx")

    def too_slow(*args: object, **kwargs: object) -> None:
        raise subprocess.TimeoutExpired("rsvg-convert", 10)

    monkeypatch.setattr("views.results.picture.subprocess.run", too_slow)
    response = phone.get(f"/g/{token}/result.png", headers=EN)
    assert response.status_code == 503 and "cannot be drawn right now" in response.get_data(as_text=True)


def test_the_sheet_offers_the_picture_to_share_or_download(phone: PhoneClient) -> None:
    """The finished sheet links the PNG with a file name (download) and marks it for the share sheet."""
    token = finished(phone, "auruxxx")
    page = phone.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    assert re.search(r'href="/g/[\w-]+/result.png" download="tischblock-auruxxx-\d{4}-\d\d-\d\d.png"\s+data-share-picture', page)
    assert "js/picture.js" in page


def play_eight_nights(client: FlaskClient, token: str) -> None:
    """Play a whole 8 Nights game quickly: Cleo takes every night, then everyone's eight cards."""
    for night in range(8):
        tap(client, token, "taken", day=str(night), player="Cleo")
    tap(client, token, "final-hand/0", **{"count-8": "8", "action": "save"})
    tap(client, token, "final-hand/1", **{"count-7": "7", "count-1": "1", "action": "save"})
    tap(client, token, "final-hand/2", **{"count-6": "6", "count-5": "2", "action": "save"})


def test_bg_stats_and_the_evening_name_the_variant(plain_app: Flask, phone: PhoneClient) -> None:
    """A game of 8 Nights goes to BG Stats, the picture and the evening page as "12 Days – 8 Nights", not as 12 Days."""
    token = start(phone, "12days", PLAYERS, variant="8nights")
    play_eight_nights(phone, token)
    assert play_data(bgstats_link(phone, token))["game"]["name"] == "12 Days – 8 Nights"
    evening = phone.get(f"/g/{token}/evening", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "12 Days – 8 Nights" in evening
    with plain_app.test_request_context(headers={"Accept-Language": "en"}):
        game = db.session.scalar(db.select(Game).where(Game.token == token))
        assert game is not None and "12 Days – 8 Nights" in card_svg(game, scoreboard(game))
