"""Hostile input to every write endpoint: it is refused politely or recorded soundly, never a crash.

Hypothesis sends every POST route of the game blueprints (and ``/import`` as JSON and as an
upload) forms and bodies of the wrong types, huge and negative numbers, floats and NaN,
strangers, 10 000-character strings, markup and script, SQL, RTL marks, zero-width
characters, NUL and emoji, broken JSON, missing and repeated fields, for AURUXXX and
12 Days games in several states. CSRF checks are off in this module's app so that each
payload reaches its view; ``test_csrf_is_enforced_on_every_post_route`` proves they are on
by default.

Every answer must be below 500 without a traceback. A refusal is a 4xx that says why and
stores nothing (no game, player or event, no new address); anything that is accepted
leaves a history that still folds. One app serves the whole module; each example gets a
fresh copy of a game in the drawn state.
"""

from __future__ import annotations

import html
import io
import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from werkzeug.datastructures import MultiDict
from werkzeug.test import TestResponse

from models import Game, db, folded
from tests.examples import AURUXXX_EXAMPLE, TWELVE_DAYS_EXAMPLE
from tests.helpers import PLAYERS, make_app, phone_of, start
from tests.web.states import FORMS, STATES, VALUES, Tokens, clone, counts, tokens
from views.table.sheets import SHEETS

WRITE_BLUEPRINTS = ("games", "records", "join", "seats", "evening", *(sheet.blueprint.name for sheet in SHEETS.values()))
WRITE_ENDPOINTS = tuple(
    sorted(
        (
            "evening.next_game",
            "games.new",
            "games.rematch",
            "games.undo",
            "join.card",
            "join.new_address",
            "records.import_record",
            "seats.choose",
            *FORMS,
        )
    )
)
"""Every POST route of the game blueprints; ``test_the_list_of_write_endpoints_is_complete`` keeps it honest."""

# --- Hostile values ----------------------------------------------------------------------------

SCRIPT = "<script>alert(1)</script>"
IMAGE = '"><img src=x onerror=alert(1)>'
HOSTILE_TEXT = (
    "",
    " ",
    "0",
    "1",
    "2",
    "-1",
    "-0",
    "+1",
    " 3 ",
    "1.5",
    "3.0",
    "1e9",
    "0x10",
    str(10**100),
    str(-(10**100)),
    "9" * 10_000,
    "NaN",
    "nan",
    "inf",
    "-Infinity",
    "²",
    "¹²",
    "٣",
    "３",
    "Ⅻ",
    "null",
    "None",
    "true",
    "[]",
    "{}",
    SCRIPT,
    IMAGE,
    "'; DROP TABLE events; --",
    "1 OR 1=1",
    "\u202eAnna",
    "Anna\u200b",
    "\u200b",
    "\ufeff",
    "Anna\x00",
    "\x00",
    "🃏",
    "👨‍👩‍👧",
    "x" * 10_000,
    "santa",
    "mrs_claus",
    "Santa",
    "start",
    "save",
    "save-points",
    "add:n5",
    "add:golden12",
    "add:<script>",
    "remove:0",
    "remove:²",
    "remove:99999999999999999999",
    "more:5",
    "less:5",
    "more:santa",
    "clear:0",
    "up:1",
    "down:0",
    "down:²",
    "add:" + SCRIPT,
    "taken",
    "n5 n7 golden12 fifty",
    "n5 " * 400,
    "standard",
    "8players",
    "net",
    "exact",
    "12",
)
"""Strings a form may carry: wrong types, huge numbers, markup, SQL, unicode tricks, and some valid values."""

FIELD_NAMES = (
    "player",
    "round",
    "day",
    "card",
    "golden12",
    "points",
    "cards",
    "action",
    "event",
    "key",
    "seen",
    "finisher",
    "happy_man",
    "mode",
    "taken_by",
    "gift_to",
    "dealer",
    "variant",
    "golden12_in_hand",
    "two_in_hand",
    "halving",
    "rounding",
    "record",
    *(f"passes-{seat}" for seat in range(4)),
    *(f"hand-{seat}" for seat in range(4)),
    *(f"card-{seat}" for seat in range(4)),
    *(f"count-{card}" for card in ("1", "5", "12", "santa", "mrs_claus", "13")),
)
"""Every field some form of the app sends, plus a few near misses."""

