"""The plain sheet and the table's statistics as a host serves them: gunicorn's gevent workers on SQLite and on PostgreSQL.

The web tests play both through Flask's test client on SQLite; here the production server
answers them on each database: a plain game started and entered by forms, and an evening of
every game imported as a table's phone would, whose statistics page and CSV add it up.
"""

from __future__ import annotations

import csv
import io
import re

from testbed.phones import TIMEOUT, Phone
from testbed.servers import GunicornServer
from tests.examples import finished_auruxxx, twelve_days

PLAYERS = ["Anna", "Ben", "Cleo"]
WIZARD = {
    "game": "plain",
    "name": "Wizard",
    "players": PLAYERS,
    "rounds": [{"points": {"Anna": 20, "Ben": -10, "Cleo": 30}}],
    "finished": True,
}
"""An open-ended plain game over after one round: Cleo wins with 30."""


def test_a_plain_game_is_started_and_entered_by_its_forms(server: GunicornServer) -> None:
    phone = Phone(server.base)
    phone.get("/new/plain")
    started = phone.post(
        "/new/plain", {"player": PLAYERS[:2], "name": "Wizard", "wins": "highest", "end": "rounds", "rounds": "1", "action": "start"}
    )
    assert started.status_code == 303, started.text[:500]
    token = started.headers["Location"].rstrip("/").rsplit("/g/", 1)[1]
    for seat, typed in enumerate(("-10", "25")):
        keypad = phone.get(f"/g/{token}/points/{seat}")
        seen = re.search(r'name="seen" value="(\d+)"', keypad.text)
        assert keypad.status_code == 200 and seen is not None, keypad.text[:500]
        saved = phone.post(f"/g/{token}/points/{seat}", {"round": 0, "typed": typed, "action": "save", "seen": seen.group(1)})
        assert saved.status_code == 303, saved.text[:500]
    record = phone.get(f"/g/{token}/record.json").json()
    assert record["result"]["totals"] == {"Anna": -10, "Ben": 25} and record["result"]["winners"] == ["Ben"]
    assert record["result"]["complete"] is True


def test_an_evening_of_every_game_adds_up_in_the_tables_statistics(server: GunicornServer) -> None:
    phone = Phone(server.base)
    games = [finished_auruxxx(), WIZARD, twelve_days(hands=True)]
    imported = phone.session.post(f"{server.base}/import", json={"evening": {"table": "Küchentisch"}, "games": games}, timeout=TIMEOUT)
    assert imported.status_code == 201, imported.text[:500]
    token = str(imported.headers["Location"]).rsplit("/g/", 1)[1]

    page = phone.get(f"/g/{token}/statistics")
    assert page.status_code == 200
    for shown in ("3 finished games", "AURUXXX", "Wizard", "12 Days"):
        assert shown in page.text, shown
    exported = phone.get(f"/g/{token}/statistics.csv")
    assert exported.status_code == 200 and exported.headers["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(exported.text.lstrip("\ufeff"))))
    players = sum(len(game["players"]) for game in games)
    assert len(rows) == 1 + players, rows[:3]
