"""Security of every page: headers, no inline script or style, cookies, the read-only address, new addresses, tokens.

One app serves most of this module (CSRF off, so that a request reaches its view and the
view's own answer is tested); the cookie and content-type tests use ``strict_app``, which
checks CSRF like the real app.
"""

from __future__ import annotations

import json
import logging
import re
import string
import threading
import time
import urllib.request

import itsdangerous
import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select, text
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.serving import make_server
from werkzeug.test import TestResponse

from models import Game, db
from models.game import new_token
from tests.helpers import EN, HTMX, PhoneClient, make_app, phone_of, start, tap
from tests.web.states import STATES, Tokens, clone, counts, tokens

ANSWER_SECONDS = 10.0
"""How long a request to a real server here may take (a generous bound; the test goes on at the answer)."""
TOKEN_ROUTE = re.compile(r"<(?:\w+:)?(\w+)>")


@pytest.fixture(scope="module")
def secure_app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    """Return this module's app: a database migrated once, CSRF off, live streams that end at once."""
    return make_app(tmp_path_factory.mktemp("secure") / "tischblock.db", csrf=False, LIVE_STREAM_SECONDS=0.2)


@pytest.fixture(scope="module")
def games(secure_app: Flask) -> dict[str, Tokens]:
    """Build one game in each state."""
    client = phone_of(secure_app)
    return {name: tokens(secure_app, build(client)) for name, build in STATES.items()}


def fill(rule: str, token: str, kind: str = "auruxxx") -> str:
    """Return a route's address for a game: seat 0 (Anna, who never ends a round) and round or day 1."""
    return TOKEN_ROUTE.sub(lambda m: {"token": token, "kind": kind, "seat": "0"}.get(m.group(1), "1"), rule)


def game_rules(app: Flask) -> list[tuple[str, str, set[str]]]:
    """Return (endpoint, rule, methods) of every route that takes a game's token."""
    return sorted(
        (rule.endpoint, rule.rule, set(rule.methods or ()) - {"HEAD", "OPTIONS"})
        for rule in app.url_map.iter_rules()
        if "token" in rule.arguments
    )


def fits(endpoint: str, kind: str) -> bool:
    """Return whether an endpoint belongs to a game of ``kind`` (the shared ones belong to both)."""
    return not (endpoint.startswith("auruxxx.") and kind != "auruxxx") and not (endpoint.startswith("twelve_days.") and kind != "12days")


def kind_of(state: str) -> str:
    """Return the game a state's name is about."""
    return state.split("-", 1)[0]


# --- Every page type ------------------------------------------------------------------------


def every_page(app: Flask, games: dict[str, Tokens]) -> list[tuple[str, dict[str, str]]]:
    """Return the address of every kind of page the app renders, with the headers to ask for it."""
    pages: list[tuple[str, dict[str, str]]] = [
        ("/", EN),
        ("/", {"Accept-Language": "de"}),
        ("/new/auruxxx", EN),
        ("/new/12days", EN),
        ("/import", EN),
        ("/faq", EN),
        ("/faq/auruxxx", EN),
        ("/faq/12days", {"Accept-Language": "de"}),
        ("/no-such-page", EN),
        ("/g/no-such-game", {"Accept-Language": "de"}),
        ("/g/no-such-game", HTMX),
    ]
    client = phone_of(app)
    for game in ("auruxxx", "12days"):
        faq = client.get(f"/faq/{game}").get_data(as_text=True)
        entry = re.search(rf'href="(/faq/{game}/[\w-]+)"', faq)
        assert entry, "the FAQ lists no entry"
        pages.append((entry.group(1), EN))
    for state, game in games.items():
        kind = kind_of(state)
        pages += [(f"/g/{game.edit}", EN), (f"/g/{game.edit}", HTMX), (f"/g/{game.read}", EN), (f"/g/{game.read}/history", EN)]
        pages += [(f"/g/{game.edit}/history", EN), (f"/g/{game.edit}/join", EN), (f"/g/{game.edit}/join", HTMX)]
        for endpoint, rule, methods in game_rules(app):
            if "GET" in methods and "POST" in methods and fits(endpoint, kind):
                pages.append((fill(rule, game.edit), EN))
    return pages


