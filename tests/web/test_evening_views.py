"""The evening at a table through the web: its page, the TV between games, the earlier games, CSV and the evening record."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient

from models import Event, Game, db
from rules.evening import Standing
from tests.helpers import DE, EN, PhoneClient, start
from tests.web.evenings import PLAYERS, contexts, game_of, next_game, play_auruxxx, rematch, three_games
from tests.web.states import tokens


def standings_of(client: FlaskClient, app: Flask, token: str) -> list[tuple[str, int, int, int]]:
    """Return the evening's standings as its page was given them: player, rank, wins, games."""
    with contexts(app) as seen:
        assert client.get(f"/g/{token}/evening", headers=EN).status_code == 200
    [evening] = [context["evening"] for name, context in seen if name == "evening/show.html"]
    table: tuple[Standing, ...] = evening.standings
    return [(s.player, s.rank, s.wins, s.played) for s in table]


def test_an_evening_of_two_auruxxx_games_and_a_twelve_days_game_has_the_right_standings(plain_app: Flask, phone: PhoneClient) -> None:
    """Cleo won 12 Days and came second twice; Anna and Ben each won one AURUXXX game: Cleo first, the others share second."""
    games = three_games(phone)
    for token in games:
        assert standings_of(phone, plain_app, token) == [("Cleo", 1, 1, 3), ("Anna", 2, 1, 3), ("Ben", 2, 1, 3)]
    page = phone.get(f"/g/{games[0]}/evening", headers=EN).get_data(as_text=True)
    assert "3 games" in page
    for title in ("1. AURUXXX – Die Goldene Zwölf", "2. AURUXXX – Die Goldene Zwölf", "3. 12 Days"):
        assert title in page
    assert "Winner: Ben" in page and "Winner: Anna" in page and "Winner: Cleo" in page
    cleo = page[page.index('<th scope="row">Cleo</th>') :]
    assert cleo.index('<span>2.</span><span>2.</span><span class="first">1.</span>') < cleo.index("</tr>"), "Cleo's place in each game"


def test_each_game_on_the_evening_page_shows_its_winner_and_totals_best_first(plain_app: Flask, phone: PhoneClient) -> None:
    """Game 1: Ben −15, Cleo 15, Anna 45; game 3: Cleo 97, then Anna and Ben sharing second with 12."""
    games = three_games(phone)
    with contexts(plain_app) as seen:
        phone.get(f"/g/{games[2]}/evening", headers=EN)
    [evening] = [context["evening"] for name, context in seen if name == "evening/show.html"]
    lines = [[(line.place, line.player, line.total, line.winner) for line in entry.lines] for entry in evening.games]
    assert lines[0] == [(1, "Ben", "−15", True), (2, "Cleo", "15", False), (3, "Anna", "45", False)]
    assert lines[1] == [(1, "Anna", "0", True), (2, "Cleo", "15", False), (3, "Ben", "30", False)]
    assert lines[2] == [(1, "Cleo", "97", True), (2, "Anna", "12", False), (2, "Ben", "12", False)]


def test_the_evening_is_reached_from_every_sheet_the_table_card_and_the_tv(plain_app: Flask, phone: PhoneClient) -> None:
    """The sheet (both addresses), the table card and the TV's sheet link to the evening, with the rights of their address."""
    token = start(phone, "auruxxx", PLAYERS)
    game = tokens(plain_app, token)
    with plain_app.app_context():
        table = game_of(plain_app, token).card_table.token
    assert f'href="/g/{token}/evening"' in phone.get(f"/g/{token}").get_data(as_text=True)
    assert f'href="/g/{game.read}/evening"' in phone.get(f"/g/{game.read}").get_data(as_text=True)
    assert f'href="/g/{token}/evening"' in phone.get(f"/g/{token}/table-card").get_data(as_text=True)
    assert f'href="/g/{game.read}/evening"' in phone.get(f"/g/{game.read}?tv={table}").get_data(as_text=True)
    read_only = phone.get(f"/g/{game.read}/evening", headers=EN).get_data(as_text=True)
    assert token not in read_only, "a read-only evening page never shows an edit address"
    assert "Another game at this table" not in read_only


