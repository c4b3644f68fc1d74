"""Game records in and out of the app: export equals the ``score`` command, import refuses like it."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
import sqlalchemy
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from models import Event, Game, Player, db, folded
from rules import record
from rules.games import Table
from tests.examples import AURUXXX_EXAMPLE, TWELVE_DAYS_EXAMPLE
from tests.helpers import EN, PhoneClient, csrf_token, event_count, game_count, problems, start

"""The 12 Days example of record-format.md."""

INVALID = json.loads(json.dumps(AURUXXX_EXAMPLE))
INVALID["rounds"][0]["passes"]["Anna"] = 4
INVALID["rounds"][0]["golden12"] = 0


# --- Helpers ---------------------------------------------------------------------------------


def scored_game(app: Flask, token: str) -> dict[str, Any]:
    """Return ``record.scored`` of what the stored game's history folds to."""
    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.token == token))
        assert game is not None
        return record.scored(folded(game).table.game)


def cli_score(runner: FlaskCliRunner, text: str) -> Any:
    """Run ``flask score -`` on a record text."""
    return runner.invoke(args=["score", "-"], input=text)


def import_json(client: FlaskClient, body: str | bytes, content_type: str = "application/json") -> TestResponse:
    """Post a record as the body of the import endpoint."""
    return client.post("/import", data=body, content_type=content_type, headers=EN)


def token_from(location: str) -> str:
    """Return the game token of a game page address (absolute or not)."""
    found = re.search(r"/g/([A-Za-z0-9_-]+)$", location)
    assert found is not None, location
    return found.group(1)


def upload(
    client: FlaskClient, content: bytes | None, token: str | None, filename: str = "game.json", language: str = "en"
) -> TestResponse:
    """Send the upload form, with a file (unless ``content`` is None) and a CSRF token (unless None)."""
    data: dict[str, Any] = {}
    if content is not None:
        data["record"] = (io.BytesIO(content), filename)
    if token is not None:
        data["csrf_token"] = token
    return client.post("/import", data=data, content_type="multipart/form-data", headers={"Accept-Language": language})


# --- Export ------------------------------------------------------------------------------------


