"""A sheet served from what a process keeps is the sheet a fresh render of the same version gives, byte for byte.

Whatever a process keeps between taps (histories and tables, parts of sheets rendered once, the
evening's earlier games, the pushed update), a phone must get exactly what an app that keeps
nothing would render at that version: the tapper's answer, the push to every other phone at its
address and language, the read-only address, the TV and a phone's own page. Each scenario plays
a game through the test client on one app; after every change, another app on the same
database, built afresh (so it has kept nothing), renders the same version to compare.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from live import event
from models import Game, db, folded
from tests.helpers import as_a_phone_sends, make_app, phone_of, start
from tests.web.evenings import play_auruxxx, rematch
from tests.web.test_live import app_with, events_in, events_of
from views.pages.viewers import shared_viewer
from views.table import stream

LANGUAGES = ("de", "en")
FIVE = ["Anna", "Ben", "Cleo", "Dora", "Emil"]
EIGHT = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Finn", "Gina", "Hugo"]
Tap = tuple[str, dict[str, str]]
"""A form a phone posts on the sheet: its route under the game's address, and its fields."""


def auruxxx_round(index: int, finisher: str, hands: dict[int, int], *, holder: str | None = None) -> list[Tap]:
    """Return the taps of one AURUXXX round: a pass cross, the figure handed on if asked, the finisher, the hands by seat."""
    taps: list[Tap] = [("pass", {"player": "Anna", "round": str(index)})]
    if holder is not None:
        taps.append(("happy-man", {"player": holder, "round": str(index)}))
    taps.append(("finish", {"player": finisher, "round": str(index), "golden12": "1"}))
    taps += [(f"hand/{seat}", {"round": str(index), "action": "save-points", "points": str(points)}) for seat, points in hands.items()]
    return taps


def a_12_days_day(day: int, cards: dict[str, str]) -> list[Tap]:
    """Return the taps revealing one day's cards, player by player."""
    return [("card", {"day": str(day), "player": player, "card": card}) for player, card in cards.items()]


SCENARIOS: dict[str, tuple[str, list[str], dict[str, str], list[Tap]]] = {
    "auruxxx": (
        "auruxxx",
        ["Anna", "Ben", "Cleo"],
        {},
        [
            *auruxxx_round(0, "Ben", {0: 10, 2: 5}, holder="Cleo"),
            *auruxxx_round(1, "Cleo", {0: 17, 1: 3}),
            (
                "rounds/1/correct",
                {
                    "finisher": "Ben",
                    "golden12": "2",
                    "happy_man": "",
                    "passes-0": "1",
                    "passes-1": "0",
                    "passes-2": "0",
                    "hand-0": "12",
                    "hand-1": "",
                    "hand-2": "4",
                },
            ),
            *auruxxx_round(2, "Anna", {1: 7, 2: 0}, holder="Ben"),
        ],
    ),
    "auruxxx, every house rule changed, five players": (
        "auruxxx",
        FIVE,
        {"golden12_in_hand": "25", "two_in_hand": "25", "halving": "penalty", "rounding": "floor"},
        [*auruxxx_round(0, "Dora", {0: 17, 1: 3, 2: 0, 4: 9}, holder="Anna"), *auruxxx_round(1, "Anna", {1: 5, 2: 6, 3: 7, 4: 8})],
    ),
    "12 Days": (
        "12days",
        ["Anna", "Ben", "Cleo"],
        {"variant": "standard"},
        [
            *a_12_days_day(0, {"Anna": "5", "Ben": "2", "Cleo": "9"}),
            *a_12_days_day(1, {"Anna": "santa", "Ben": "3", "Cleo": "7"}),
            ("gift", {"day": "1", "player": "Cleo"}),
            *a_12_days_day(2, {"Anna": "4", "Ben": "4"}),
            ("card", {"day": "2", "player": "Anna", "card": "6"}),
            ("card", {"day": "2", "player": "Cleo", "card": "8"}),
            ("taken", {"day": "3", "player": "Ben"}),
        ],
    ),
    "8 Nights": (
        "12days",
        ["Anna", "Ben", "Cleo", "Dora"],
        {"variant": "8nights"},
        a_12_days_day(0, {"Anna": "8", "Ben": "1", "Cleo": "3", "Dora": "2"}),
    ),
    "8 Players": (
        "12days",
        EIGHT,
        {"variant": "8players"},
        a_12_days_day(0, dict(zip(EIGHT, ["12", "11", "10", "9", "8", "7", "6", "1"]))),
    ),
}


