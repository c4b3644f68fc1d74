"""Six phones, two gunicorn workers, one game: on SQLite and on PostgreSQL nothing is lost or counted twice.

Every phone here is a separate HTTP client with its own session cookie and CSRF token,
tapping the way a browser without htmx does (a form post answered by a 303 to the sheet);
the server is the app under real gunicorn, exactly as ``python -m serving`` starts it.
"""

from __future__ import annotations

import re
import socket
import threading
import uuid
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from sqlalchemy import Engine, select

from models import Event, Game
from testbed.phones import LiveStream, Phone, finish_round, new_auruxxx_game
from testbed.servers import GunicornServer
from tests.waiting import PATIENCE_SECONDS, until

pytestmark = pytest.mark.system

SIX = ["Anna", "Ben", "Cleo", "Dana", "Emil", "Finn"]
HANDOVERS = 6
"""Happy-Man handovers each phone makes, every one with its own idempotency key."""
STORED = 303
REFUSED = 422
OVERTAKEN = 409


def stored_events(engine: Engine, token: str) -> list[Any]:
    """Return a game's events straight from the database, in order."""
    with engine.connect() as connection:
        return list(
            connection.execute(
                select(Event.seq, Event.kind, Event.payload, Event.idempotency_key)
                .join(Game, Game.id == Event.game_id)
                .where(Game.token == token)
                .order_by(Event.seq)
            )
        )


def at_once(count: int, action: Callable[[int, threading.Barrier], Any]) -> list[Any]:
    """Run ``action(i, barrier)`` on ``count`` threads that start together; return the results in order."""
    barrier = threading.Barrier(count)
    with ThreadPoolExecutor(count) as pool:
        futures = [pool.submit(action, index, barrier) for index in range(count)]
        return [future.result() for future in futures]


def no_server_errors(server: GunicornServer) -> None:
    """Fail on any traceback in gunicorn's log: a 500 is never a right answer to a tap."""
    log = server.log_text()
    assert "Traceback" not in log, log[-4000:]
    assert '" 500 ' not in log, log[-4000:]


def test_six_phones_tapping_at_once_store_every_tap_exactly_once(server: GunicornServer, engine: Engine) -> None:
    """Handovers and resent taps count once each; of six crosses for one player at once exactly three stand.

    Each handover says which change its phone saw: one overtaken by another phone's handover
    meanwhile stores nothing (409, the player chooses); sent again, it counts only if the figure
    is back where that phone saw it.
    """
    host = Phone(server.base)
    token = new_auruxxx_game(host, SIX)
    phones = [Phone(server.base) for _ in SIX]
    for phone in phones:
        assert phone.get(f"/g/{token}").status_code == 200
    shared_key = uuid.uuid4().hex
    handed: dict[str, int] = {}
    resent: list[tuple[int, int]] = []

    def play(index: int, barrier: threading.Barrier) -> list[tuple[str, int]]:
        phone = phones[index]
        answers: list[tuple[str, int]] = []
        barrier.wait()
        # The same tap arriving from every phone at once (a form resent through another connection).
        answer = phone.post(f"/g/{token}/happy-man", {"round": 0, "player": SIX[0], "seen": 0}, key=shared_key)
        answers.append(("shared", answer.status_code))
        for step in range(HANDOVERS):
            key = f"hm-{index}-{step}"
            handover = {"round": 0, "player": SIX[(index + step) % len(SIX)], "seen": phone.seen(token)}
            handed[key] = phone.post(f"/g/{token}/happy-man", handover, key=key).status_code
            answers.append(("handover", handed[key]))
            if step % 3 == 0:
                again = phone.post(f"/g/{token}/happy-man", handover, key=key).status_code
                resent.append((handed[key], again))
                handed[key] = min(handed[key], again)  # stored (303) by either
                answers.append(("resent", again))
            # All six phones cross the same player's box in the same step: at most three crosses are legal.
            cross = {"round": 0, "player": SIX[step]}
            answers.append((f"pass:{SIX[step]}", phone.post(f"/g/{token}/pass", cross, key=f"pass-{index}-{step}").status_code))
        return answers

    answers = [answer for per_phone in at_once(len(phones), play) for answer in per_phone]

    by_kind = Counter(answers)
    assert by_kind[("shared", STORED)] == len(phones)
    assert by_kind[("handover", STORED)] + by_kind[("handover", OVERTAKEN)] == len(phones) * HANDOVERS, by_kind
    assert len(resent) == len(phones) * 2 and all(again == STORED for first, again in resent if first == STORED), resent
    stored_handovers = sum(status == STORED for status in handed.values())
    for name in SIX:
        assert by_kind[(f"pass:{name}", STORED)] == 3, by_kind
        assert by_kind[(f"pass:{name}", REFUSED)] == 3, by_kind
    assert sum(by_kind.values()) == len(answers)

    events = stored_events(engine, token)
    handovers = 1 + stored_handovers
    assert [event.seq for event in events] == list(range(1, handovers + 3 * len(SIX) + 1))
    assert Counter(event.kind for event in events) == {"happy_man": handovers, "pass": 3 * len(SIX)}
    keys = Counter(event.idempotency_key for event in events)
    assert keys[shared_key] == 1
    assert all(keys[key] == (1 if status == STORED else 0) for key, status in handed.items())
    assert Counter(event.payload["player"] for event in events if event.kind == "pass") == dict.fromkeys(SIX, 3)
    holder = [event.payload["player"] for event in events if event.kind == "happy_man"][-1]

    sheet = phones[0].get(f"/g/{token}").text
    assert sheet.count('class="box crossed"') == 3 * len(SIX)
    assert f"{holder} holds the Happy-Man figure" in sheet

    finish_round(host, token, 0, SIX[0], SIX, dict.fromkeys(SIX, 10))
    exported = phones[1].get(f"/g/{token}/record.json").json()
    assert exported["rounds"][0]["passes"] == dict.fromkeys(SIX, 3)
    assert exported["rounds"][0]["happy_man"] == holder
    no_server_errors(server)