def test_export_of_a_new_game_is_its_scored_record(plain_app: Flask, phone: PhoneClient) -> None:
    """A game without rounds exports its players, house rules and an empty result."""
    token = start(phone, "auruxxx")
    response = phone.get(f"/g/{token}/record.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    exported = response.get_json()
    assert exported == scored_game(plain_app, token)
    assert exported["rounds"] == [] and exported["result"]["complete"] is False


def test_export_follows_every_tap(plain_app: Flask, phone: PhoneClient) -> None:
    """After taps on the sheet the export is ``record.scored`` of the folded game, halves as .5."""
    token = start(phone, "auruxxx")
    taps = [
        ("happy-man", {"round": "0", "player": "Cleo"}),
        ("pass", {"round": "0", "player": "Anna"}),
        ("finish", {"round": "0", "player": "Ben", "golden12": "1"}),
        ("hand/0", {"round": "0", "action": "save-points", "points": "12"}),
        ("hand/2", {"round": "0", "action": "save", "cards": "n9 n8"}),
    ]
    for route, form in taps:
        assert phone.post(f"/g/{token}/{route}", data=form).status_code == 303
    response = phone.get(f"/g/{token}/record.json")
    assert response.get_json() == scored_game(plain_app, token)
    assert response.get_json()["result"]["rounds"] == [{"Anna": 17, "Ben": -5, "Cleo": 8.5}]
    assert '"Cleo": 8.5' in response.get_data(as_text=True)


def test_export_is_the_text_the_score_command_prints(phone: PhoneClient, strict_runner: FlaskCliRunner) -> None:
    """Scoring an exported record again with the CLI prints the very same text."""
    token = start(phone, "auruxxx")
    phone.post(f"/g/{token}/pass", data={"round": "0", "player": "Ben"})
    exported = phone.get(f"/g/{token}/record.json").get_data(as_text=True)
    outcome = cli_score(strict_runner, exported)
    assert outcome.exit_code == 0
    assert outcome.stdout == exported


def test_sheet_links_its_record_as_an_alternate(phone: PhoneClient) -> None:
    """The sheet announces its JSON record in the head and offers it for download."""
    token = start(phone, "auruxxx")
    page = phone.get(f"/g/{token}").get_data(as_text=True)
    assert f'<link rel="alternate" type="application/json" href="/g/{token}/record.json">' in page
    assert f'href="/g/{token}/record.json" download=' in page


def test_export_of_an_unknown_game_is_not_found(phone: PhoneClient) -> None:
    """No record behind a token no game has."""
    assert phone.get("/g/" + "x" * 32 + "/record.json").status_code == 404


# --- Import as JSON ------------------------------------------------------------------------------


@pytest.mark.parametrize("example", [AURUXXX_EXAMPLE, TWELVE_DAYS_EXAMPLE], ids=["auruxxx", "12days"])
def test_json_import_creates_the_game_and_answers_201(
    strict_app: Flask, strict_phone: PhoneClient, strict_runner: FlaskCliRunner, example: dict[str, Any]
) -> None:
    """A JSON record (no CSRF token needed) answers 201 with the new game's address; its export is the CLI's output."""
    text = json.dumps(example)
    response = import_json(strict_phone, text)
    assert response.status_code == 201
    location = response.headers["Location"]
    token = token_from(location)
    assert len(token) >= 32
    body = response.get_json()
    assert body["location"] == location and body["record"] == f"{location}/record.json"
    assert strict_phone.get(location).status_code == 200
    exported = strict_phone.get(f"/g/{token}/record.json").get_data(as_text=True)
    outcome = cli_score(strict_runner, text)
    assert outcome.exit_code == 0
    assert exported == outcome.stdout
    assert json.loads(exported) == scored_game(strict_app, token)
    assert game_count(strict_app) == 1 and event_count(strict_app) == 1


def test_imported_auruxxx_game_plays_on(strict_app: Flask, strict_phone: PhoneClient) -> None:
    """An imported game is a game like any other: its sheet shows the imported round and round 2 is played."""
    token = token_from(import_json(strict_phone, json.dumps(AURUXXX_EXAMPLE)).headers["Location"])
    sheet = strict_phone.get(f"/g/{token}", headers=EN)
    points = re.findall(r'<span class="points">(.*?)</span>', sheet.get_data(as_text=True))
    assert points == ["32", "0", "41"]
    assert "Round 2 of 3" in sheet.get_data(as_text=True)
    form = {"round": "1", "player": "Anna", "csrf_token": csrf_token(sheet)}
    assert strict_phone.post(f"/g/{token}/pass", data=form).status_code == 303
    assert scored_game(strict_app, token)["rounds"][0]["passes"]["Anna"] == 2
    with strict_app.app_context():
        kinds = [e.kind for e in db.session.scalars(select(Event).order_by(Event.seq))]
    assert kinds == ["import", "pass"]


def test_an_exported_record_imports_as_it_is(plain_app: Flask, phone: PhoneClient) -> None:
    """Export, import, export again: the same record, the result recomputed rather than trusted."""
    token = start(phone, "auruxxx")
    phone.post(f"/g/{token}/finish", data={"round": "0", "player": "Anna", "golden12": "2"})
    phone.post(f"/g/{token}/hand/1", data={"round": "0", "action": "save", "cards": "n5 two"})
    phone.post(f"/g/{token}/hand/2", data={"round": "0", "action": "save-points", "points": "9"})
    exported = phone.get(f"/g/{token}/record.json").get_json()
    exported["result"]["totals"]["Anna"] = 1000
    response = import_json(phone, json.dumps(exported))
    assert response.status_code == 201
    again = phone.get(f"/g/{token_from(response.headers['Location'])}/record.json").get_json()
    assert again == phone.get(f"/g/{token}/record.json").get_json()
    assert again["result"]["totals"] == {"Anna": -10, "Ben": 7, "Cleo": 9}


def test_invalid_record_is_refused_with_the_clis_problem_lines(
    strict_app: Flask, strict_phone: PhoneClient, strict_runner: FlaskCliRunner
) -> None:
    """An invalid record answers 422 with exactly the lines ``score`` prints, and no game is created."""
    text = json.dumps(INVALID)
    outcome = cli_score(strict_runner, text)
    assert outcome.exit_code == 2
    lines = outcome.stderr.splitlines()
    assert "rounds[0].passes.Anna: at most 3 passes per round (got 4)" in lines
    response = import_json(strict_phone, text)
    assert response.status_code == 422
    assert response.mimetype == "application/json"
    assert response.get_json() == {"problems": lines}
    assert "Location" not in response.headers
    assert game_count(strict_app) == 0 and event_count(strict_app) == 0


@pytest.mark.parametrize(
    "body",
    ['{"game": "auruxxx", ', "", "[]", '"auruxxx"', '{"game": "chess", "players": ["A", "B"]}'],
    ids=["cut off", "empty", "a list", "a string", "unknown game"],
)
def test_broken_json_is_refused_with_the_clis_problem_lines(
    strict_app: Flask, strict_phone: PhoneClient, strict_runner: FlaskCliRunner, body: str
) -> None:
    """Text that is no record at all answers 422 with the lines ``score`` prints, and creates nothing."""
    response = import_json(strict_phone, body)
    assert response.status_code == 422
    outcome = cli_score(strict_runner, body)
    assert outcome.exit_code == 2
    assert response.get_json() == {"problems": outcome.stderr.splitlines()}
    assert game_count(strict_app) == 0


def test_a_body_that_is_not_utf8_is_refused(strict_app: Flask, strict_phone: PhoneClient) -> None:
    """Bytes that are not text answer 422 naming the JSON error, not a 500."""
    response = import_json(strict_phone, b'{"game": "auruxxx", \xff}')
    assert response.status_code == 422
    (line,) = response.get_json()["problems"]
    assert line.startswith("record: is not valid JSON")
    assert game_count(strict_app) == 0


def test_an_oversized_record_is_refused(strict_app: Flask, strict_phone: PhoneClient) -> None:
    """A body far larger than any game record answers 422 without being read as a game."""
    huge = json.dumps({**AURUXXX_EXAMPLE, "padding": "x" * (300 * 1024)})
    response = import_json(strict_phone, huge)
    assert response.status_code == 422
    assert response.get_json() == {"problems": ["record: is larger than 256 KiB"]}
    assert game_count(strict_app) == 0


def test_json_sent_as_plain_text_is_treated_as_a_form_and_refused(strict_app: Flask, strict_phone: PhoneClient) -> None:
    """A cross-site-sendable ``text/plain`` body is a form without CSRF token: 400, and no game."""
    response = import_json(strict_phone, json.dumps(AURUXXX_EXAMPLE), content_type="text/plain")
    assert response.status_code == 400
    assert "CSRF" in response.get_data(as_text=True)
    assert game_count(strict_app) == 0


def test_json_sent_as_a_url_encoded_form_is_refused(strict_app: Flask, strict_phone: PhoneClient) -> None:
    """The other content type a page elsewhere may send without asking is refused the same way."""
    response = import_json(strict_phone, json.dumps(AURUXXX_EXAMPLE), content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert game_count(strict_app) == 0


# --- Import through the upload form ------------------------------------------------------------------


def test_import_page_shows_the_upload_form(strict_phone: PhoneClient) -> None:
    """The import page offers a file field in a multipart form with its CSRF token (it was a 500 once)."""
    response = strict_phone.get("/import", headers=EN)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert 'enctype="multipart/form-data"' in page and 'type="file" name="record"' in page
    assert csrf_token(response)


def session_csrf_token(client: FlaskClient) -> str:
    """Return the CSRF token of the upload form, valid for this client's session."""
    return csrf_token(client.get("/import"))


def test_upload_form_imports_and_redirects_to_the_game(strict_app: Flask, strict_phone: PhoneClient, strict_runner: FlaskCliRunner) -> None:
    """An uploaded record with the form's token answers 303 to the new game, whose export is the CLI's output."""
    text = json.dumps(AURUXXX_EXAMPLE)
    response = upload(strict_phone, text.encode(), session_csrf_token(strict_phone))
    assert response.status_code == 303
    token = token_from(response.headers["Location"])
    assert response.headers["Location"] == f"/g/{token}"
    assert strict_phone.get(f"/g/{token}/record.json").get_data(as_text=True) == cli_score(strict_runner, text).stdout
    assert game_count(strict_app) == 1


def test_upload_without_csrf_token_is_refused(strict_app: Flask, strict_phone: PhoneClient) -> None:
    """The upload form without its token answers 400 and creates nothing."""
    response = upload(strict_phone, json.dumps(AURUXXX_EXAMPLE).encode(), None)
    assert response.status_code == 400
    assert game_count(strict_app) == 0


def test_upload_without_a_file_asks_for_one(strict_app: Flask, strict_phone: PhoneClient) -> None:
    """Sending the form without choosing a file answers 422 with a message."""
    token = session_csrf_token(strict_phone)
    for response in (upload(strict_phone, None, token), upload(strict_phone, b"", token, filename="")):
        assert response.status_code == 422
        assert problems(response) == ["Choose a game record file to import."]
    assert game_count(strict_app) == 0


def test_upload_of_an_invalid_record_shows_the_clis_problem_lines(
    strict_app: Flask, strict_phone: PhoneClient, strict_runner: FlaskCliRunner
) -> None:
    """An invalid uploaded record answers 422 with the form and every line ``score`` prints."""
    text = json.dumps(INVALID)
    response = upload(strict_phone, text.encode(), session_csrf_token(strict_phone))
    assert response.status_code == 422
    assert 'type="file" name="record"' in response.get_data(as_text=True)
    assert problems(response) == cli_score(strict_runner, text).stderr.splitlines()
    assert game_count(strict_app) == 0


def test_upload_refusals_speak_the_readers_language(strict_app: Flask, strict_phone: PhoneClient) -> None:
    """The upload page names each problem's place as ``score`` does, and says what is wrong in German for a German reader."""
    response = upload(strict_phone, json.dumps(INVALID).encode(), session_csrf_token(strict_phone), language="de")
    assert response.status_code == 422
    assert problems(response) == [
        "rounds[0].golden12: wer die Runde beendet, legt 1 bis 5 Goldene 12 (hier 0)",
        "rounds[0].passes.Anna: höchstens 3-mal Passen pro Runde (hier 4)",
    ]
    assert game_count(strict_app) == 0


@pytest.mark.parametrize(
    ("case", "said"),
    [
        ("NaN in the result, which is ignored", ["result: NaN ist keine JSON-Zahl"]),
        ("an empty key in a round", ['rounds[0]: unbekannter Eintrag ""']),
        ("a name of only a zero-width space", ["players[3]: ein Spielername braucht mindestens ein sichtbares Zeichen"]),
        ("1,500 bad cards in one hand", ["rounds[0].hands.Anna.numbers: eine Hand hat höchstens 130 Zahlenkarten (hier 1500)"]),
    ],
)
def test_upload_refusals_of_the_settled_points_speak_the_readers_language(
    strict_app: Flask, strict_phone: PhoneClient, case: str, said: list[str]
) -> None:
    """The upload page says the new refusals in German too, each with its place."""
    text, _ = SETTLED_RECORDS[case]
    response = upload(strict_phone, text.encode(), session_csrf_token(strict_phone), language="de")
    assert response.status_code == 422
    assert problems(response) == said
    assert game_count(strict_app) == 0


def test_an_upload_lists_at_most_50_problems_in_the_readers_language(strict_app: Flask, strict_phone: PhoneClient) -> None:
    """1,500 bad cards are 49 lines and one that counts the rest, in German for a German reader."""
    response = upload(strict_phone, json.dumps(BAD_CARDS_EVERYWHERE).encode(), session_csrf_token(strict_phone), language="de")
    assert response.status_code == 422
    shown = problems(response)
    assert len(shown) == 50
    assert shown[0] == "rounds[0].hands.Ben.numbers[0]: Zahlenkarten gehen von 0 bis 12 (hier 13)"
    assert shown[-1] == "record: 1451 weitere Probleme sind nicht aufgeführt"
    assert game_count(strict_app) == 0


def test_upload_of_broken_json_is_refused(strict_app: Flask, strict_phone: PhoneClient) -> None:
    """A file that is not JSON answers 422 naming the JSON error."""
    response = upload(strict_phone, b"{not json", session_csrf_token(strict_phone))
    assert response.status_code == 422
    assert problems(response)[0].startswith("record: is not valid JSON")
    assert game_count(strict_app) == 0


# --- Hostile records: ``score`` and the import answer alike -------------------------------------------

HOSTILE_RECORDS = {
    "a key given twice": '{"game": "auruxxx", "players": ["A", "B"], "house_rules": {"halving": "net", "halving": "penalty"}}',
    "a list nested 985 deep": '{"game": "auruxxx", "players": ["A", "B"], "rounds": ' + "[" * 985 + "]" * 985 + "}",
    "31,000 players": json.dumps({"game": "auruxxx", "players": list(range(31_000))}),
    "a 100,000-character key": json.dumps({"game": "12days", "players": ["A", "B", "C"], "k" * 100_000: 1}),
    "a 4,000-digit number": '{"game": "12days", "players": ["A", "B", "C"], "days": [{"played": {"A": '
    + "7" * 4000
    + ', "B": 1, "C": 2}}]}',
    "the same name in other letters": json.dumps({"game": "auruxxx", "players": ["Anna", "ANNA", "\uff21nna"]}),
    "a control character in a name": json.dumps({"game": "auruxxx", "players": ["Anna", "Ben\u0007"]}),
    "a space around a name": json.dumps({"game": "auruxxx", "players": ["Anna", "Ben "]}),
    "an open round after the last": json.dumps(
        {**AURUXXX_EXAMPLE, "rounds": AURUXXX_EXAMPLE["rounds"] * 3, "open_round": {"passes": {"Anna": 1}}}
    ),
    "an open round with every hand": json.dumps(
        {**AURUXXX_EXAMPLE, "open_round": {"finisher": "Anna", "golden12": 1, "hands": {"Ben": {}, "Cleo": {}}}}
    ),
    "an open day beyond the deck": json.dumps({**TWELVE_DAYS_EXAMPLE, "open_day": {"played": {"A": "santa", "B": "santa"}}}),
    "names with joiners and a no-break space": json.dumps(
        {"game": "auruxxx", "players": ["\U0001f468\u200d\U0001f373", "\u0645\u0647\u0631\u200c\u0646\u0627\u0632", "Jean\u00a0Luc"]}
    ),
    "an open round": json.dumps({**AURUXXX_EXAMPLE, "open_round": {"happy_man": "Anna", "passes": {"Ben": 3}}}),
    "an open day": json.dumps({**TWELVE_DAYS_EXAMPLE, "open_day": {"played": {"B": 4}}}),
}
"""Records from the audit of hostile input, and the new keys of a backup: each refused or accepted the same way."""


def _with(base: dict[str, Any], **changes: Any) -> str:
    """Return a record as JSON text: a copy of ``base`` with some top-level keys replaced."""
    return json.dumps({**json.loads(json.dumps(base)), **changes}, ensure_ascii=False)


def _first_round(**changes: Any) -> list[dict[str, Any]]:
    """Return the rounds of the AURUXXX example with keys of its round replaced."""
    return [{**json.loads(json.dumps(AURUXXX_EXAMPLE["rounds"][0])), **changes}]


SIX = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz"]
BAD_CARDS_EVERYWHERE = {
    "game": "auruxxx",
    "players": SIX,
    "rounds": [{"finisher": "Anna", "golden12": 1, "happy_man": None, "hands": {p: {"numbers": [13] * 100} for p in SIX[1:]}}] * 3,
}
"""1,500 bad cards within what a record may hold: 100 in each of five hands, in three rounds."""
TOO_MANY_LINES = [
    f"rounds[0].hands.{player}.numbers[{index}]: number cards go from 0 to 12 (got 13)" for player in SIX[1:] for index in range(100)
][:49] + ["record: 1451 more problems are not listed"]

SETTLED_RECORDS: dict[str, tuple[str, list[str] | None]] = {
    "NaN in the result, which is ignored": (
        json.dumps(AURUXXX_EXAMPLE)[:-1] + ', "result": NaN}',
        ["result: NaN is not a JSON number"],
    ),
    "Infinity as a count of Golden 12": (
        json.dumps(AURUXXX_EXAMPLE).replace('"golden12": 1', '"golden12": Infinity'),
        ["rounds[0].golden12: Infinity is not a JSON number"],
    ),
    "-Infinity among the cards": (
        json.dumps(AURUXXX_EXAMPLE).replace("[3, 8, 11]", "[3, -Infinity, 11]"),
        ["rounds[0].hands.Anna.numbers[1]: -Infinity is not a JSON number"],
    ),
    "an empty key in a round": (_with(AURUXXX_EXAMPLE, rounds=_first_round(**{"": 1})), ['rounds[0]: unknown key ""']),
    "an empty key at the top": (_with(AURUXXX_EXAMPLE, **{"": 1}), ['record: unknown key ""']),
    "an invisible key": (_with(AURUXXX_EXAMPLE, **{"\u200b": 1}), ['record: unknown key "\\u200b"']),
    "an empty key given twice": (
        json.dumps(AURUXXX_EXAMPLE).replace('"passes": {', '"passes": {"": 1, "": 2, '),
        ['rounds[0].passes[""]: is given twice in one object'],
    ),
    "passes for an empty name": (
        _with(AURUXXX_EXAMPLE, rounds=_first_round(passes={"": 1})),
        ["rounds[0].passes[\"\"]: '' is not a player of this game"],
    ),
    "a name of only a zero-width space": (
        _with(AURUXXX_EXAMPLE, players=["Anna", "Ben", "Cleo", "\u200b"]),
        ["players[3]: a player's name needs at least one visible character"],
    ),
    "a name of only a combining accent": (
        _with(AURUXXX_EXAMPLE, players=["Anna", "Ben", "Cleo", "\u0301"]),
        ["players[3]: a player's name needs at least one visible character"],
    ),
    "a name of only a braille blank": (
        _with(AURUXXX_EXAMPLE, players=["Anna", "Ben", "Cleo", "\u2800"]),
        ["players[3]: a player's name needs at least one visible character"],
    ),
    "a name of combining marks over a Hangul filler": (
        _with(AURUXXX_EXAMPLE, players=["Anna", "Ben", "Cleo", "\u3164\u0301\u0308"]),
        ["players[3]: a player's name needs at least one visible character"],
    ),
    "an accented name, and one that begins with a combining mark": (
        _with(AURUXXX_EXAMPLE, players=["Anna", "Ben", "Cleo", "Zoe\u0301", "\u0301Emil"]),
        None,
    ),
    "a name with a run of spaces beside the same name with one": (
        _with(AURUXXX_EXAMPLE, players=["Anna", "Ben", "Cleo", "Anna  Lena", "Anna Lena"]),
        ["players[4]: 'Anna Lena' counts as the same name as 'Anna  Lena'; names are unique within a game"],
    ),
    "NaN under a key given twice": (
        json.dumps(AURUXXX_EXAMPLE)[:-1] + ', "x": NaN, "x": 1}',
        ["x: is given twice in one object", "x: NaN is not a JSON number"],
    ),
    "a Cyrillic Anna beside Anna": (
        _with(AURUXXX_EXAMPLE, players=["Anna", "Ben", "Cleo", "\u0410nna"]),
        ["players[3]: '\u0410nna' counts as the same name as 'Anna'; names are unique within a game"],
    ),
    "Anna and a zero-width space beside Anna": (
        _with(AURUXXX_EXAMPLE, players=["Anna", "Ben", "Cleo", "Anna\u200b"]),
        ["players[3]: 'Anna\\u200b' counts as the same name as 'Anna'; names are unique within a game"],
    ),
    "1,500 bad cards in one hand": (
        _with(AURUXXX_EXAMPLE, rounds=_first_round(hands={"Anna": {"numbers": [13] * 1500}})),
        ["rounds[0].hands.Anna.numbers: a hand holds at most 130 number cards (got 1500)"],
    ),
    "1,500 bad cards in fifteen hands": (json.dumps(BAD_CARDS_EVERYWHERE), TOO_MANY_LINES),
    "1,000 rounds": (_with(AURUXXX_EXAMPLE, rounds=AURUXXX_EXAMPLE["rounds"] * 1000), ["rounds: a game has 3 rounds (got 1000)"]),
    "1,000 days": (_with(TWELVE_DAYS_EXAMPLE, days=[{"taken_by": "A"}] * 1000), ["days: 12 Days has 12 days (got 1000)"]),
    "a final hand of 1,000 cards": (
        _with(TWELVE_DAYS_EXAMPLE, hands={**TWELVE_DAYS_EXAMPLE["hands"], "A": [1] * 1000}),
        ["hands.A: a hand holds exactly 12 cards at the end (got 1000)"],
    ),
    "no rounds yet, and a round being played": (
        json.dumps({"game": "auruxxx", "players": ["Anna", "Ben"], "open_round": {"happy_man": "Ben", "passes": {"Anna": 1}}}),
        None,
    ),
    "hands in the open round without a finisher": (
        _with(AURUXXX_EXAMPLE, open_round={"hands": {"Anna": {"points": 3}}}),
        ["open_round.hands: hands are counted once the finisher is known"],
    ),
    "every hand entered in the open round": (
        _with(AURUXXX_EXAMPLE, open_round={"finisher": "Anna", "golden12": 1, "hands": {"Ben": {}, "Cleo": {}}}),
        ["open_round: every hand is counted, so this round has ended: it belongs in rounds"],
    ),
    "no days yet, every card revealed and a Claus gift still to choose": (
        json.dumps({"game": "12days", "players": ["A", "B", "C"], "open_day": {"played": {"A": "santa", "B": 3, "C": 7}}}),
        None,
    ),
    "every card of the open day revealed, no Claus": (
        json.dumps({"game": "12days", "players": ["A", "B", "C"], "open_day": {"played": {"A": 5, "B": 3, "C": 7}}}),
        ["open_day: every player has revealed a card, so this day has ended: it belongs in days"],
    ),
}
"""The points record-format.md settles, each with the lines both ``score`` and the import answer (None: accepted)."""


def score_and_import(app: Flask, client: FlaskClient, runner: FlaskCliRunner, text: str) -> list[str] | None:
    """Return the lines a record is refused with (None when it is accepted), after checking that ``score`` and the import agree.

    `score` exits 2 exactly when the import answers 422, with the same lines, at most 50 of them;
    otherwise both print the same record.
    """
    outcome = cli_score(runner, text)
    response = import_json(client, text)
    assert "Traceback" not in outcome.output
    if outcome.exit_code == 2:
        lines: list[str] = outcome.stderr.splitlines()
        assert response.status_code == 422
        assert response.get_json() == {"problems": lines}
        assert len(lines) <= 50 and all(len(line) < 200 for line in lines)
        assert game_count(app) == 0 and event_count(app) == 0
        return lines
    assert outcome.exit_code == 0, outcome.output
    assert response.status_code == 201
    exported = client.get(f"/g/{token_from(response.headers['Location'])}/record.json")
    assert exported.get_data(as_text=True) == outcome.stdout
    return None


@pytest.mark.parametrize("text", HOSTILE_RECORDS.values(), ids=HOSTILE_RECORDS.keys())
def test_score_and_import_agree_on_every_hostile_record(
    strict_app: Flask, strict_phone: PhoneClient, strict_runner: FlaskCliRunner, text: str
) -> None:
    """`score` and the import refuse the same records with the same lines, and accept the rest alike."""
    score_and_import(strict_app, strict_phone, strict_runner, text)


@pytest.mark.parametrize(("text", "answer"), SETTLED_RECORDS.values(), ids=SETTLED_RECORDS.keys())
def test_score_and_import_answer_the_settled_points_as_the_format_says(
    strict_app: Flask, strict_phone: PhoneClient, strict_runner: FlaskCliRunner, text: str, answer: list[str] | None
) -> None:
    """Strict JSON, keys named in every message, invisible and look-alike names, bounded answers, the open round and day."""
    assert score_and_import(strict_app, strict_phone, strict_runner, text) == answer


# --- Export keeps the open round or day ---------------------------------------------------------


def stored_table(app: Flask, token: str) -> Table[Any]:
    """Return what the stored game's history folds to."""
    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.token == token))
        assert game is not None
        return folded(game).table