@pytest.fixture(scope="module")
def live_app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    """Return this module's app: a stream hands over what it has to say and ends, and the listener never ticks on its own."""
    return app_with(tmp_path_factory.mktemp("renders") / "tischblock.db", LIVE_TICK_SECONDS=3600)


@pytest.fixture
def client(live_app: Flask) -> FlaskClient:
    """Return a new test client (no cookies yet) of the module's app."""
    return phone_of(live_app)


def addresses(app: Flask, token: str) -> tuple[Game, str, str]:
    """Return the game at an edit address, its read-only address and its table address."""
    with app.app_context():
        game = db.session.scalars(select(Game).where(Game.token == token)).one()
        return game, str(game.read_token), game.card_table.token


def fresh_app(app: Flask) -> Flask:
    """Return a new app on ``app``'s database: one that has kept nothing."""
    return make_app(str(app.config["SQLALCHEMY_DATABASE_URI"]), csrf=False, migrate=False)


def fresh_push(app: Flask, address: str, *, editable: bool, language: str) -> tuple[int, str, dict[str, str]]:
    """Return the version, the live part of the sheet at ``address`` and its pushed event, as a fresh app renders them."""
    with app.app_context():
        game = db.session.scalars(select(Game).where((Game.token == address) | (Game.read_token == address))).one()
        version, sheet, data = stream.live_sheet(game, shared_viewer(address, editable=editable, language=language), folded(game))
    return version, sheet, events_in(event(data, event_id=version))[0]


def pushed(client: FlaskClient, address: str, since: int, language: str) -> dict[str, str]:
    """Return the event a phone at ``address`` that showed version ``since`` is pushed, in ``language``."""
    response = client.get(f"/g/{address}/live?since={since}", headers={"Accept-Language": language})
    try:
        return events_of(response)[1]
    finally:
        response.close()  # the stream leaves the process's count of open streams


def as_pushed(sheet: str) -> str:
    """Return a sheet as a pushed event carries it inside its partial: a server-sent event has no blank lines."""
    return "\n".join(line for line in sheet.splitlines() if line.strip())


def pushed_sheet(event: dict[str, str]) -> str:
    """Return the sheet a pushed event carries (the live part inside the partial that swaps it in)."""
    found = re.search(r"<hx-partial[^>]*>(.*)</hx-partial>", event["data"], re.S)
    assert found is not None, event["data"][:300]
    return as_pushed(found.group(1))


def unstamped(sheet: str) -> str:
    """Return a sheet without the moment it was rendered (``data-as-of``: what an offline phone says its copy shows)."""
    return re.sub(r'data-as-of="[^"]*"', "", sheet)


def own_parts_out(page: str) -> str:
    """Return a phone's own page without what is its own on every load: its form token and its fresh tap keys."""
    page = re.sub(r'(name="(?:csrf_token|key)" value=")[^"]*"', r'\1"', page)
    return unstamped(re.sub(r'(name="csrf-token" content=")[^"]*"', r'\1"', page))