def test_the_tv_shows_the_evenings_standings_between_two_games_and_follows_the_rematch(plain_app: Flask, phone: PhoneClient) -> None:
    """Once a game is over the TV shows the result and the standings; once the rematch starts it shows the rematch."""
    token = start(phone, "auruxxx", PLAYERS)
    game = tokens(plain_app, token)
    with plain_app.app_context():
        table = game_of(plain_app, token).card_table.token
    tv_sheet = f"/g/{game.read}?tv={table}"
    assert phone.get(f"/t/{table}/tv").headers["Location"] == tv_sheet, "a running game: the TV shows its sheet"
    play_auruxxx(phone, token, finisher="Ben", hands={0: 10, 2: 5})
    assert phone.get(tv_sheet).headers["Location"] == f"/t/{table}/tv", "the sheet sends the TV on once the game is over"
    refresh = phone.get(tv_sheet, headers={"HX-Request": "true"})
    assert refresh.status_code == 204 and refresh.headers["HX-Redirect"] == f"/t/{table}/tv"
    between = phone.get(f"/t/{table}/tv", headers=EN)
    assert between.status_code == 200
    page = between.get_data(as_text=True)
    assert "Ben wins with −15 points" in page and 'class="standings"' in page and "Scan to join" in page
    assert "Save to BG Stats" not in page and "This phone" not in page, "the TV shows no seats and no BG Stats"
    assert f"/g/{game.read}/live?since=" in page and f"tv={table}" in page, "it listens to the finished game"
    fragment = phone.get(f"/t/{table}/tv", headers={**EN, "HX-Request": "true"}).get_data(as_text=True)
    assert fragment.lstrip().startswith('<section id="evening"'), "a change while between games refreshes the standings in place"
    second = rematch(phone, token)
    moved = phone.get(f"/t/{table}/tv", headers={"HX-Request": "true"})
    assert moved.headers["HX-Redirect"] == f"/g/{tokens(plain_app, second).read}?tv={table}", "the rematch started: the TV shows it"


def test_the_earlier_games_at_this_table_show_winner_and_totals(phone: PhoneClient) -> None:
    """The third game's sheet lists the two before it, newest first, each with its winner and everyone's total."""
    games = three_games(phone)
    page = phone.get(f"/g/{games[2]}", headers=EN).get_data(as_text=True)
    earlier = page[page.index('class="earlier"') :]
    assert earlier.index("★ Anna") < earlier.index("★ Ben"), "newest first"
    assert "Anna 0, Cleo 15, Ben 30" in earlier and "Ben −15, Cleo 15, Anna 45" in earlier


def test_a_game_at_the_table_after_a_long_pause_begins_a_new_evening(plain_app: Flask, phone: PhoneClient) -> None:
    """The rematch started seven hours after the last tap: its evening holds only itself; within six hours it would not."""
    first = start(phone, "auruxxx", PLAYERS)
    play_auruxxx(phone, first, finisher="Ben", hands={0: 10, 2: 5})
    second = rematch(phone, first)
    with plain_app.app_context():
        later = game_of(plain_app, second)
        later.created_at = later.created_at + timedelta(hours=7)
        db.session.commit()
    assert [s.played for s in _standings(phone, plain_app, second)] == [0, 0, 0]
    assert [s.played for s in _standings(phone, plain_app, first)] == [1, 1, 1]
    plain_app.config["EVENING_IDLE_HOURS"] = 8
    try:
        assert [s.played for s in _standings(phone, plain_app, second)] == [1, 1, 1]
    finally:
        plain_app.config["EVENING_IDLE_HOURS"] = 6


def _standings(client: FlaskClient, app: Flask, token: str) -> tuple[Standing, ...]:
    """Return the standings the evening page of a game was given."""
    with contexts(app) as seen:
        client.get(f"/g/{token}/evening")
    [evening] = [context["evening"] for name, context in seen if name == "evening/show.html"]
    return evening.standings  # type: ignore[no-any-return]


# --- Another game at this table -----------------------------------------------------------------


def test_another_game_at_the_table_fills_in_the_players_and_the_table_follows_it(plain_app: Flask, phone: PhoneClient) -> None:
    """The 12 Days form comes with Anna, Ben and Cleo; once started, the table address and the old sheet lead to it."""
    first = start(phone, "auruxxx", PLAYERS)
    form = phone.get(f"/g/{first}/next/12days", headers=EN).get_data(as_text=True)
    for name in PLAYERS:
        assert f'value="{name}"' in form
    assert f'action="/g/{first}/next/12days"' in form
    third = next_game(phone, first, "12days", variant="standard")
    with plain_app.app_context():
        table = game_of(plain_app, first).card_table.token
        assert game_of(plain_app, third).card_table.token == table
    assert phone.get(f"/t/{table}").headers["Location"] == f"/g/{third}"
    assert f'href="/g/{third}"' in phone.get(f"/g/{first}", headers=EN).get_data(as_text=True), "the old sheet shows the way on"
    history = phone.get(f"/g/{first}/history", headers=EN).get_data(as_text=True)
    assert "Next game started: 12 Days" in history
    assert phone.post(f"/g/{first}/next/auruxxx", data={"player": PLAYERS, "action": "start"}).headers["Location"] == f"/g/{third}", (
        "a game is followed once: a second start joins the game already there"
    )


def test_a_next_game_the_rules_refuse_is_not_started(plain_app: Flask, phone: PhoneClient) -> None:
    """12 Days with two players: the form comes back with the rules' message and nothing is stored."""
    first = start(phone, "auruxxx", PLAYERS)
    with plain_app.app_context():
        before = db.session.query(Game).count()
    refused = phone.post(f"/g/{first}/next/12days", data={"player": ["Anna", "Ben"], "action": "start", "variant": "standard"}, headers=EN)
    assert refused.status_code == 422 and 'role="alert"' in refused.get_data(as_text=True)
    with plain_app.app_context():
        assert db.session.query(Game).count() == before
    assert phone.get(f"/g/{first}/next/chess").status_code == 404
    assert phone.get(f"/g/{tokens(plain_app, first).read}/next/12days").status_code == 404, "the read-only address starts nothing"