def test_export_keeps_the_open_round_and_import_restores_it(plain_app: Flask, phone: PhoneClient) -> None:
    """Figure, crosses, finisher and a hand tapped mid-round survive export and import; the copy plays on and undoes."""
    token = start(phone, "auruxxx")
    taps = [
        ("happy-man", {"round": "0", "player": "Cleo"}),
        ("pass", {"round": "0", "player": "Anna"}),
        ("pass", {"round": "0", "player": "Anna"}),
        ("finish", {"round": "0", "player": "Ben", "golden12": "2"}),
        ("hand/0", {"round": "0", "action": "save", "cards": "n7 fifty"}),
    ]
    for route, form in taps:
        assert phone.post(f"/g/{token}/{route}", data=form).status_code == 303
    exported = phone.get(f"/g/{token}/record.json").get_json()
    assert exported["rounds"] == []
    assert exported["open_round"] == {
        "finisher": "Ben",
        "golden12": 2,
        "happy_man": "Cleo",
        "passes": {"Anna": 2, "Ben": 0, "Cleo": 0},
        "hands": {"Anna": {"numbers": [7], "fifty": 1, "action": 0, "happy_man": 0, "two": 0, "golden12": 0}},
    }
    response = import_json(phone, json.dumps(exported))
    assert response.status_code == 201
    copy = token_from(response.headers["Location"])
    assert stored_table(plain_app, copy) == stored_table(plain_app, token)
    assert phone.get(f"/g/{copy}/record.json").get_json() == exported
    with plain_app.app_context():
        stored = list(db.session.scalars(select(Event).join(Game).where(Game.token == copy).order_by(Event.seq)))
    assert [e.kind for e in stored] == ["import", "happy_man", "pass", "pass", "finish", "hand"]
    assert phone.post(f"/g/{copy}/undo", data={"event": str(stored[-1].seq)}).status_code == 303
    assert "Anna" not in phone.get(f"/g/{copy}/record.json").get_json()["open_round"]["hands"]
    assert phone.post(f"/g/{copy}/hand/0", data={"round": "0", "action": "save-points", "points": "57"}).status_code == 303
    assert phone.post(f"/g/{copy}/hand/2", data={"round": "0", "action": "save-points", "points": "8"}).status_code == 303
    finished = phone.get(f"/g/{copy}/record.json").get_json()
    assert "open_round" not in finished
    assert finished["result"]["rounds"] == [{"Anna": 67, "Ben": -10, "Cleo": 4}]