values = st.one_of(
    st.sampled_from(HOSTILE_TEXT),
    st.sampled_from(PLAYERS),
    st.integers(min_value=-3, max_value=14).map(str),
    st.integers().map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.text(max_size=30),
)
field_names = st.one_of(st.sampled_from(FIELD_NAMES), st.sampled_from(HOSTILE_TEXT[:40]), st.text(max_size=12))
form_fields = st.lists(st.tuples(field_names, values), max_size=10)
"""A form as a list of pairs: fields may be missing, repeated or unknown."""

PLAUSIBLE: dict[str, st.SearchStrategy[str]] = {
    "player": st.sampled_from(PLAYERS),
    "action": st.sampled_from(
        ["start", "save", "save-points", "add:n5", "add:golden12", "remove:0", "more:5", "less:5", "up:1", "down:0", "clear:0", "add:Dora"]
    ),
    "event": st.sampled_from(["1", "2", "3", "4"]),
    "seen": st.sampled_from(["0", "1", "3", "9"]),
    "name": st.sampled_from([*PLAYERS, "", "anna", "Dora"]),
    "then": st.sampled_from(["sheet", "join"]),
    "dealer": st.sampled_from(["0", "1", "2"]),
    **VALUES,
}
"""Values a phone would send for each field: a hostile form is mostly a real form with a few fields spoilt."""

OPTIONS = tuple(option.name for sheet in SHEETS.values() for option in sheet.options)
ENDPOINT_FIELDS: dict[str, tuple[str, ...]] = {
    "games.undo": ("event", "key"),
    "games.new": ("player", "player", "player", "dealer", "action", *OPTIONS),
    "evening.next_game": ("player", "player", "player", "dealer", "action", *OPTIONS),
    "seats.choose": ("name", "then"),
    **FORMS,
}
"""The fields each write endpoint's form sends: each game registers its own (``tests.web.states``)."""


@st.composite
def forms(draw: st.DrawFn, endpoint: str) -> list[tuple[str, str]]:
    """Return a form for an endpoint: each of its fields valid, hostile, missing or sent twice, plus strangers."""
    pairs: list[tuple[str, str]] = []
    for name in ENDPOINT_FIELDS.get(endpoint, ()):
        how = draw(st.sampled_from(["valid"] * 5 + ["hostile"] * 4 + ["missing", "twice"]))
        if how == "missing":
            continue
        pairs.append((name, draw(PLAUSIBLE.get(name, values) if how == "valid" else values)))
        if how == "twice":
            pairs.append((name, draw(values)))
    return pairs + draw(st.lists(st.tuples(field_names, values), max_size=3))


json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.sampled_from([10**100, -1, 0, 1, 2, 3, 12]),
        st.floats(allow_nan=False, allow_infinity=False),
        st.sampled_from(HOSTILE_TEXT),
        st.text(max_size=20),
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=5), st.dictionaries(st.one_of(st.sampled_from(FIELD_NAMES), st.text(max_size=8)), children, max_size=5)
    ),
    max_leaves=20,
)

AURUXXX_RECORD = AURUXXX_EXAMPLE
TWELVE_DAYS_RECORD = {key: value for key, value in TWELVE_DAYS_EXAMPLE.items() if key != "hands"}