def test_two_corrections_of_one_round_at_once_store_one_and_refuse_the_other(server: GunicornServer, engine: Engine) -> None:
    """Two phones save a correction of round 1 seen at the same version: one is stored, one gets 409."""
    players = SIX[:3]
    host = Phone(server.base)
    token = new_auruxxx_game(host, players)
    finish_round(host, token, 0, "Anna", players, {"Ben": 10, "Cleo": 20})
    phones = [Phone(server.base), Phone(server.base)]
    path = f"/g/{token}/rounds/1/correct"

    for trial in range(4):
        seen = [re.search(r'name="seen" value="(\d+)"', phone.get(path).text) for phone in phones]
        assert seen[0] and seen[1] and seen[0].group(1) == seen[1].group(1)

        def save(index: int, barrier: threading.Barrier) -> tuple[int, str]:
            form = {
                "seen": seen[index].group(1),  # type: ignore[union-attr]
                "finisher": "Anna",
                "golden12": 1,
                "happy_man": "",
                **{f"passes-{seat}": 0 for seat in range(len(players))},
                "hand-1": 30 + 2 * trial + index,
                "hand-2": 20,
            }
            barrier.wait()
            answer = phones[index].post(path, form)
            return answer.status_code, answer.text

        answers = at_once(2, save)
        statuses = sorted(status for status, _ in answers)
        assert statuses == [STORED, 409], f"trial {trial}: {statuses}"
        winner = next(index for index, (status, _) in enumerate(answers) if status == STORED)
        refused = answers[1 - winner][1]
        assert "Someone else changed this round meanwhile" in refused
        exported = host.get(f"/g/{token}/record.json").json()
        assert exported["rounds"][0]["hands"]["Ben"] == {"points": 30 + 2 * trial + winner}
        corrections = [event for event in stored_events(engine, token) if event.kind == "correct_round"]
        assert len(corrections) == trial + 1
    no_server_errors(server)