def test_export_keeps_the_open_day_and_import_restores_it(plain_app: Flask, phone: PhoneClient) -> None:
    """Cards revealed on the day being played survive export and import, and the copy finishes the day."""
    response = phone.post("/new/12days", data={"player": ["A", "B", "C"], "action": "start"})
    token = token_from(response.headers["Location"])
    for player, card in (("A", "santa"), ("B", "3")):
        assert phone.post(f"/g/{token}/card", data={"day": "0", "player": player, "card": card}).status_code == 303
    exported = phone.get(f"/g/{token}/record.json").get_json()
    assert exported["open_day"] == {"played": {"A": "santa", "B": 3}}
    copy = token_from(import_json(phone, json.dumps(exported)).headers["Location"])
    assert stored_table(plain_app, copy) == stored_table(plain_app, token)
    assert phone.post(f"/g/{copy}/card", data={"day": "0", "player": "C", "card": "7"}).status_code == 303
    assert phone.post(f"/g/{copy}/gift", data={"day": "0", "player": "C"}).status_code == 303
    assert phone.get(f"/g/{copy}/record.json").get_json()["result"]["day_points"] == {"A": 0, "B": 0, "C": 1}


# --- An import is one transaction -----------------------------------------------------------------


def test_an_import_is_one_transaction(plain_app: Flask, phone: PhoneClient) -> None:
    """A failure while the import's changes are written (as a kill would cause) leaves no game, player or event behind."""
    running = {**AURUXXX_EXAMPLE, "open_round": {"happy_man": "Anna", "passes": {"Ben": 2}}}
    written: list[int] = []

    def fail_on_the_third_event(mapper: Any, connection: Any, target: Event) -> None:
        written.append(target.seq)
        if len(written) == 3:
            raise RuntimeError("the server died mid-import")

    sqlalchemy.event.listen(Event, "before_insert", fail_on_the_third_event)
    try:
        with pytest.raises(RuntimeError, match="mid-import"):
            import_json(phone, json.dumps(running))
    finally:
        sqlalchemy.event.remove(Event, "before_insert", fail_on_the_third_event)
    assert written == [1, 2, 3]
    with plain_app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Player)) == 0
    assert game_count(plain_app) == 0 and event_count(plain_app) == 0
    assert import_json(phone, json.dumps(running)).status_code == 201
    assert game_count(plain_app) == 1 and event_count(plain_app) == 4