def _places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Yield the path of every value inside a decoded record."""
    yield path
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _places(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _places(inner, (*path, index))


def _mutate(record: dict[str, Any], changes: list[tuple[int, str, Any]]) -> Any:
    """Return a copy of a record with values replaced, keys dropped or duplicates added."""
    mutated = json.loads(json.dumps(record))
    for which, how, new in changes:
        places = [place for place in _places(mutated) if place]
        if not places:
            return mutated if how != "replace" else new
        place = places[which % len(places)]
        parent = mutated
        for step in place[:-1]:
            parent = parent[step]
        last = place[-1]
        if how == "replace":
            parent[last] = new
        elif how == "drop" and isinstance(parent, dict):
            del parent[last]
        elif how == "drop" and isinstance(parent, list):
            parent.pop(last)
        elif how == "append" and isinstance(parent, list):
            parent.append(new)
        elif how == "append" and isinstance(parent, dict):
            parent[str(new)[:20]] = new
    return mutated


records = st.builds(
    _mutate,
    st.sampled_from([AURUXXX_RECORD, TWELVE_DAYS_RECORD]),
    st.lists(st.tuples(st.integers(0, 200), st.sampled_from(["replace", "drop", "append"]), json_values), max_size=3),
)
"""Valid records of both games with a few values replaced, dropped or added."""

BROKEN_JSON = (
    b"",
    b"{",
    b'{"game": "auruxxx", ',
    b"[1, 2,",
    b'{"game": "auruxxx"}}',
    b"\xff\xfe\x00",
    b"NaN",
    b'{"game": NaN}',
    b'{"game": "auruxxx", "game": "12days", "players": ["A", "B"]}',
    b'"' + b"x" * 10_000 + b'"',
    b"[" * 5_000 + b"]" * 5_000,
    b'{"players": ["\\u0000", "\\ud800"]}',
    json.dumps(AURUXXX_RECORD).encode()[:-1],
)
"""Bodies that are not JSON (or only nearly): truncated, invalid UTF-8, NaN, deep nesting, lone surrogates."""


@st.composite
def bodies(draw: st.DrawFn, endpoint: str) -> dict[str, Any]:
    """Return keyword arguments for ``client.post``: a form, an upload, JSON or broken JSON."""
    kind = draw(st.sampled_from(["form", "form", "form", "multipart", "json", "record", "broken", "text-json"]))
    headers = {"Accept-Language": draw(st.sampled_from(["de", "en"]))}
    if draw(st.booleans()):
        headers["HX-Request"] = "true"
    if draw(st.booleans()):
        headers["Accept"] = "application/json"
    if kind == "form":
        return {"data": MultiDict(draw(forms(endpoint))), "headers": headers}
    if kind == "multipart":
        fields = MultiDict(draw(forms(endpoint)))
        content = draw(st.one_of(records.map(lambda r: json.dumps(r).encode()), st.sampled_from(BROKEN_JSON)))
        filename = draw(st.sampled_from(["record.json", "", SCRIPT, "../../etc/passwd", "\x00.json", "x" * 300]))
        fields.add("record", (io.BytesIO(content), filename))
        return {"data": fields, "content_type": "multipart/form-data", "headers": headers}
    if kind == "json":
        return {"data": json.dumps(draw(json_values)), "content_type": "application/json", "headers": headers}
    if kind == "record":
        return {"data": json.dumps(draw(records)), "content_type": "application/json", "headers": headers}
    if kind == "broken":
        return {"data": draw(st.sampled_from(BROKEN_JSON)), "content_type": "application/json", "headers": headers}
    return {"data": json.dumps(draw(records)), "content_type": "text/plain", "headers": headers}


# --- The app and the games -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hostile_app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    """Return this module's one app: CSRF off so that every payload reaches its view, a database migrated once."""
    return make_app(tmp_path_factory.mktemp("hostile") / "tischblock.db", csrf=False)


@pytest.fixture(scope="module")
def templates(hostile_app: Flask) -> dict[str, Tokens]:
    """Build one game in each state, to be cloned for every example."""
    client = phone_of(hostile_app)
    return {name: tokens(hostile_app, build(client)) for name, build in STATES.items()}


def url_for_rule(rule: str, game: Tokens, draw: st.DrawFn) -> str:
    """Fill in a route's arguments: mostly the game's edit token and sensible numbers, sometimes anything."""
    token = draw(
        st.one_of(
            st.just(game.edit),
            st.just(game.edit),
            st.just(game.edit),
            st.just(game.read),
            st.just("x" * 32),
            st.sampled_from(HOSTILE_TEXT[:60]).filter(bool),
        )
    )
    number = st.one_of(st.integers(0, 13).map(str), st.sampled_from(["-1", "99999999999999999999", "²", "1.0", str(10**100)]))
    kind = st.sampled_from(["auruxxx", "12days", "auruxxx", "12days", "Auruxxx", SCRIPT, "%00"])
    fillers = {"token": st.just(token), "seat": number, "number": number, "kind": kind}

    def fill(match: re.Match[str]) -> str:
        return quote(draw(fillers[match.group(1)]), safe="")

    return re.sub(r"<(?:\w+:)?(\w+)>", fill, rule)


def rule_of(app: Flask, endpoint: str) -> str:
    """Return the URL rule of an endpoint."""
    (rule,) = [rule.rule for rule in app.url_map.iter_rules() if rule.endpoint == endpoint]
    return rule


