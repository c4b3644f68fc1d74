"""CSV for spreadsheets and the share text: a row per round or day with a column per player, the result in one line."""

from __future__ import annotations

import copy
import csv
import io
import json

from flask import Flask
from flask.testing import FlaskClient

from tests.examples import AURUXXX_EXAMPLE, finished_auruxxx, twelve_days
from tests.helpers import PhoneClient, read_token, start
from views.table.scoreboard import Row, Scoreboard, share_text

ENGLISH = {"Accept-Language": "en"}
GERMAN = {"Accept-Language": "de"}


def imported(client: FlaskClient, record: dict[str, object]) -> str:
    """Import a record and return the new game's edit token."""
    response = client.post("/import", data=json.dumps(record), content_type="application/json")
    assert response.status_code == 201, response.get_data(as_text=True)
    return str(response.json["location"]).rsplit("/", 1)[-1]  # type: ignore[index]


def rows(body: bytes, delimiter: str) -> list[list[str]]:
    """Return the cells of a CSV file written for a spreadsheet (UTF-8 with a byte-order mark)."""
    assert body.startswith(b"\xef\xbb\xbf"), "spreadsheets need the byte-order mark to read umlauts"
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig")), delimiter=delimiter))


def test_the_csv_has_a_row_per_round_and_a_column_per_player_in_the_readers_format(phone: PhoneClient) -> None:
    token = imported(phone, finished_auruxxx())
    german = phone.get(f"/g/{token}/points.csv", headers=GERMAN)
    assert german.status_code == 200 and german.mimetype == "text/csv"
    assert german.headers["Content-Disposition"].startswith('attachment; filename="tischblock-auruxxx-')
    assert rows(german.data, ";") == [
        ["Runde", "Anna", "Ben", "Cleo"],
        ["1", "32", "0", "41"],
        ["2", "-10", "14", "22,5"],
        ["3", "27", "4,5", "-5"],
        ["Summe", "49", "18,5", "58,5"],
    ]
    english = phone.get(f"/g/{token}/points.csv", headers=ENGLISH)
    assert rows(english.data, ",")[2] == ["2", "-10", "14", "22.5"]
    assert rows(english.data, ",")[0][0] == "Round" and rows(english.data, ",")[-1][0] == "Total"


def test_a_twelve_days_csv_has_a_row_per_day_then_the_bonus(phone: PhoneClient) -> None:
    token = imported(phone, twelve_days(hands=True))
    table = rows(phone.get(f"/g/{token}/points.csv", headers=ENGLISH).data, ",")
    assert table[0] == ["Day", "Anna", "Ben", "Cleo"]
    assert [row[0] for row in table[1:]] == [str(day) for day in range(1, 13)] + ["Bonus", "Total"]
    assert table[2] == ["2", "0", "0", "2"]
    assert table[-2] == ["Bonus", "24", "30", "36"] and table[-1] == ["Total", "52", "61", "55"]


def test_a_running_game_exports_the_rounds_played_so_far_at_either_address(plain_app: Flask, phone: PhoneClient) -> None:
    token = start(phone, "auruxxx")
    for address in (token, read_token(plain_app, token)):
        assert rows(phone.get(f"/g/{address}/points.csv", headers=ENGLISH).data, ",") == [
            ["Round", "Anna", "Ben", "Cleo"],
            ["Total", "0", "0", "0"],
        ]
    assert phone.get("/g/not-a-game/points.csv").status_code == 404


def test_a_name_a_spreadsheet_would_run_as_a_formula_stays_text(phone: PhoneClient) -> None:
    record = copy.deepcopy(AURUXXX_EXAMPLE)
    text = json.dumps(record).replace('"Cleo"', '"=HYPERLINK(1)"')
    token = imported(phone, json.loads(text))
    header = rows(phone.get(f"/g/{token}/points.csv", headers=ENGLISH).data, ",")[0]
    assert header == ["Round", "Anna", "Ben", "'=HYPERLINK(1)"]


def test_the_result_offers_one_line_to_share_winner_first(phone: PhoneClient) -> None:
    token = imported(phone, finished_auruxxx())
    german = phone.get(f"/g/{token}", headers=GERMAN).get_data(as_text=True)
    assert "Ben gewinnt mit 18,5 Punkten – Anna 49, Cleo 58,5" in german
    assert 'data-share-url="/g/' in german and f'data-share-url="/g/{token}"' not in german, "the read-only address"
    english = phone.get(f"/g/{token}", headers=ENGLISH).get_data(as_text=True)
    assert "Ben wins with 18.5 points – Anna 49, Cleo 58.5" in english
    days = imported(phone, twelve_days(hands=True))
    assert "Ben wins with 61 points – Cleo 55, Anna 52" in phone.get(f"/g/{days}", headers=ENGLISH).get_data(as_text=True)


def test_equal_winners_share_the_line_and_one_point_is_singular(plain_app: Flask) -> None:
    board = Scoreboard(
        kind="12days",
        stage="Day",
        caption="",
        players=("Anna", "Ben", "Cleo"),
        rows=(Row("1", {}),),
        totals={"Anna": 2, "Ben": 2, "Cleo": 0},
        winners=("Anna", "Ben"),
        fewest_win=False,
    )
    with plain_app.test_request_context(headers=GERMAN):
        assert share_text(board) == "Anna und Ben gewinnen mit 1 Punkt – Cleo 0"
    with plain_app.test_request_context(headers=ENGLISH):
        assert share_text(board) == "Anna and Ben win with 1 point – Cleo 0"


def test_no_share_line_while_the_game_is_running(phone: PhoneClient) -> None:
    token = start(phone, "auruxxx")
    assert "share-text" not in phone.get(f"/g/{token}").get_data(as_text=True)