def test_every_page_type_is_covered(secure_app: Flask, games: dict[str, Tokens]) -> None:
    """Each GET page of the app answers 200 in at least one state (so the checks below see it rendered)."""
    client = phone_of(secure_app)
    rendered = {
        path.split("?")[0] for path, headers in every_page(secure_app, games) if client.get(path, headers=headers).status_code == 200
    }
    shapes = {re.sub(r"/g/[\w-]{32}", "/g/T", path) for path in rendered}
    for wanted in (
        "/g/T",
        "/g/T/history",
        "/g/T/join",
        "/g/T/finish",
        "/g/T/hand/0",
        "/g/T/rounds/1/correct",
        "/g/T/final-hand/0",
        "/g/T/days/1/correct",
        "/new/auruxxx",
        "/import",
        "/faq",
    ):
        assert wanted in shapes, f"no state renders {wanted}"


def test_pages_send_the_security_headers_and_have_no_inline_script_or_style(secure_app: Flask, games: dict[str, Tokens]) -> None:
    """Every page (and fragment, and error page) has the headers, and no inline script or ``style`` attribute."""
    client = phone_of(secure_app)
    for path, headers in every_page(secure_app, games):
        response = client.get(path, headers=headers)
        assert response.status_code in (200, 303, 404), (path, response.status_code)
        assert_security_headers(response, path)
        page = response.get_data(as_text=True)
        inline = re.findall(r"<script\b(?![^>]*\bsrc=)[^>]*>", page, re.I)
        assert not inline, f"inline script on {path}: {inline}"
        assert not re.search(r"\sstyle\s*=", page, re.I), f"style attribute on {path}"
        assert not re.search(r"\son[a-z]+\s*=", page, re.I), f"inline event handler on {path}"


def assert_security_headers(response: TestResponse, path: str) -> None:
    """Check the headers every answer carries."""
    policy = response.headers.get("Content-Security-Policy", "")
    directives = {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}
    assert directives.get("script-src") == ["'self'"], (path, policy)
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy, (path, policy)
    assert directives.get("frame-ancestors") == ["'none'"], (path, policy)
    assert response.headers.get("X-Content-Type-Options") == "nosniff", path
    assert response.headers.get("Referrer-Policy") == "same-origin", path
    assert response.headers.get("X-Frame-Options") == "DENY", path


def test_answers_that_are_not_pages_send_the_headers_too(secure_app: Flask, games: dict[str, Tokens]) -> None:
    """The export, an error as JSON, a tap's redirect and a refused form carry the same headers."""
    client = phone_of(secure_app)
    game = clone(secure_app, games["auruxxx-fresh"].id)
    answers = {
        "export": client.get(f"/g/{game.read}/record.json"),
        "json error": client.get("/g/nothing", headers={"Accept": "application/json"}),
        "redirect": client.post(f"/g/{game.edit}/pass", data={"player": "Anna", "round": "0"}),
        "refusal": client.post(f"/g/{game.edit}/pass", data={"player": "Nobody", "round": "0"}),
        "wrong method": client.get(f"/g/{game.edit}/pass"),
    }
    assert [answer.status_code for answer in answers.values()] == [200, 404, 303, 400, 405]
    for name, answer in answers.items():
        assert_security_headers(answer, name)


# --- Error pages ---------------------------------------------------------------------------------