def alert_text(response: TestResponse) -> str:
    """Return what a refusal says: the JSON's message or the text of the page's alert."""
    if response.mimetype == "application/json":
        body = response.get_json()
        assert isinstance(body, dict), body
        said = body.get("error") or body.get("problems")
        return " ".join(said) if isinstance(said, list) else str(said or "")
    page = response.get_data(as_text=True)
    found = re.search(r'role="alert"[^>]*>(.*?)</(?:div|section)>', page, re.S)
    assert found, f"no alert in a {response.status_code} page: {page[-1500:]}"
    return html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).strip()


def assert_folds(app: Flask, *, since_id: int, game_id: int) -> None:
    """Fold the game a request was sent for and every game it created: their histories must still add up."""
    with app.app_context():
        games = db.session.scalars(select(Game).where((Game.id > since_id) | (Game.id == game_id))).all()
        for game in games:
            assert folded(game).table is not None


def newest_game_id(app: Flask) -> int:
    """Return the id of the newest game."""
    with app.app_context():
        return max(db.session.scalars(select(Game.id)).all(), default=0)


def check_answer(app: Flask, response: TestResponse, before: Any, game: Tokens, since_id: int) -> None:
    """The rules every answer to hostile input keeps."""
    page = response.get_data(as_text=True)
    assert response.status_code < 500, page[-3000:]
    assert "Traceback" not in page
    if response.mimetype == "text/html":
        assert SCRIPT not in page and "<img src=x" not in page, "hostile markup came back unescaped"
    if response.status_code >= 400:
        assert alert_text(response), f"a {response.status_code} without a reason"
        assert counts(app, game.id) == before, "a refused request wrote something"
    else:
        assert_folds(app, since_id=since_id, game_id=game.id)


# --- The tests -------------------------------------------------------------------------------------


def test_the_list_of_write_endpoints_is_complete(hostile_app: Flask) -> None:
    """Every POST route of the game blueprints is in ``WRITE_ENDPOINTS``, so none escapes the hostile test."""
    posted = {
        rule.endpoint
        for rule in hostile_app.url_map.iter_rules()
        if "POST" in (rule.methods or ()) and rule.endpoint.split(".")[0] in WRITE_BLUEPRINTS
    }
    assert posted == set(WRITE_ENDPOINTS)


@pytest.mark.parametrize("endpoint", WRITE_ENDPOINTS)
def test_hostile_input_is_refused_or_recorded_soundly(hostile_app: Flask, templates: dict[str, Tokens], endpoint: str) -> None:
    """Any form or body to any write endpoint, for any game state: no 5xx, a refusal writes nothing, a success still folds."""
    rule = rule_of(hostile_app, endpoint)

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data(), state=st.sampled_from(sorted(STATES)), body=bodies(endpoint))
    def send(data: st.DataObject, state: str, body: dict[str, Any]) -> None:
        game = clone(hostile_app, templates[state].id)
        url = url_for_rule(rule, game, data.draw)
        since_id = newest_game_id(hostile_app)
        before = counts(hostile_app, game.id)
        response = phone_of(hostile_app).post(url, **body)
        check_answer(hostile_app, response, before, game, since_id)

    send()


@pytest.mark.parametrize("content_type", ["application/json", "multipart/form-data"])
def test_hostile_records_to_import(hostile_app: Flask, templates: dict[str, Tokens], content_type: str) -> None:
    """``/import`` gets mutated records as a JSON body and as an upload: a game only from a valid record, never a 5xx."""

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(content=st.one_of(records.map(lambda r: json.dumps(r).encode()), st.sampled_from(BROKEN_JSON)))
    def send(content: bytes) -> None:
        game = templates["auruxxx-fresh"]
        since_id = newest_game_id(hostile_app)
        before = counts(hostile_app, game.id)
        client = phone_of(hostile_app)
        if content_type == "application/json":
            response = client.post("/import", data=content, content_type=content_type)
        else:
            response = client.post("/import", data={"record": (io.BytesIO(content), "record.json")}, content_type=content_type)
        check_answer(hostile_app, response, before, game, since_id)
        if response.status_code < 400:
            assert newest_game_id(hostile_app) > since_id

    send()


# --- Names with markup are shown as text ------------------------------------------------------


MARKUP_NAMES = [SCRIPT[:40], IMAGE, "<b>Bold</b>&amp;"]


