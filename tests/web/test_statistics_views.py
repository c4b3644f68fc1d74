"""The table's statistics through the web: reached from everywhere, read-only without tokens, names merged and parted, CSV, refusals."""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from models import NameChangeRow, db
from tests.helpers import DE, EN, PhoneClient, start, tap
from tests.web.evenings import PLAYERS, contexts, game_of, play_auruxxx, rematch, three_games
from tests.web.states import tokens


def figures_of(app: Flask, client: FlaskClient, token: str) -> tuple[Any, dict[str, Any]]:
    """Return the statistics a page was rendered from, and the whole context."""
    with contexts(app) as seen:
        response = client.get(f"/g/{token}/statistics", headers=EN)
    assert response.status_code == 200, response.get_data(as_text=True)
    [context] = [context for name, context in seen if name == "statistics/show.html"]
    return context["statistics"], context


def name_changes(app: Flask) -> int:
    """Return how many changes to names are stored."""
    with app.app_context():
        return int(db.session.scalar(select(func.count(NameChangeRow.id))) or 0)


def test_the_statistics_page_adds_up_an_evening_of_two_auruxxx_games_and_a_twelve_days_game(plain_app: Flask, phone: PhoneClient) -> None:
    """Ben ended every round of game 1, Anna of game 2, Cleo took every day of game 3: each one win, their own figures shown."""
    games = three_games(phone)
    figures, context = figures_of(plain_app, phone, games[2])
    assert (figures.evenings, figures.games) == (1, 3)
    assert [(entry.name, entry.games) for entry in figures.by_game] == [("AURUXXX – Die Goldene Zwölf", 2), ("12 Days", 1)]
    by_player = {entry.player: entry for entry in figures.players}
    assert {name: (entry.games, entry.wins) for name, entry in by_player.items()} == {"Anna": (3, 1), "Ben": (3, 1), "Cleo": (3, 1)}
    ben_auruxxx = by_player["Ben"].per_game[0]
    assert (ben_auruxxx.tally["rounds_ended"], ben_auruxxx.best, ben_auruxxx.worst) == (3, -30, 60)
    assert by_player["Cleo"].per_game[1].tally["days_won"] == 12
    page = phone.get(f"/g/{games[2]}/statistics", headers=EN).get_data(as_text=True)
    for text in ("Statistics of this table", "Rounds they ended", "Days won", "Best AURUXXX – Die Goldene Zwölf total", "−15"):
        assert text in page, text
    assert "Statistik dieses Tisches" in phone.get(f"/g/{games[2]}/statistics", headers=DE).get_data(as_text=True)
    assert context["records"][0].players == "Ben" and context["records"][0].total == "−15"


def test_the_statistics_are_reached_from_every_sheet_the_evening_the_table_card_and_the_table_address(
    plain_app: Flask, phone: PhoneClient
) -> None:
    """Each links on with its own address; the table address leads to the running game's statistics."""
    token = start(phone, "auruxxx", PLAYERS)
    game = tokens(plain_app, token)
    with plain_app.app_context():
        table = game_of(plain_app, token).card_table.token
    assert f'href="/g/{token}/statistics"' in phone.get(f"/g/{token}").get_data(as_text=True)
    assert f'href="/g/{game.read}/statistics"' in phone.get(f"/g/{game.read}").get_data(as_text=True)
    assert f'href="/g/{token}/statistics"' in phone.get(f"/g/{token}/evening").get_data(as_text=True)
    assert f'href="/g/{token}/statistics"' in phone.get(f"/g/{token}/table-card").get_data(as_text=True)
    redirect = phone.get(f"/t/{table}/statistics")
    assert redirect.status_code == 303 and redirect.headers["Location"] == f"/g/{token}/statistics"
    assert phone.get("/t/nothing-here/statistics").status_code == 404


def test_a_read_only_address_sees_the_statistics_without_any_edit_address_or_form(plain_app: Flask, phone: PhoneClient) -> None:
    """No edit token of any game of the table, no merge form; its records link to read-only sheets."""
    games = three_games(phone)
    read = tokens(plain_app, games[2]).read
    _, context = figures_of(plain_app, phone, read)
    page = phone.get(f"/g/{read}/statistics", headers=EN).get_data(as_text=True)
    with plain_app.app_context():
        table = game_of(plain_app, games[2]).card_table.token
    for secret in (*games, table):
        assert secret not in page
    assert "Count as one player" not in page and not context["may_change_names"]
    readable = {tokens(plain_app, token).read for token in games}
    assert all(line.url.removeprefix("/g/") in readable for line in context["records"])
    assert phone.post(f"/g/{read}/statistics/merge", data={"alias": "Anna", "player": "Ben"}).status_code == 404
    csv_answer = phone.get(f"/g/{read}/statistics.csv", headers=EN)
    assert csv_answer.status_code == 200 and all(secret not in csv_answer.get_data(as_text=True) for secret in games)


