"""Live sheets: a change is pushed as the re-rendered sheet, rendered once per change and language,
compressed without waiting, and no client address or process holds more streams than it may."""

from __future__ import annotations

import gzip
import re
import threading
import zlib
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, insert, select
from sqlalchemy import event as sqlalchemy_event
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session
from werkzeug.test import TestResponse

import live.hub
import models.shipped
import views.table.stream
from live import Framing, Message, event, hub_of
from live.hub import newest_versions
from models import Event, Folded, Game, Shipped, append_event, db, folded
from models.shipped import Notice, notice, read_notice
from tests.helpers import make_app, phone_of, start, tap
from tests.waiting import until
from tests.web.auruxxx_states import auruxxx_over
from tests.web.states import STATES, tokens
from views.pages.viewers import Viewer, shared_viewer

WAIT = 10.0
"""How long a test waits for a stream to be woken; it returns as soon as it is."""


def app_with(database: Path, **settings: Any) -> Flask:
    """Return a migrated app without CSRF checks whose live streams end at once, with ``settings`` on top."""
    return make_app(database, csrf=False, **{"LIVE_STREAM_SECONDS": 0, **settings})


@pytest.fixture(scope="module")
def live_app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    """Return this module's app; a stream hands over what it has to say and ends."""
    return app_with(tmp_path_factory.mktemp("live") / "tischblock.db", LIVE_TICK_SECONDS=3600)


@pytest.fixture
def client(live_app: Flask) -> FlaskClient:
    return phone_of(live_app)


def crossed_twice(client: FlaskClient) -> str:
    """Start an AURUXXX game and cross Anna's box twice (version 2); return its edit token."""
    token = start(client, "auruxxx")
    for _ in range(2):
        tap(client, token, "pass", player="Anna", round="0")
    return token


def events_of(response: TestResponse) -> list[dict[str, str]]:
    """Return a stream's events (comments left out), each as field → value, ``data`` lines joined."""
    return events_in(response.get_data(as_text=True))


def events_in(text: str) -> list[dict[str, str]]:
    """Return the events of a stream's text, as ``events_of`` does for a response."""
    found = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if line.startswith(":"):
                continue
            name, _, value = line.partition(": ")
            fields[name] = f"{fields[name]}\n{value}" if name in fields else value
        if fields:
            found.append(fields)
    return found


def test_a_phone_behind_the_game_gets_the_current_sheet_pushed(client: FlaskClient) -> None:
    """Reconnecting with an older Last-Event-ID brings the sheet itself, swapped in place of #sheet, id = version."""
    token = crossed_twice(client)
    pushed = events_of(client.get(f"/g/{token}/live", headers={"Last-Event-ID": "1"}))
    assert pushed[0] == {"retry": "500"}
    assert pushed[1]["id"] == "2" and "event" not in pushed[1]
    html = pushed[1]["data"]
    assert html.startswith('<hx-partial hx-target="#sheet" hx-swap="outerHTML">') and html.endswith("</hx-partial>")
    assert html.count('id="sheet"') == 1
    assert html.count("box crossed") == 2
    assert f"/g/{token}/pass" in html


def test_a_phone_that_is_up_to_date_gets_nothing_but_the_retry(client: FlaskClient) -> None:
    token = crossed_twice(client)
    assert events_of(client.get(f"/g/{token}/live?since=2")) == [{"retry": "500"}]
    assert events_of(client.get(f"/g/{token}/live?since=7", headers={"Last-Event-ID": "2"})) == [{"retry": "500"}]


def test_a_pushed_sheet_carries_nothing_of_one_phone(client: FlaskClient) -> None:
    """The CSRF token and tap keys are empty (each phone fills in its own); the page itself has them."""
    token = crossed_twice(client)
    html = events_of(client.get(f"/g/{token}/live?since=0"))[1]["data"]
    assert html.count('name="csrf_token" value=""') == html.count('name="csrf_token"') > 0
    assert html.count('name="key" value=""') == html.count('name="key"') > 0
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert re.search(r'<meta name="csrf-token" content="[^"]+">', page)
    assert re.search(r'name="key" value="[0-9a-f]{32}"', page)