@pytest.mark.parametrize("kind", ["auruxxx", "12days"])
def test_player_names_with_markup_are_escaped_on_every_page(hostile_app: Flask, kind: str) -> None:
    """Names typed into the new-game form come back as text on the sheet, history, join page, export and FAQ pages."""
    client = phone_of(hostile_app)
    token = start(client, kind, names=MARKUP_NAMES)
    if kind == "auruxxx":
        assert client.post(f"/g/{token}/pass", data={"player": MARKUP_NAMES[0], "round": "0"}).status_code == 303
        assert client.post(f"/g/{token}/finish", data={"player": MARKUP_NAMES[1], "round": "0", "golden12": "1"}).status_code == 303
        pages = ["", "/history", "/join", "/finish", "/hand/0"]
    else:
        assert client.post(f"/g/{token}/card", data={"player": MARKUP_NAMES[0], "day": "0", "card": "santa"}).status_code == 303
        pages = ["", "/history", "/join"]
    game = tokens(hostile_app, token)
    addresses = [f"/g/{token}{page}" for page in pages] + [f"/g/{game.read}", f"/g/{game.read}/history"]
    addresses += [f"/faq/{kind}", "/new/auruxxx", "/new/12days"]
    for address in addresses:
        for language in ("de", "en"):
            response = client.get(address, headers={"Accept-Language": language})
            assert response.status_code == 200, address
            page = response.get_data(as_text=True)
            assert "<script>alert" not in page and "<img src=x" not in page and "<b>Bold" not in page, address
    shown = client.get(f"/g/{token}").get_data(as_text=True)
    assert html.escape(MARKUP_NAMES[0]) in shown or "&lt;script&gt;alert(1)&lt;/script&gt;" in shown

    exported = client.get(f"/g/{token}/record.json")
    assert exported.mimetype == "application/json"
    assert exported.headers["X-Content-Type-Options"] == "nosniff", "a browser must never read the export as HTML"
    assert json.loads(exported.get_data(as_text=True))["players"] == MARKUP_NAMES


def test_a_refused_start_shows_markup_names_as_text(hostile_app: Flask) -> None:
    """A start refused by the rules shows the names it was given back in the form, escaped."""
    response = phone_of(hostile_app).post("/new/auruxxx", data={"player": [SCRIPT[:40]], "action": "start"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert SCRIPT[:40] not in page and html.escape(SCRIPT[:40], quote=True) in page


# --- CSRF is on by default ----------------------------------------------------------------------


def test_csrf_is_enforced_on_every_post_route(strict_app: Flask) -> None:
    """With CSRF checks on (the default), every POST route refuses a form without its token: 400, nothing stored.

    Only a JSON body to ``/import`` goes without one: a browser cannot send ``application/json``
    to another site unasked (``test_security`` shows that text/plain is not taken for JSON).
    """
    client = phone_of(strict_app)
    games = {}
    for record_ in (AURUXXX_RECORD, TWELVE_DAYS_RECORD):
        imported = client.post("/import", json=record_)
        assert imported.status_code == 201
        games[record_["game"]] = tokens(strict_app, str(imported.headers["Location"]).rsplit("/g/", 1)[1])
    rules = [rule for rule in strict_app.url_map.iter_rules() if "POST" in (rule.methods or ())]
    assert {rule.endpoint for rule in rules} >= set(WRITE_ENDPOINTS)
    for rule in rules:
        game = games["12days" if rule.endpoint.startswith("twelve_days.") else "auruxxx"]
        url = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: {"token": game.edit, "kind": "auruxxx"}.get(m.group(1), "1"), rule.rule)
        form: dict[str, Any] = {name: _first(name) for name in ENDPOINT_FIELDS.get(rule.endpoint, ())}
        before = counts(strict_app, game.id)
        for body in (
            {"data": form},
            {"data": {**form, "csrf_token": "forged"}},
            {"data": {**form, "record": (io.BytesIO(b"{}"), "r.json")}},
        ):
            response = client.post(url, **body)
            assert response.status_code == 400, (rule.rule, response.status_code)
            assert "CSRF" in alert_text(response), rule.rule
        assert counts(strict_app, game.id) == before, rule.rule


def _first(name: str) -> str:
    """Return a valid-looking value for a form field."""
    return {"player": "Anna", "round": "0", "day": "0", "card": "5", "golden12": "1", "action": "start"}.get(name, "0")