def test_a_table_merges_a_new_name_into_its_player_and_undoes_it(plain_app: Flask, phone: PhoneClient) -> None:
    """Anna sat down as "Anni" in a fourth game: merged she has four games; parted again Anni has her own; both changes stay stored."""
    games = three_games(phone)
    answer = phone.post(f"/g/{games[2]}/next/auruxxx", data={"player": ["Anni", "Ben", "Cleo"], "action": "start"})
    assert answer.status_code == 303
    fourth = str(answer.headers["Location"]).removeprefix("/g/")
    for index in range(3):
        tap(phone, fourth, "finish", player="Anni", round=str(index), golden12="1")
        for seat, points in ((1, 10), (2, 5)):
            tap(phone, fourth, f"hand/{seat}", round=str(index), action="save-points", points=str(points))
    before, _ = figures_of(plain_app, phone, fourth)
    assert {entry.player for entry in before.players} == {"Anna", "Ben", "Cleo", "Anni"}

    merged = phone.post(f"/g/{fourth}/statistics/merge", data={"alias": "Anni", "player": "anna"}, headers=EN)
    assert merged.status_code == 303 and merged.headers["Location"] == f"/g/{fourth}/statistics#names"
    after, _ = figures_of(plain_app, phone, fourth)
    anna = next(entry for entry in after.players if entry.player == "Anna")
    assert (anna.games, anna.wins, anna.names) == (4, 2, ("Anna", "Anni"))
    assert "Anni counts as Anna" in phone.get(f"/g/{fourth}/statistics", headers=EN).get_data(as_text=True)

    parted = phone.post(f"/g/{fourth}/statistics/unmerge", data={"alias": "Anni", "player": "anna"}, headers=EN)
    assert parted.status_code == 303
    again, _ = figures_of(plain_app, phone, fourth)
    assert {entry.player: entry.games for entry in again.players}["Anni"] == 1
    assert name_changes(plain_app) == 2


def test_a_refused_change_to_names_says_why_and_changes_nothing(plain_app: Flask, phone: PhoneClient) -> None:
    """Two who played together, an unknown name, an empty field, a name far too long, nothing to unmerge, an unknown action."""
    games = three_games(phone)
    refusals = [
        ({"alias": "Anna", "player": "Ben"}, "played in the same game"),
        ({"alias": "Zoe", "player": "Ben"}, "Nobody of that name played at this table"),
        ({"alias": "", "player": "Ben"}, "Choose two names of this table"),
        ({"alias": "A" * 500, "player": "Ben"}, "Choose two names of this table"),
        ({"player": "Ben"}, "Choose two names of this table"),
    ]
    for data, said in refusals:
        answer = phone.post(f"/g/{games[2]}/statistics/merge", data=data, headers=EN)
        assert answer.status_code == 422 and said in answer.get_data(as_text=True), (data, answer.status_code)
    unmerge = phone.post(f"/g/{games[2]}/statistics/unmerge", data={"alias": "Anna", "player": "Ben"}, headers=EN)
    assert unmerge.status_code == 422 and "not merged" in unmerge.get_data(as_text=True)
    assert phone.post(f"/g/{games[2]}/statistics/rename", data={"alias": "Anna", "player": "Ben"}).status_code == 404
    assert phone.post("/g/no-such-game/statistics/merge", data={"alias": "Anna", "player": "Ben"}).status_code == 404
    assert name_changes(plain_app) == 0


def test_the_history_exports_one_row_per_player_per_game_with_a_clear_header(phone: PhoneClient) -> None:
    """Three games of three players: nine rows under the header; German reads semicolons and a decimal comma."""
    games = three_games(phone)
    english = phone.get(f"/g/{games[0]}/statistics.csv", headers=EN)
    assert english.mimetype == "text/csv" and "attachment" in english.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(english.get_data(as_text=True).lstrip("\ufeff"))))
    assert rows[0] == ["Game no.", "Game", "Started", "Evening no.", "Player", "Name in this game", "Players", "Total", "Place", "Won"]
    assert len(rows) == 10
    assert rows[1][0:2] == ["1", "AURUXXX – Die Goldene Zwölf"] and rows[1][4:] == ["Anna", "Anna", "3", "45", "3", "no"]
    assert rows[2][4:] == ["Ben", "Ben", "3", "-15", "1", "yes"]
    german = phone.get(f"/g/{games[0]}/statistics.csv", headers=DE).get_data(as_text=True).lstrip("\ufeff")
    assert german.splitlines()[0].startswith("Partie Nr.;Partie;")


def test_the_figures_follow_every_change_they_were_computed_from(plain_app: Flask, phone: PhoneClient) -> None:
    """Kept figures are never stale: a finished game undone to running counts no more, a rematch finished counts at once."""
    first = start(phone, "auruxxx", PLAYERS)
    play_auruxxx(phone, first, finisher="Ben", hands={0: 10, 2: 5})
    assert figures_of(plain_app, phone, first)[0].games == 1
    undo = phone.get(f"/g/{first}", headers=EN).get_data(as_text=True)
    seq = undo.split('name="event" value="', 1)[1].split('"', 1)[0]
    assert phone.post(f"/g/{first}/undo", data={"event": seq}).status_code == 303
    assert figures_of(plain_app, phone, first)[0].games == 0
    tap(phone, first, "hand/2", round="2", action="save-points", points="5")
    assert figures_of(plain_app, phone, first)[0].games == 1
    second = rematch(phone, first)
    assert figures_of(plain_app, phone, second)[0].games == 1
    play_auruxxx(phone, second, finisher="Anna", hands={1: 10, 2: 5})
    figures, _ = figures_of(plain_app, phone, first)
    assert figures.games == 2 and {entry.player: entry.wins for entry in figures.players} == {"Anna": 1, "Ben": 1, "Cleo": 0}