def test_the_read_only_address_gets_a_sheet_without_controls_or_the_edit_address(live_app: Flask, client: FlaskClient) -> None:
    token = crossed_twice(client)
    game = tokens(live_app, token)
    html = events_of(client.get(f"/g/{game.read}/live?since=0"))[1]["data"]
    assert token not in html
    assert "hx-post" not in html and "<form" not in html
    assert html.count("box crossed") == 2


def test_the_pushed_sheet_speaks_the_phones_language(client: FlaskClient) -> None:
    token = crossed_twice(client)
    german = events_of(client.get(f"/g/{token}/live?since=0", headers={"Accept-Language": "de"}))[1]["data"]
    english = events_of(client.get(f"/g/{token}/live?since=0", headers={"Accept-Language": "en"}))[1]["data"]
    assert "Verlauf" in german and "History" not in german
    assert "History" in english and "Verlauf" not in english


def test_each_change_is_rendered_once_per_language(live_app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tap renders the sheet in its phone's language (German) as it is stored; five phones in German and two in
    English catching up cost one more render, in English; the next change the same two."""
    renders: list[tuple[str, str]] = []
    render = views.table.stream.live_sheet

    def counted(game: Game, viewer: Viewer, state: Folded) -> tuple[int, str, str]:
        renders.append((viewer.address, viewer.language))
        return render(game, viewer, state)

    monkeypatch.setattr(views.table.stream, "live_sheet", counted)
    token = crossed_twice(client)
    assert renders == [(token, "de")] * 2
    phones = ["de"] * 5 + ["en"] * 2
    for language in phones:
        assert events_of(client.get(f"/g/{token}/live?since=0", headers={"Accept-Language": language}))[1]["id"] == "2"
    assert renders[2:] == [(token, "en")]
    tap(client, token, "pass", player="Ben", round="0")
    for language in phones:
        assert events_of(client.get(f"/g/{token}/live?since=2", headers={"Accept-Language": language}))[1]["id"] == "3"
    assert sorted(renders[3:]) == [(token, "de"), (token, "en")]


def wait_in_background(app: Flask, game_id: int, seen: int) -> tuple[threading.Thread, list[int | None], threading.Event]:
    """Wait on the app's hub for the game to pass ``seen``, on a thread; the result lands in the list."""
    hub = hub_of(app)
    result: list[int | None] = []
    watching = threading.Event()

    def wait() -> None:
        with hub.watching(game_id, seen):
            watching.set()
            result.append(hub.wait(game_id, seen, WAIT))

    thread = threading.Thread(target=wait)
    thread.start()
    assert watching.wait(WAIT)
    return thread, result, watching


def test_a_tap_stored_by_this_process_wakes_its_games_streams(live_app: Flask, client: FlaskClient) -> None:
    """This app asks the database only once an hour: the wake-up can only come from the tap itself."""
    token = crossed_twice(client)
    game = tokens(live_app, token)
    thread, result, _ = wait_in_background(live_app, game.id, 2)
    tap(client, token, "pass", player="Cleo", round="0")
    thread.join(WAIT)
    assert result == [3]


def test_a_change_stored_by_another_process_reaches_the_streams_through_the_database(tmp_path: Path) -> None:
    """On SQLite the listener's tick finds an event written behind the app's back."""
    database = tmp_path / "tischblock.db"
    app = app_with(database, LIVE_TICK_SECONDS=0.01)
    client = phone_of(app)
    token = crossed_twice(client)
    game = tokens(app, token)
    thread, result, _ = wait_in_background(app, game.id, 2)
    other_process = create_engine(f"sqlite:///{database}")
    with other_process.begin() as connection:
        connection.execute(
            insert(Event).values(game_id=game.id, seq=3, kind="pass", payload={"round": 0, "player": "Ben"}, idempotency_key="elsewhere")
        )
    other_process.dispose()
    thread.join(WAIT)
    assert result == [3]
    with app.app_context():
        assert newest_versions(db.engine, [game.id, 999]) == {game.id: 3, 999: 0}


def statements_of(app: Flask, action: Any) -> list[tuple[str, int]]:
    """Run ``action()`` and return every SQL statement it sent, with how many parameters each carried (the listener's own left out)."""
    sent: list[tuple[str, int]] = []
    caller = threading.get_ident()

    def note(connection: Any, cursor: Any, statement: str, parameters: Any, context: Any, executemany: bool) -> None:
        if threading.get_ident() == caller:
            sent.append((statement, len(parameters or ())))

    with app.app_context():
        engine = db.engine
    sqlalchemy_event.listen(engine, "before_cursor_execute", note)
    try:
        action()
    finally:
        sqlalchemy_event.remove(engine, "before_cursor_execute", note)
    return sent


def test_the_sqlite_tick_asks_one_question_however_many_games_are_open(tmp_path: Path) -> None:
    """One query per tick, for the events after the last one seen: the same statement with one game watched or forty."""
    app = app_with(tmp_path / "tischblock.db", LIVE_TICK_SECONDS=3600)
    client = phone_of(app)
    games = [tokens(app, crossed_twice(client)).id for _ in range(40)]
    hub = hub_of(app)
    with app.app_context():
        engine = db.engine
    ticks = []
    for watched in (games[:1], games):
        with ExitStack() as stack:
            for game_id in watched:
                stack.enter_context(hub.watching(game_id, 2))
            ticks.append(statements_of(app, lambda: hub.look(engine, 0)))
    assert len(ticks[0]) == 1
    assert ticks[0] == ticks[1]


def test_the_sqlite_tick_hands_on_only_what_changed_since_the_last_look(tmp_path: Path) -> None:
    app = app_with(tmp_path / "tischblock.db", LIVE_TICK_SECONDS=3600)
    client = phone_of(app)
    first, second = (crossed_twice(client) for _ in range(2))
    hub = hub_of(app)
    with app.app_context():
        engine = db.engine
    last_id, _ = hub.look(engine, 0)
    seen: list[tuple[int, int]] = []
    real_changed = hub.changed
    hub.changed = lambda game_id, version, shipped=None: seen.append((game_id, version)) or real_changed(game_id, version, shipped)  # type: ignore[method-assign]
    assert hub.look(engine, last_id) == (last_id, False)
    assert seen == []
    tap(client, second, "pass", player="Ben", round="0")  # this process says so at once, and the tick once more
    newest, _ = hub.look(engine, last_id)
    assert newest == last_id + 1
    assert set(seen) == {(tokens(app, second).id, 3)}
    assert tokens(app, first).id not in dict(seen)


def test_a_reconnect_takes_the_version_from_the_listener_and_asks_only_for_its_address(tmp_path: Path) -> None:
    """With the listener keeping track, reopening a stream costs one query (the address), like the health check."""
    app = app_with(tmp_path / "tischblock.db", LIVE_TICK_SECONDS=0.01)
    client = phone_of(app)
    token = crossed_twice(client)
    game = tokens(app, token)
    thread, result, _ = wait_in_background(app, game.id, 2)
    hub = hub_of(app)
    until(lambda: hub.version_of(game.id) is not None, what="the listener to learn the game's version", seconds=WAIT)
    assert hub.version_of(game.id) == 2
    sent = statements_of(app, lambda: events_of(client.get(f"/g/{token}/live?since=0", headers={"Last-Event-ID": "2"})))
    assert [statement.split()[0] for statement, _ in sent] == ["SELECT"]
    assert "FROM games" in sent[0][0]
    tap(client, token, "pass", player="Ben", round="0")
    thread.join(WAIT)
    assert result == [3]


@pytest.fixture
def capped_app(tmp_path: Path) -> Iterator[Flask]:
    """Return an app whose process takes three streams, two per client address."""
    yield app_with(tmp_path / "tischblock.db", LIVE_STREAMS_PER_PROCESS=3, LIVE_STREAMS_PER_ADDRESS=2, LIVE_RETRY_AFTER_SECONDS=7)


def open_stream(client: FlaskClient, token: str, address: str, **headers: str) -> TestResponse:
    """Open a stream from ``address`` and leave it open (its body unread) until closed."""
    return client.get(f"/g/{token}/live?since=0", buffered=False, environ_overrides={"REMOTE_ADDR": address}, headers=headers)


def assert_refused(response: TestResponse) -> None:
    """A refused stream: 503, when to try again, and a reason in words."""
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "7"
    assert "Too many open sheets" in response.get_data(as_text=True)


def test_one_address_cannot_hold_more_streams_than_its_share(capped_app: Flask) -> None:
    client = phone_of(capped_app)
    token = start(client, "auruxxx")
    held = [open_stream(client, token, "10.0.0.1") for _ in range(2)]
    assert [stream.status_code for stream in held] == [200, 200]
    assert_refused(open_stream(client, token, "10.0.0.1", **{"Accept-Language": "en"}))
    other = open_stream(client, token, "10.0.0.2")
    assert other.status_code == 200
    held[0].close()
    again = open_stream(client, token, "10.0.0.1")
    assert again.status_code == 200
    for stream in (held[1], other, again):
        stream.close()
    assert hub_of(capped_app).open_streams() == 0


def test_a_process_cannot_hold_more_streams_than_its_cap(capped_app: Flask) -> None:
    client = phone_of(capped_app)
    token = start(client, "auruxxx")
    held = [open_stream(client, token, f"10.0.0.{n}") for n in range(3)]
    assert all(stream.status_code == 200 for stream in held)
    assert_refused(open_stream(client, token, "10.0.0.9", **{"Accept-Language": "en"}))
    assert client.get(f"/g/{token}").status_code == 200
    for stream in held:
        stream.close()
    assert open_stream(client, token, "10.0.0.9").status_code == 200


def test_behind_a_trusted_proxy_streams_are_counted_per_real_client(tmp_path: Path) -> None:
    """With TRUSTED_PROXIES=1 the proxy's X-Forwarded-For names the client; without it, the header is ignored."""
    for trusted, second in ((1, 200), (0, 503)):
        app = app_with(tmp_path / f"proxy-{trusted}.db", LIVE_STREAMS_PER_ADDRESS=1, TRUSTED_PROXIES=trusted)
        client = phone_of(app)
        token = start(client, "auruxxx")
        first = open_stream(client, token, "127.0.0.1", **{"X-Forwarded-For": "203.0.113.1"})
        other = open_stream(client, token, "127.0.0.1", **{"X-Forwarded-For": "203.0.113.2"})
        assert (first.status_code, other.status_code) == (200, second)
        first.close()
        other.close()


def test_a_gzipped_stream_inflates_as_it_arrives_to_the_same_events(client: FlaskClient) -> None:
    token = crossed_twice(client)
    plain = client.get(f"/g/{token}/live?since=0", headers={"Accept-Encoding": "identity"})
    packed = client.get(f"/g/{token}/live?since=0", headers={"Accept-Encoding": "gzip, br"})
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.get_data()) == plain.get_data()
    assert len(packed.get_data()) * 3 < len(plain.get_data())