def test_the_access_log_never_shows_a_game_token(server: GunicornServer) -> None:
    """Taps, pages, exports and streams are logged with ``/g/…`` instead of the game's address."""
    host = Phone(server.base)
    token = new_auruxxx_game(host, SIX[:2])
    host.get(f"/g/{token}")
    host.post(f"/g/{token}/pass", {"round": 0, "player": "Ben"})
    host.get(f"/g/{token}/record.json", headers={"Referer": f"{server.base}/g/{token}"})
    stream = LiveStream(f"{server.base}/g/{token}/live?since=0").start()
    stream.close()
    log = until(lambda: "/live?since=0" in (text := server.log_text()) and text, what="the stream's access line")
    assert "/g/…/live?since=0" in log
    assert token not in log
    assert "/g/…/pass" in log and "/g/…/record.json" in log


def test_six_undos_naming_the_same_change_at_once_undo_exactly_one(server: GunicornServer, engine: Engine) -> None:
    """Issue 12, item 13: six phones tap undo at once; undos naming no change store nothing, six naming one undo it once."""
    players = SIX[:3]
    host = Phone(server.base)
    token = new_auruxxx_game(host, players)
    for name in players:
        assert host.post(f"/g/{token}/pass", {"round": 0, "player": name}).status_code == STORED
    phones = [Phone(server.base) for _ in range(6)]
    named = set()
    for phone in phones:
        button = re.search(r'name="event" value="(\d+)"', phone.get(f"/g/{token}").text)
        assert button is not None
        named.add(button.group(1))
    assert named == {"3"}

    def undo(form: dict[str, str]) -> Callable[[int, threading.Barrier], int]:
        def tap(index: int, barrier: threading.Barrier) -> int:
            barrier.wait()
            return phones[index].post(f"/g/{token}/undo", form).status_code

        return tap

    assert at_once(len(phones), undo({})) == [REFUSED] * len(phones)
    assert [event.kind for event in stored_events(engine, token)] == ["pass"] * 3
    statuses = Counter(at_once(len(phones), undo({"event": "3"})))
    assert statuses[STORED] == 1 and statuses[STORED] + statuses[REFUSED] + statuses[409] == len(phones), statuses
    undos = [event.payload for event in stored_events(engine, token) if event.kind == "undo"]
    assert undos == [{"event": 3}]
    assert host.get(f"/g/{token}/record.json").status_code == 200
    no_server_errors(server)


def raw_request(server: GunicornServer, head: str, body: bytes = b"") -> bytes:
    """Send bytes exactly as written (no client rewrites the path) and return everything read until the server closes."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE_SECONDS) as connection:
        connection.sendall(head.encode() + body)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


def test_a_percent_encoded_game_address_never_shows_its_token_in_the_access_log(server: GunicornServer) -> None:
    """Issue 12, item 15: ``/%67/<token>`` and a token typed in percent-escapes open the game, and the log shows ``…``."""
    host = Phone(server.base)
    token = new_auruxxx_game(host, SIX[:2])
    escaped = "".join(f"%{ord(c):02X}" for c in token)
    for path in (f"/%67/{token}", f"/%67/{token}/record.json", f"/g/{escaped}", f"/%2567/{token}"):
        answer = raw_request(
            server, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nReferer: {server.base}/%67/{token}\r\nConnection: close\r\n\r\n"
        )
        assert answer.startswith(b"HTTP/1.1 200" if "%2567" not in path else b"HTTP/1.1 404"), (path, answer[:100])
    log = until(lambda: (text := server.log_text()).count("/%67/…") >= 2 and text, what="both access lines")
    assert token not in log
    assert '"GET /%67/… HTTP/1.1" 200' in log and '"GET /%67/…/record.json HTTP/1.1" 200' in log
    no_server_errors(server)


def test_gunicorn_closes_the_connection_after_refusing_a_large_body(server: GunicornServer) -> None:
    """Issue 12, item 16: a body over the limit gets 413 with ``Connection: close``, and the connection does close."""
    head = f"POST /import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {4 * 1024 * 1024}\r\n\r\n"
    answer = raw_request(server, head, b"[" * 1024)
    status, _, rest = answer.partition(b"\r\n")
    headers = rest.split(b"\r\n\r\n", 1)[0].decode().lower().splitlines()
    assert status.startswith(b"HTTP/1.1 413"), answer[:200]
    assert "connection: close" in headers