def compare_every_viewer(app: Flask, client: FlaskClient, token: str, version: int) -> None:
    """Compare what ``app`` serves at ``version`` with a fresh app's render: each address's push, the TV and a phone's page, in every language."""
    _, read_token, table = addresses(app, token)
    other = fresh_app(app)
    for language in LANGUAGES:
        for address, editable in ((token, True), (read_token, False)):
            event = pushed(client, address, version - 1, language)
            assert event.get("id") == str(version), event
            fresh_version, _, fresh_event = fresh_push(other, address, editable=editable, language=language)
            assert fresh_version == version
            assert unstamped(event["data"]) == unstamped(fresh_event["data"]), (language, editable)
        headers = {"Accept-Language": language, "HX-Request": "true"}
        for url in (f"/g/{token}", f"/g/{read_token}?tv={table}", f"/g/{read_token}"):
            served = client.get(url, headers=headers).get_data(as_text=True)
            again = phone_of(other).get(url, headers=headers).get_data(as_text=True)
            assert own_parts_out(served) == own_parts_out(again), (language, url)


def play(app: Flask, client: FlaskClient, token: str, taps: list[Tap], check: Callable[[int], None]) -> None:
    """Post every tap as a phone's htmx does and, after each, check the version it left."""
    for route, fields in taps:
        answer = client.post(f"/g/{token}/{route}", data=as_a_phone_sends(app, token, fields), headers={"HX-Request": "true"})
        assert answer.status_code in (200, 204), (route, fields, answer.status_code, answer.get_data(as_text=True)[-800:])
        with app.app_context():
            version = folded(db.session.scalars(select(Game).where(Game.token == token)).one()).version
        check(version)  # outside the app context: each request of the check must have one of its own, as a server's do


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_every_viewer_gets_the_sheet_a_fresh_render_gives_after_every_change(live_app: Flask, client: FlaskClient, scenario: str) -> None:
    """After each change of the game, every address, language and kind of viewer is served what a fresh app renders."""
    kind, players, fields, taps = SCENARIOS[scenario]
    token = start(client, kind, players, **fields)
    play(live_app, client, token, taps, lambda version: compare_every_viewer(live_app, client, token, version))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_taps_answer_is_byte_for_byte_the_sheet_the_table_is_pushed(live_app: Flask, client: FlaskClient, language: str) -> None:
    """The tapper's answer and the other phones' push are the same bytes, and those of a fresh render."""
    token = start(client, "auruxxx")
    for route, fields in auruxxx_round(0, "Ben", {0: 10, 2: 5}, holder="Cleo"):
        data: dict[str, Any] = as_a_phone_sends(live_app, token, fields)
        answer = client.post(f"/g/{token}/{route}", data=data, headers={"HX-Request": "true", "Accept-Language": language})
        assert answer.status_code in (200, 204)
        if answer.status_code == 204:
            continue
        version = int(data["seen"]) + 1
        event = pushed(client, token, version - 1, language)
        assert as_pushed(answer.get_data(as_text=True)) == pushed_sheet(event), "the answer is the pushed sheet"
        fresh = fresh_push(fresh_app(live_app), token, editable=True, language=language)[2]
        assert unstamped(event["data"]) == unstamped(fresh["data"])


def test_the_evenings_earlier_games_on_a_sheet_are_those_a_fresh_render_lists(live_app: Flask, client: FlaskClient) -> None:
    """Earlier games kept for a table's sheets show what a fresh render shows, also once a game ended and the next began."""
    first = start(client, "auruxxx")
    play_auruxxx(client, first, finisher="Ben", hands={0: 10, 2: 5})
    second = rematch(client, first)
    rounds = [*auruxxx_round(0, "Cleo", {0: 3, 1: 4}), *auruxxx_round(1, "Anna", {1: 10, 2: 5}), *auruxxx_round(2, "Ben", {0: 1, 2: 2})]
    play(live_app, client, second, rounds, lambda version: compare_every_viewer(live_app, client, second, version))
    third = rematch(client, second)
    play(
        live_app,
        client,
        third,
        auruxxx_round(0, "Anna", {1: 2, 2: 8}),
        lambda version: compare_every_viewer(live_app, client, third, version),
    )