def test_every_framed_message_can_be_read_before_the_next_is_sent() -> None:
    """Nothing waits in a compressor: each message inflates completely from its own bytes, the end closes the gzip."""
    framing = Framing(gzipped=True)
    reader = zlib.decompressobj(wbits=31)
    texts = [event("<p>first</p>", event_id=1), ": still here\n\n", event("<p>second</p>\n<p>x</p>", event_id=2)]
    for text in texts:
        assert reader.decompress(framing.frame(Message.of(text))) == text.encode()
    assert reader.decompress(framing.end()) == b""
    assert reader.eof and reader.unused_data == b""
    assert Framing(gzipped=False).frame(Message.of(texts[0])) == texts[0].encode()
    assert gzip.decompress(Framing(gzipped=True).end()) == b""


def test_the_health_check_asks_the_database(client: FlaskClient, tmp_path: Path) -> None:
    healthy = client.get("/healthz")
    streams = hub_of(client.application).open_streams()
    assert healthy.status_code == 200 and healthy.get_json() == {"status": "ok", "database": True, "streams": streams}
    assert healthy.headers["Cache-Control"] == "no-store"
    broken = make_app(tmp_path / "missing" / "x.db", migrate=False)
    answer = phone_of(broken).get("/healthz")
    assert answer.status_code == 503 and answer.get_json() == {"status": "unavailable", "database": False, "streams": 0}