def test_a_missing_page_looks_the_same_whatever_is_missing(secure_app: Flask, games: dict[str, Tokens]) -> None:
    """An unknown token, a read-only token on a write route and an address that never existed: the very same 404."""
    client = phone_of(secure_app)
    game = games["auruxxx-round-finished"]
    bodies = {
        path: client.get(path, headers=EN)
        for path in (
            "/no-such-page",
            "/g/no-such-game",
            f"/g/{'x' * 32}",
            f"/g/{game.read}/join",
            f"/g/{game.read}/finish",
            f"/g/{game.read}/rounds/1/correct",
            f"/g/{game.edit}/rounds/9/correct",
            f"/g/{game.edit}/final-hand/1",
            "/faq/monopoly",
        )
    }
    bodies["post, read-only"] = client.post(f"/g/{game.read}/pass", data={"player": "Anna", "round": "1"}, headers=EN)
    bodies["post, unknown"] = client.post(f"/g/{'y' * 32}/pass", data={"player": "Anna", "round": "1"}, headers=EN)
    assert {answer.status_code for answer in bodies.values()} == {404}
    assert len({answer.get_data() for answer in bodies.values()}) == 1, "the 404 pages differ"
    page = bodies["/no-such-page"].get_data(as_text=True)
    assert "<html" in page and 'class="site-header"' in page and "Page not found" in page
    german = client.get("/no-such-page", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Seite nicht gefunden" in german


@pytest.mark.parametrize(
    ("status", "english", "german"),
    [
        (400, "could not be understood", "nicht verständlich"),
        (404, "Page not found", "Seite nicht gefunden"),
        (405, "Not possible here", "Hier nicht möglich"),
        (413, "Too large", "Zu groß"),
    ],
)
def test_error_pages_are_friendly_in_both_languages_and_as_json(
    secure_app: Flask, games: dict[str, Tokens], status: int, english: str, german: str
) -> None:
    """400, 404, 405 and 413 render the app's layout in German and English, a fragment for htmx, JSON for JSON clients."""
    game = clone(secure_app, games["auruxxx-fresh"].id)
    client = phone_of(secure_app)

    def ask(headers: dict[str, str]) -> TestResponse:
        if status == 400:
            return client.post(f"/g/{game.edit}/pass", data={"player": "Nobody", "round": "0"}, headers=headers)
        if status == 404:
            return client.get("/g/nothing", headers=headers)
        if status == 405:
            return client.delete(f"/g/{game.edit}", headers=headers)
        return client.post(f"/g/{game.edit}/pass", data={"player": "x" * 600_000}, headers=headers)

    before = counts(secure_app, game.id)
    for headers, words in ((EN, english), ({"Accept-Language": "de"}, german)):
        response = ask(headers)
        assert response.status_code == status and response.mimetype == "text/html"
        page = response.get_data(as_text=True)
        assert words in page and 'class="site-header"' in page and 'role="alert"' in page
    fragment = ask({**EN, **HTMX})
    assert fragment.status_code == status
    assert english in fragment.get_data(as_text=True) and "<html" not in fragment.get_data(as_text=True)
    as_json = ask({**EN, "Accept": "application/json"})
    assert as_json.status_code == status and as_json.mimetype == "application/json"
    assert set(as_json.get_json()) == {"error"} and as_json.get_json()["error"]
    assert counts(secure_app, game.id) == before
    if status == 405:
        assert "GET" in ask(EN).headers["Allow"]


def test_a_json_body_gets_a_json_error(secure_app: Flask) -> None:
    """A client that sends JSON reads JSON back, also when it did not say what it accepts."""
    response = phone_of(secure_app).post("/g/nothing/pass", json={"player": "Anna"})
    assert response.status_code == 404 and response.get_json() == {"error": response.get_json()["error"]}


def test_a_crash_is_a_friendly_500(secure_app: Flask, games: dict[str, Tokens], monkeypatch: pytest.MonkeyPatch) -> None:
    """An unexpected failure in a view answers 500 with the layout (or JSON) and no traceback."""
    import views.table.games

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(views.table.games, "describe_history", broken)
    monkeypatch.setitem(secure_app.config, "PROPAGATE_EXCEPTIONS", False)
    client = phone_of(secure_app)
    page = client.get(f"/g/{games['auruxxx-fresh'].edit}/history", headers={"Accept-Language": "de"})
    assert page.status_code == 500
    text = page.get_data(as_text=True)
    assert "schiefgegangen" in text and "secret internals" not in text and "Traceback" not in text
    as_json = client.get(f"/g/{games['auruxxx-fresh'].edit}/history", headers={"Accept": "application/json"})
    assert as_json.status_code == 500 and as_json.get_json()["error"]


# --- Cookies --------------------------------------------------------------------------------------


def test_the_session_cookie_is_httponly_and_same_site_lax(strict_app: Flask, strict_client: FlaskClient) -> None:
    """The session cookie (set when a game starts) and the device and language cookies are HttpOnly and SameSite=Lax."""
    first = strict_client.get("/new/auruxxx")
    form = first.get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', form)
    assert csrf
    started = strict_client.post("/new/auruxxx", data={"player": ["Anna", "Ben"], "action": "start", "csrf_token": csrf.group(1)})
    assert started.status_code == 303
    language = strict_client.get("/lang/en")
    cookies = {header.split("=", 1)[0]: header for answer in (first, started, language) for header in answer.headers.getlist("Set-Cookie")}
    assert {"session", "device", "lang"} <= set(cookies)
    for name in ("session", "device", "lang"):
        assert "HttpOnly" in cookies[name], cookies[name]
        assert "SameSite=Lax" in cookies[name], cookies[name]


# --- The read-only address -----------------------------------------------------------------------


@pytest.mark.parametrize("state", sorted(STATES))
def test_the_read_only_sheet_has_nothing_that_posts(secure_app: Flask, games: dict[str, Tokens], state: str) -> None:
    """At the read-only address no sheet shows a form, a button that posts, a link to a write page or the edit token."""
    game = games[state]
    for headers in (EN, HTMX):
        page = phone_of(secure_app).get(f"/g/{game.read}", headers=headers).get_data(as_text=True)
        assert "<form" not in page and "hx-post" not in page and 'method="post"' not in page.lower()
        assert game.edit not in page
        assert not re.search(r"/(finish|hand|correct|final-hand|join)\b", page)


def test_every_write_route_answers_the_read_only_address_like_an_unknown_one(secure_app: Flask, games: dict[str, Tokens]) -> None:
    """POST (and GET, where a write page has one) with the read-only token: the unknown token's 404, and nothing stored."""
    client = phone_of(secure_app)
    missing = client.get(f"/g/{'z' * 32}", headers=EN).get_data()
    form = {"player": "Anna", "round": "0", "day": "0", "card": "5", "golden12": "1", "action": "save", "event": "1"}
    checked = 0
    for state, template in games.items():
        game = clone(secure_app, template.id)
        before = counts(secure_app, game.id)
        for endpoint, rule, methods in game_rules(secure_app):
            if "POST" not in methods or not fits(endpoint, kind_of(state)):
                continue
            for method in sorted(methods):
                read_only = client.open(fill(rule, game.read), method=method, data=form, headers=EN)
                unknown = client.open(fill(rule, "q" * 32), method=method, data=form, headers=EN)
                assert read_only.status_code == unknown.status_code == 404, (state, rule, method, read_only.status_code)
                assert read_only.get_data() == unknown.get_data() == missing, (state, rule, method)
                checked += 1
        assert counts(secure_app, game.id) == before, state
    assert checked > 50


@pytest.mark.parametrize("state", ["auruxxx-round-finished", "12days-day-finished"])
def test_the_read_only_address_streams_and_exports(secure_app: Flask, games: dict[str, Tokens], state: str) -> None:
    """The live stream, the export and the history work at the read-only address."""
    game = clone(secure_app, games[state].id)
    client = phone_of(secure_app)
    live = client.get(f"/g/{game.read}/live?since=0")
    assert live.status_code == 200 and live.mimetype == "text/event-stream"
    pushed = live.get_data(as_text=True)
    assert re.search(r"^id: [1-9][0-9]*$", pushed, re.MULTILINE) and "<hx-partial" in pushed
    assert game.edit not in pushed
    exported = client.get(f"/g/{game.read}/record.json")
    assert exported.status_code == 200 and exported.mimetype == "application/json"
    assert exported.get_data() == client.get(f"/g/{game.edit}/record.json").get_data()
    assert json.loads(exported.get_data(as_text=True))["game"] == kind_of(state)
    assert client.get(f"/g/{game.read}/history").status_code == 200


# --- A new edit address ---------------------------------------------------------------------------


@pytest.mark.parametrize("state", ["auruxxx-finisher-known", "12days-days-over"])
def test_a_new_edit_address_locks_the_old_one_out_everywhere(secure_app: Flask, games: dict[str, Tokens], state: str) -> None:
    """After a new address, the old token finds nothing on any route; the new one and the read-only one work."""
    game = clone(secure_app, games[state].id)
    client = phone_of(secure_app)
    renewed = client.post(f"/g/{game.edit}/new-address")
    assert renewed.status_code == 303
    new = str(renewed.headers["Location"]).removeprefix("/g/").removesuffix("/join")
    assert new != game.edit and len(new) == 32
    assert tokens(secure_app, new) == Tokens(game.id, new, game.read)
    missing = client.get(f"/g/{'z' * 32}", headers=EN).get_data()
    before = counts(secure_app, game.id)
    for _endpoint, rule, methods in game_rules(secure_app):
        for method in sorted(methods):
            old = client.open(fill(rule, game.edit), method=method, data={"player": "Anna", "round": "0", "day": "0"}, headers=EN)
            assert old.status_code == 404 and old.get_data() == missing, (rule, method, old.status_code)
    assert counts(secure_app, game.id) == before
    assert client.get(f"/g/{new}").status_code == 200
    assert client.get(f"/g/{new}/join").status_code == 200
    assert client.get(f"/g/{game.read}").status_code == 200
    assert client.get(f"/g/{game.read}/record.json").status_code == 200
    if kind_of(state) == "auruxxx":
        tap(client, new, "hand/0", round="0", action="save-points", points="7")
    else:
        assert client.get(f"/g/{new}/final-hand/0").status_code == 200


# --- Tokens ---------------------------------------------------------------------------------------


def test_tokens_carry_at_least_128_bits_of_randomness(secure_app: Flask) -> None:
    """Edit and read-only tokens are ``token_urlsafe(24)``: 32 URL-safe characters, 192 random bits, never repeated."""
    alphabet = set(string.ascii_letters + string.digits + "-_")
    drawn = [new_token() for _ in range(2000)]
    assert len(set(drawn)) == len(drawn)
    assert all(len(token) == 32 and set(token) <= alphabet for token in drawn)
    assert len(drawn[0]) * 6 >= 128
    game = tokens(secure_app, start(phone_of(secure_app), "auruxxx"))
    for token in (game.edit, game.read):
        assert len(token) == 32 and set(token) <= alphabet
    assert game.edit != game.read
    # Every one of the 64 characters turns up: the tokens are not drawn from a smaller set.
    assert set("".join(drawn)) == alphabet


# --- JSON import needs a JSON content type -----------------------------------------------------


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
def test_json_import_needs_the_json_content_type(
    strict_app: Flask, strict_client: FlaskClient, secure_app: Flask, content_type: str
) -> None:
    """A JSON record sent as anything but ``application/json`` starts no game, with or without CSRF checks."""
    record_text = json.dumps({"game": "auruxxx", "players": ["Anna", "Ben"], "house_rules": {}, "rounds": []})
    for app, client, refused in ((strict_app, strict_client, 400), (secure_app, phone_of(secure_app), 422)):
        before = _games(app)
        if content_type == "multipart/form-data":
            response = client.post("/import", data={"record_json": record_text}, content_type=content_type)
        else:
            response = client.post("/import", data=record_text, content_type=content_type)
        assert response.status_code == refused, (content_type, response.status_code)
        assert _games(app) == before
    accepted = strict_client.post("/import", data=record_text, content_type="application/json")
    assert accepted.status_code == 201


def _games(app: Flask) -> int:
    """Return how many games the database holds."""
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Game)) or 0