# --- Exports ------------------------------------------------------------------------------------------


def test_the_evening_as_csv_has_a_row_per_game_then_wins_and_places(phone: PhoneClient) -> None:
    """German: semicolons and a decimal comma; a column per player in the order they sat down."""
    games = three_games(phone)
    response = phone.get(f"/g/{games[0]}/evening.csv", headers=DE)
    assert response.mimetype == "text/csv" and "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff")), delimiter=";"))
    assert rows[0][:3] == ["Partie", "Beginn", "Sieger"] and rows[0][3:] == PLAYERS
    assert [row[0] for row in rows[1:4]] == ["1. AURUXXX – Die Goldene Zwölf", "2. AURUXXX – Die Goldene Zwölf", "3. 12 Days"]
    assert [row[2] for row in rows[1:4]] == ["Ben", "Anna", "Cleo"]
    assert rows[1][3:] == ["45", "-15", "15"] and rows[3][3:] == ["12", "12", "97"]
    assert rows[4] == ["Siege", "", "", "1", "1", "1"] and rows[5] == ["Platz", "", "", "2", "2", "1"]


def test_the_evening_record_reimports_as_the_same_evening_at_a_new_table(plain_app: Flask, phone: PhoneClient) -> None:
    """The exported evening imports as three games, one after the other at one new table, with the same standings."""
    games = three_games(phone)
    exported = phone.get(f"/g/{games[1]}/evening.json")
    assert exported.mimetype == "application/json"
    document = json.loads(exported.get_data(as_text=True))
    assert [game["game"] for game in document["games"]] == ["auruxxx", "auruxxx", "12days"]
    assert [entry["player"] for entry in document["standings"]] == ["Cleo", "Anna", "Ben"]
    assert document["standings"][0] == {"player": "Cleo", "rank": 1, "played": 3, "wins": 1, "places": [1, 2, 0]}
    imported = phone.post("/import", data=exported.get_data(), content_type="application/json")
    assert imported.status_code == 201, imported.get_data(as_text=True)
    last = str(imported.headers["Location"]).rsplit("/g/", 1)[1]
    assert standings_of(phone, plain_app, last) == [("Cleo", 1, 1, 3), ("Anna", 2, 1, 3), ("Ben", 2, 1, 3)]
    with plain_app.app_context():
        new = game_of(plain_app, last)
        assert new.card_table.token != game_of(plain_app, games[2]).card_table.token
        assert [g.kind for g in db.session.query(Game).filter(Game.card_table_id == new.card_table_id).order_by(Game.id)] == [
            "auruxxx",
            "auruxxx",
            "12days",
        ]
    again = phone.get(f"/g/{last}/evening.json").get_json()
    assert again["games"] == document["games"], "exported again, the games are the same records"


def test_an_evening_record_with_one_bad_game_imports_nothing(plain_app: Flask, phone: PhoneClient) -> None:
    """A broken last game refuses the whole evening, with the game record's message placed under the game."""
    games = three_games(phone)
    document = phone.get(f"/g/{games[0]}/evening.json").get_json()
    document["games"][2]["days"][0] = {"taken_by": "Dora"}
    with plain_app.app_context():
        before = (db.session.query(Game).count(), db.session.query(Event).count())
    refused = phone.post("/import", json=document)
    assert refused.status_code == 422
    assert refused.get_json() == {"problems": ["games[2].days[0].taken_by: 'Dora' is not a player of this game"]}
    with plain_app.app_context():
        assert (db.session.query(Game).count(), db.session.query(Event).count()) == before


@pytest.mark.parametrize("kind", ["auruxxx", "12days"])
def test_a_game_record_still_imports_as_one_game(phone: PhoneClient, kind: str) -> None:
    """The game record is unchanged: it imports as before, at a table of its own."""
    token = start(phone, kind, PLAYERS, **({"variant": "standard"} if kind == "12days" else {}))
    exported = phone.get(f"/g/{token}/record.json").get_data()
    assert phone.post("/import", data=exported, content_type="application/json").status_code == 201


def test_the_way_to_the_next_game_names_it_when_it_is_another_game(phone: PhoneClient) -> None:
    """After a rematch the finished sheet says "Rematch is on"; once another game runs at the table it names that game."""
    first = start(phone, "auruxxx", PLAYERS)
    play_auruxxx(phone, first, finisher="Ben", hands={0: 10, 2: 5})
    second = rematch(phone, first)
    assert "Rematch is on → open it" in phone.get(f"/g/{first}", headers=EN).get_data(as_text=True)
    play_auruxxx(phone, second, finisher="Anna", hands={1: 10, 2: 5})
    third = next_game(phone, second, "12days", variant="standard")
    page = phone.get(f"/g/{second}", headers=EN).get_data(as_text=True)
    assert "Next game is on: 12 Days → open it" in page and "Rematch is on" not in page
    german = phone.get(f"/g/{second}", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Nächste Partie läuft: 12 Days → öffnen" in german and "Revanche läuft" not in german
    assert "Revanche" not in page + phone.get(f"/g/{third}", headers=EN).get_data(as_text=True), "English says Rematch"