def test_pages_records_styles_and_scripts_are_compressed_but_never_the_stream(client: FlaskClient) -> None:
    token = crossed_twice(client)
    page = client.get(f"/g/{token}", headers={"Accept-Encoding": "gzip"})
    assert page.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in page.headers["Vary"]
    assert b'id="sheet"' in gzip.decompress(page.get_data())
    finished = STATES["auruxxx-over"](client)
    for path in ("/static/css/app.css", "/static/js/app.js", f"/g/{finished}/record.json"):
        answer = client.get(path, headers={"Accept-Encoding": "br, gzip"})
        assert answer.headers.get("Content-Encoding") in ("br", "gzip"), path
    stream = client.get(f"/g/{token}/live?since=0", headers={"Accept-Encoding": "br, zstd"})
    assert "Content-Encoding" not in stream.headers
    assert stream.get_data(as_text=True).startswith("retry: 500")


def test_a_sheet_that_cannot_be_rendered_is_announced_so_the_phone_fetches_it(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The refetch stays the fallback: a failed render becomes a "changed" event with the version (in English: the taps rendered German)."""
    token = crossed_twice(client)

    def broken(game: Game, viewer: Viewer, state: Folded) -> tuple[int, str, str]:
        raise RuntimeError("template trouble")

    monkeypatch.setattr(views.table.stream, "live_sheet", broken)
    pushed = events_of(client.get(f"/g/{token}/live?since=0", headers={"Accept-Language": "en"}))
    assert pushed[1] == {"id": "2", "event": "changed", "data": "2"}
    assert "could not be rendered" in caplog.text


def test_a_request_that_finds_no_free_database_connection_is_told_to_come_back(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server with more work than it can do answers 503 with Retry-After in words, never a 500."""
    token = crossed_twice(client)

    def pool_exhausted(*args: Any, **kwargs: Any) -> Any:
        raise PoolTimeout("QueuePool limit reached")

    monkeypatch.setattr(Session, "execute", pool_exhausted)
    answer = client.get(f"/g/{token}", headers={"Accept-Language": "en"})
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "5"
    assert "very busy" in answer.get_data(as_text=True)


def test_a_taps_own_answer_is_the_sheet_the_table_is_pushed(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """One render serves the tapper and every phone watching: the answer and the push are the same sheet.

    A refused tap gets this phone's own sheet, with the refusal on it.
    """
    token = crossed_twice(client)
    renders: list[str] = []
    render = views.table.stream.live_sheet

    def counted(game: Game, viewer: Viewer, state: Folded) -> tuple[int, str, str]:
        renders.append(viewer.language)
        return render(game, viewer, state)

    monkeypatch.setattr(views.table.stream, "live_sheet", counted)
    answer = client.post(f"/g/{token}/pass", data={"player": "Ben", "round": "0"}, headers={"HX-Request": "true"})
    assert answer.status_code == 200 and "HX-Request" in answer.headers["Vary"]
    sheet = answer.get_data(as_text=True)
    assert sheet.count("box crossed") == 3 and 'name="key" value=""' in sheet
    pushed = events_of(client.get(f"/g/{token}/live?since=2"))[1]
    assert pushed["id"] == "3" and sheet.strip().splitlines()[0] in pushed["data"]
    assert renders == ["de"]
    for _ in range(2):
        tap(client, token, "pass", player="Ben", round="0")
    refused = client.post(f"/g/{token}/pass", data={"player": "Ben", "round": "0"}, headers={"HX-Request": "true"})
    assert refused.status_code == 422 and 'role="alert"' in refused.get_data(as_text=True)
    assert re.search(r'name="key" value="[0-9a-f]{32}"', refused.get_data(as_text=True)), "a refusal is this phone's own sheet"


def pushed_on(app: Flask, token: str, since: int) -> dict[str, str]:
    """Return the event a stream of ``app`` pushes to a phone that showed version ``since``."""
    return events_of(phone_of(app).get(f"/g/{token}/live?since={since}", headers={"Accept-Language": "de"}))[1]


def fresh_render(app: Flask, token: str) -> dict[str, str]:
    """Return the pushed event for the sheet at ``token`` as ``app`` renders it now, in German, from the database."""
    with app.app_context():
        game = db.session.scalars(select(Game).where(Game.token == token)).one()
        version, _, data = views.table.stream.live_sheet(game, shared_viewer(token, editable=True, language="de"), folded(game))
    return events_in(event(data, event_id=version))[0]


def stamped_now(pushed: dict[str, str]) -> dict[str, str]:
    """Return a pushed event with the moment its sheet was rendered (``data-as-of``, what an offline phone says it shows) left out."""
    return {**pushed, "data": re.sub(r'data-as-of="[^"]*"', "", pushed["data"])}


def two_apps(tmp_path: Path) -> tuple[Flask, Flask, str]:
    """Return two apps on one SQLite file, as two server processes, and a game started on the first at version 2."""
    tapper, other = (app_with(tmp_path / "tischblock.db", LIVE_TICK_SECONDS=3600) for _ in range(2))
    return tapper, other, crossed_twice(phone_of(tapper))


@contextmanager
def watched_by(app: Flask, token: str) -> Iterator[Callable[[], None]]:
    """Keep the game watched by a stream of ``app`` (at version 2); yield one tick of its listener, from where it stood.

    The listener the stream starts has caught up (read every watched game's version) before the test goes on:
    a catch-up after the test's change would take that change's version from the database.
    """
    hub = hub_of(app)
    with app.app_context():
        engine = db.engine
    last_id, _ = hub.look(engine, 0)

    def tick() -> None:
        hub.look(engine, last_id)

    game_id = tokens(app, token).id
    with hub.watching(game_id, 2):
        until(lambda: hub.version_of(game_id) is not None, what="the listener to catch up")
        yield tick


def counted_renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Count every render of a live sheet from now on."""
    renders: list[str] = []
    render = views.table.stream.live_sheet
    monkeypatch.setattr(views.table.stream, "live_sheet", lambda *args: renders.append("render") or render(*args))
    return renders


def test_a_tap_on_one_server_is_pushed_by_another_without_rendering_it_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tapping process renders the sheet once; another process on the same SQLite file takes it on its tick and
    pushes it as it is, identical to what it would render itself."""
    tapper, other, token = two_apps(tmp_path)
    with watched_by(other, token) as look:
        tap(phone_of(tapper), token, "pass", player="Ben", round="0")
        renders = counted_renders(monkeypatch)
        look()
        pushed = pushed_on(other, token, 2)
    assert renders == []
    assert pushed["id"] == "3"
    assert stamped_now(pushed) == stamped_now(fresh_render(other, token))


def test_a_change_stored_without_its_sheet_is_rendered_where_it_is_pushed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A change that came without a pushed sheet (stored by other code than a tap, or by a process that died before it
    rendered) is waited for a moment, in case its sheet follows, then rendered by the process that pushes it."""
    tapper, other, token = two_apps(tmp_path)
    with watched_by(other, token) as look:
        with tapper.app_context():
            append_event(
                db.session.scalars(select(Game).where(Game.token == token)).one(),
                "pass",
                {"round": 0, "player": "Ben"},
                idempotency_key="no-sheet",
            )
        look()
        assert hub_of(other).wait(tokens(other, token).id, 2, 0) is None, "its sheet may still come: nobody is woken yet"
        monkeypatch.setattr(live.hub, "SHEET_WAIT_SECONDS", 0.0)
        look()
        assert hub_of(other).wait(tokens(other, token).id, 2, 0) == 3
        renders = counted_renders(monkeypatch)
        pushed = pushed_on(other, token, 2)
    assert renders == ["render"]
    assert stamped_now(pushed) == stamped_now(fresh_render(other, token))


def test_a_notification_carries_the_sheet_only_while_it_fits_in_postgresqls_payload(monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL refuses a payload of 8,000 bytes: a sheet too big for it is left out, and the listener renders it."""
    sheet = Message.of(event("<p>" + "Anna Ben Cleo " * 50 + "</p>", event_id=3))
    shipped = Shipped("token", "de", sheet.deflated)
    payload = notice(7, 3, shipped)
    assert read_notice(payload) == Notice(7, 3, shipped) and shipped.text() == sheet.text
    monkeypatch.setattr(models.shipped, "NOTIFY_PAYLOAD_LIMIT", len(payload))
    assert notice(7, 3, shipped) == "7:3"
    assert read_notice("7:3") == Notice(7, 3)


def test_a_tap_whose_sheet_cannot_be_rendered_is_stored_all_the_same(
    client: FlaskClient, live_app: Flask, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Rendering the pushed sheet after the tap was stored must never cost the tap: it counts, and it is announced without a sheet."""
    token = crossed_twice(client)

    def broken(game: Game, viewer: Viewer, state: Folded) -> tuple[int, str, str]:
        raise RuntimeError("template trouble")

    monkeypatch.setattr(views.table.stream, "live_sheet", broken)
    tap(client, token, "pass", player="Ben", round="0")
    assert "could not be rendered after the tap" in caplog.text
    with live_app.app_context():
        game = db.session.scalars(select(Game).where(Game.token == token)).one()
        assert folded(game).version == 3


# --- What an address hears when the table moves on -------------------------------------------------


def stream_in_background(app: Flask, token: str, *, tv: str | None = None) -> tuple[threading.Thread, list[bytes]]:
    """Open the live stream of an edit address as a phone has it open (or of its read-only address, as the TV of table ``tv``), up to date, on a thread; what it sends lands in the list."""
    ids = tokens(app, token)
    game_id, address = ids.id, ids.read if tv else token
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        seen = folded(game).version
    sent: list[bytes] = []
    started = threading.Event()

    def listen() -> None:
        with app.app_context():
            for message in views.table.stream.messages(app, game_id, address, "en", seen, seen, WAIT, tv=tv):
                sent.append(message.text)
                started.set()

    thread = threading.Thread(target=listen)
    thread.start()
    assert started.wait(WAIT)
    return thread, sent


def test_the_old_address_hears_at_once_over_its_stream_that_it_stopped_working(live_app: Flask, client: FlaskClient) -> None:
    """Issue 18: after "new address" the phone on the old address is told at once (``retired``), not at its next lost tap."""
    token = start(client, "auruxxx")
    thread, sent = stream_in_background(live_app, token)
    assert client.post(f"/g/{token}/new-address").status_code == 303
    thread.join(WAIT)
    assert not thread.is_alive(), "the stream ends once it has said so"
    assert sent[-1] == b"event: retired\ndata: retired\n\n"


def table_address(app: Flask, token: str) -> str:
    """Return the address of the table the game an edit or read-only token opens is played at."""
    with app.app_context():
        game = db.session.scalar(select(Game).where((Game.token == token) | (Game.read_token == token)))
        assert game is not None
        return game.card_table.token


def test_the_tv_hears_at_once_that_its_table_address_stopped_working(live_app: Flask, client: FlaskClient) -> None:
    """The TV looks through the unchanged read-only address, but its join code is the table address new addresses replaced: it says so, not a dead code."""
    token = start(client, "auruxxx")
    table = table_address(live_app, token)
    thread, sent = stream_in_background(live_app, token, tv=table)
    assert client.post(f"/g/{token}/new-address").status_code == 303
    thread.join(WAIT)
    assert not thread.is_alive(), "the stream ends once it has said so"
    assert sent[-1] == b"event: retired\ndata: retired\n\n"


def test_a_tv_on_a_replaced_table_address_cannot_open_its_stream_again(live_app: Flask, client: FlaskClient) -> None:
    """A TV that reconnects after the table got new addresses is refused (404), which its page reads as retired."""
    token = start(client, "auruxxx")
    table = table_address(live_app, token)
    watch = tokens(live_app, token).read

    def opened(table: str) -> int:
        response = client.get(f"/g/{watch}/live?tv={table}", buffered=False)
        response.close()
        return response.status_code

    assert opened(table) == 200
    assert client.post(f"/g/{token}/new-address").status_code == 303
    assert opened(table) == 404
    assert opened(table_address(live_app, watch)) == 200, "the new table address works"


def test_the_tv_page_says_when_its_address_no_longer_works_instead_of_showing_a_dead_code(live_app: Flask, client: FlaskClient) -> None:
    """The TV's pages (a running game, and between two games) carry the notice its script shows on "retired", worded for a TV."""
    token = start(client, "auruxxx")
    table = table_address(live_app, token)
    page = client.get(f"/t/{table}/tv", follow_redirects=True, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'hx-sse:close="retired"' in page and 'id="retired"' in page
    assert "open the TV address shown there" in page
    over = auruxxx_over(client)
    between = client.get(f"/t/{table_address(live_app, over)}/tv", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'hx-sse:close="retired"' in between and "open the TV address shown there" in between


def test_a_phone_on_the_finished_sheet_is_pushed_the_rematch_it_follows_by_itself(live_app: Flask, client: FlaskClient) -> None:
    """Issue 18: the pushed sheet of the finished game carries the one way to the rematch, which the phone follows (data-follow)."""
    first = auruxxx_over(client)
    thread, sent = stream_in_background(live_app, first)
    answer = client.post(f"/g/{first}/rematch")
    assert answer.status_code == 303
    second = str(answer.headers["Location"]).removeprefix("/g/")
    thread.join(WAIT)
    pushed = b"".join(sent).decode()
    assert pushed.count("rematch-notice") == 1
    assert f'href="/g/{second}" data-follow' in pushed, "with the edit rights this phone had"