def test_the_app_log_never_names_a_game_token(app: Flask, caplog: pytest.LogCaptureFixture) -> None:
    """Flask's own log line for a failed request names its path; the token in it is taken out."""
    with caplog.at_level(logging.ERROR, logger=app.logger.name):
        app.logger.error("Exception on %s [%s]", "/g/SecretToken_123/pass", "POST")
    assert "SecretToken_123" not in caplog.text
    assert "/g/…/pass" in caplog.text


def test_the_development_server_logs_no_game_token(secure_app: Flask, games: dict[str, Tokens], caplog: pytest.LogCaptureFixture) -> None:
    """Werkzeug's own server (``flask run``, the browser tests' live server) logs each request line: the token in it is taken out."""
    token = games["auruxxx-fresh"].edit
    server = make_server("127.0.0.1", 0, secure_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with caplog.at_level(logging.INFO, logger="werkzeug"):
            with urllib.request.urlopen(f"http://127.0.0.1:{server.server_port}/g/{token}", timeout=ANSWER_SECONDS) as answer:
                assert answer.status == 200
            server.shutdown()
    finally:
        server.server_close()
        thread.join(ANSWER_SECONDS)
    assert '"GET /g/… HTTP/1.1" 200' in caplog.text, caplog.text
    assert token not in caplog.text


def test_a_crash_logs_its_traceback_without_the_token(
    secure_app: Flask, games: dict[str, Tokens], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 16: the traceback Flask logs for a 500 is redacted too, not only its first line."""
    token = games["auruxxx-fresh"].edit

    def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError(f"no sheet for /g/{token} today")

    monkeypatch.setattr("views.table.games.render", crash)
    monkeypatch.setitem(secure_app.config, "PROPAGATE_EXCEPTIONS", False)
    with caplog.at_level(logging.ERROR, logger=secure_app.logger.name):
        assert phone_of(secure_app).get(f"/g/{token}").status_code == 500
    assert "Traceback" in caplog.text and "RuntimeError: no sheet for /g/… today" in caplog.text
    assert token not in caplog.text


def test_a_database_error_never_shows_the_values_of_its_query(secure_app: Flask) -> None:
    """Issue 16: SQL parameters (a token looked up, a tap's key) stay out of every database error and so out of every log."""
    with secure_app.app_context():
        with pytest.raises(SQLAlchemyError) as raised:
            db.session.execute(text("SELECT token FROM no_such_table WHERE token = :token"), {"token": "SecretToken_123"})
        db.session.rollback()
    assert "SecretToken_123" not in str(raised.value)
    assert "no_such_table" in str(raised.value)


# --- Caches, HTTPS and refused bodies ------------------------------------------------------------


def shows_a_token(response: TestResponse, games: dict[str, Tokens]) -> bool:
    """Return whether a response's body or headers show any game's edit or read-only token."""
    text = response.get_data(as_text=True) + "\n".join(f"{name}: {value}" for name, value in response.headers.items())
    return any(token in text for game in games.values() for token in (game.edit, game.read))


def test_every_response_that_carries_a_token_is_never_stored(secure_app: Flask, games: dict[str, Tokens]) -> None:
    """Issue 12, item 16: sheets, fragments, history, join page, record, live stream and redirects to a game say ``no-store``."""
    client = phone_of(secure_app)
    game = clone(secure_app, games["auruxxx-fresh"].id)
    record_text = client.get(f"/g/{game.edit}/record.json").get_data(as_text=True)
    answers: list[tuple[str, TestResponse]] = [(path, client.get(path, headers=headers)) for path, headers in every_page(secure_app, games)]
    answers += [
        ("record", client.get(f"/g/{game.read}/record.json")),
        ("live", client.get(f"/g/{game.read}/live")),
        ("tap", client.post(f"/g/{game.edit}/pass", data={"player": "Anna", "round": "0"})),
        ("new game", client.post("/new/auruxxx", data={"player": ["Anna", "Ben"], "action": "start"})),
        ("new game, htmx", client.post("/new/auruxxx", data={"player": ["Anna", "Ben"], "action": "start"}, headers=HTMX)),
        ("import", client.post("/import", data=record_text, content_type="application/json")),
        ("language", client.get(f"/lang/en?next=/g/{game.edit}")),
    ]
    carrying = [(name, answer) for name, answer in answers if shows_a_token(answer, games) or "/g/" in answer.headers.get("Location", "")]
    assert len(carrying) > 50
    for name, answer in carrying:
        assert answer.headers.get("Cache-Control") == "no-store", (name, answer.status_code, answer.headers.get("Cache-Control"))
    assert "no-store" not in client.get("/faq/auruxxx").headers.get("Cache-Control", "")


def test_over_https_a_form_counts_from_its_own_pages_only(strict_app: Flask, strict_client: FlaskClient) -> None:
    """Issue 16: pages send their address on to their own origin only, and a POST over HTTPS still needs a same-origin referrer and its token."""
    base = "https://tisch.example"
    form = strict_client.get("/new/auruxxx", base_url=base)
    assert form.headers["Referrer-Policy"] == "same-origin"
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', form.get_data(as_text=True))
    assert csrf
    start_game = {"player": ["Anna", "Ben"], "action": "start", "csrf_token": csrf.group(1)}
    refused = {
        "no referrer": strict_client.post("/new/auruxxx", data=start_game, base_url=base),
        "another site": strict_client.post(
            "/new/auruxxx", data=start_game, base_url=base, headers={"Referer": "https://evil.example/new/auruxxx"}
        ),
        "no token": strict_client.post(
            "/new/auruxxx", data={**start_game, "csrf_token": ""}, base_url=base, headers={"Referer": f"{base}/new/auruxxx"}
        ),
    }
    assert {name: answer.status_code for name, answer in refused.items()} == dict.fromkeys(refused, 400)
    assert _games(strict_app) == 0
    started = strict_client.post("/new/auruxxx", data=start_game, base_url=base, headers={"Referer": f"{base}/new/auruxxx"})
    assert started.status_code == 303 and _games(strict_app) == 1


def test_hsts_is_sent_only_when_served_over_https(secure_app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 12, item 16: ``SESSION_COOKIE_SECURE=1`` (the app behind HTTPS) adds Strict-Transport-Security to every answer."""
    client = phone_of(secure_app)
    assert "Strict-Transport-Security" not in client.get("/").headers
    monkeypatch.setitem(secure_app.config, "SESSION_COOKIE_SECURE", True)
    for path in ("/", "/faq", "/g/no-such-game"):
        assert client.get(path).headers.get("Strict-Transport-Security") == "max-age=31536000", path


def test_a_refused_large_body_closes_the_connection(secure_app: Flask) -> None:
    """Issue 12, item 16: a 413 says ``Connection: close``, so its unread body is never read as the next request."""
    client = phone_of(secure_app)
    too_large = b"x" * (int(secure_app.config["MAX_CONTENT_LENGTH"]) + 1)
    for content_type in ("application/json", "application/x-www-form-urlencoded"):
        response = client.post("/import", data=too_large, content_type=content_type)
        assert response.status_code == 413
        assert response.headers.get("Connection") == "close"


# --- CSRF tokens -----------------------------------------------------------------------------------


def test_csrf_tokens_do_not_expire_under_a_sheet_left_open_for_an_hour(
    strict_app: Flask, strict_phone: PhoneClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 12, item 17: a tap from a sheet rendered two hours ago counts; the token is bound to the session instead."""
    assert strict_app.config["WTF_CSRF_TIME_LIMIT"] is None
    form = strict_phone.get("/new/auruxxx").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', form)
    assert csrf
    started = strict_phone.post("/new/auruxxx", data={"player": ["Anna", "Ben"], "action": "start", "csrf_token": csrf.group(1)})
    assert started.status_code == 303
    sheet_path = started.headers["Location"]
    two_hours_ago = int(time.time()) - 2 * 60 * 60
    with monkeypatch.context() as then:
        then.setattr(itsdangerous.timed.TimestampSigner, "get_timestamp", lambda self: two_hours_ago)
        sheet = strict_phone.get(sheet_path).get_data(as_text=True)
    old = re.search(r'name="csrf_token" value="([^"]+)"', sheet)
    assert old
    signed_at = itsdangerous.URLSafeTimedSerializer(strict_app.secret_key, salt="wtf-csrf-token").loads(
        old.group(1), return_timestamp=True
    )[1]
    assert time.time() - signed_at.timestamp() > 60 * 60
    tapped = strict_phone.post(f"{sheet_path}/pass", data={"player": "Anna", "round": "0", "csrf_token": old.group(1)})
    assert tapped.status_code == 303, tapped.get_data(as_text=True)[-500:]
