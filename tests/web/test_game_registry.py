"""One place per game: a third game plays through the web layer from its own files, and no shared module names a game.

Pebbles (``tests/pebbles/``) lives only in the tests: its rules, its views and its templates,
registered for a test, are all it brings. The shared modules (the record and the history,
the models, the shared views and templates, the FAQ, the service worker) never ask which
game they serve; the registries answer for them.
"""

from __future__ import annotations

import ast
import json
import re
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from rules import games, record
from rules.problems import Illegal
from tests.helpers import EN, PLAYERS, make_app, phone_of
from tests.pebbles import registered
from views.table import sheets

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def pebbles_app(tmp_path: Path) -> Iterator[Flask]:
    """Yield an app built while Pebbles is registered, on a freshly migrated database."""
    with registered():
        app = make_app(tmp_path / "tischblock.db")
        app.config["WTF_CSRF_ENABLED"] = False
        yield app


def token_of(response: TestResponse) -> str:
    """Return the game token a redirect points at."""
    found = re.search(r"/g/([A-Za-z0-9_-]+)$", response.headers["Location"])
    assert found is not None, response.headers["Location"]
    return found.group(1)


def pebbles_shown(client: FlaskClient, token: str) -> list[int]:
    """Return the pebbles the sheet shows, in seating order."""
    page = client.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    return [int(count) for count in re.findall(r'<td class="pebbles">(\d+)</td>', page)]


def take(client: FlaskClient, token: str, round_index: int, player: str) -> TestResponse:
    """Tap the pebble of a round for a player."""
    return client.post(f"/g/{token}/pebble", data={"round": str(round_index), "player": player}, headers=EN)


def test_a_third_game_plays_through_the_web_layer(pebbles_app: Flask) -> None:
    """New game, taps, the sheet, a refusal, undo, history, export, import and a rematch: all from Pebbles' own files."""
    client = phone_of(pebbles_app)
    assert "Pebbles" in client.get("/", headers=EN).get_data(as_text=True)
    form = client.get("/new/pebbles", headers=EN)
    assert form.status_code == 200 and form.get_data(as_text=True).count('name="player"') == 4

    started = client.post("/new/pebbles", data={"player": PLAYERS, "action": "start"}, headers=EN)
    assert started.status_code == 303
    token = token_of(started)
    assert pebbles_shown(client, token) == [0, 0, 0]

    assert take(client, token, 0, "Ben").status_code == 303
    refused = take(client, token, 0, "Cleo")
    assert refused.status_code == 422
    assert "Round 1 is finished; round 2 is being played" in refused.get_data(as_text=True)
    assert client.post(f"/g/{token}/pass", data={"round": "0", "player": "Ben"}).status_code == 404
    assert take(client, token, 1, "Cleo").status_code == 303
    assert client.post(f"/g/{token}/undo", data={"event": "2"}).status_code == 303
    assert take(client, token, 1, "Ben").status_code == 303
    assert pebbles_shown(client, token) == [0, 2, 0]
    assert "a pebble for Cleo" in client.get(f"/g/{token}/history").get_data(as_text=True)

    exported = client.get(f"/g/{token}/record.json").get_json()
    assert exported["rounds"] == [{"winner": "Ben"}, {"winner": "Ben"}]
    assert exported["result"]["winners"] == ["Ben"] and exported["result"]["complete"] is True

    imported = client.post("/import", data=json.dumps(exported), content_type="application/json")
    assert imported.status_code == 201
    copy = token_of(imported)
    assert client.get(f"/g/{copy}/record.json").get_json() == exported

    rematch = client.post(f"/g/{token}/rematch")
    assert rematch.status_code == 303 and pebbles_shown(client, token_of(rematch)) == [0, 0, 0]


def test_a_third_game_brings_its_options_keypad_and_correction_through_the_shared_flows(pebbles_app: Flask) -> None:
    """Its option on the new-game form, its keypad (with another phone saving first) and its correction, from its own files."""
    client, other_phone = phone_of(pebbles_app), phone_of(pebbles_app)
    form = client.get("/new/pebbles", headers=EN).get_data(as_text=True)
    assert 'name="length" value="2"' in form and 'name="length" value="3"' in form
    token = token_of(client.post("/new/pebbles", data={"player": PLAYERS, "length": "3", "action": "start"}, headers=EN))
    for round_index, winner in enumerate(["Ben", "Ben", "Cleo"]):
        assert take(client, token, round_index, winner).status_code == 303
    assert client.get(f"/g/{token}/record.json").get_json()["length"] == 3

    keypad = client.get(f"/g/{token}/stones/0", headers=EN)
    assert keypad.status_code == 200 and '<output class="stones-count">0</output>' in keypad.get_data(as_text=True)
    seen = re.search(r'name="seen" value="(\d+)"', keypad.get_data(as_text=True))
    assert seen is not None
    more = client.post(f"/g/{token}/stones/0", data={"stones": "0", "seen": seen[1], "action": "more"}, headers=EN)
    assert '<output class="stones-count">1</output>' in more.get_data(as_text=True)
    assert other_phone.post(f"/g/{token}/stones/0", data={"stones": "4", "action": "save"}).status_code == 303
    clash = client.post(f"/g/{token}/stones/0", data={"stones": "1", "seen": seen[1], "action": "save"}, headers=EN)
    assert clash.status_code == 409 and "Another phone saved 4 stones for Anna." in clash.get_data(as_text=True)
    assert client.post(f"/g/{token}/stones/0", data={"stones": "1", "action": "discard"}).status_code == 303
    assert pebbles_shown(client, token) == [4, 2, 1]

    correction = client.get(f"/g/{token}/pebbles/3/correct", headers=EN).get_data(as_text=True)
    version = re.search(r'name="seen" value="(\d+)"', correction)
    assert version is not None and 'value="Cleo" checked' in correction
    assert client.post(f"/g/{token}/pebbles/3/correct", data={"seen": version[1], "winner": "Anna"}).status_code == 303
    assert pebbles_shown(client, token) == [5, 2, 0]
    assert "Round 3 corrected" in client.get(f"/g/{token}/history").get_data(as_text=True)
    rematch = client.post(f"/g/{token}/rematch")
    assert client.get(f"/g/{token_of(rematch)}/record.json").get_json()["length"] == 3, "a rematch keeps the options"


def test_a_game_is_known_only_while_it_is_registered() -> None:
    """Without its registration Pebbles is no game: the record names the games there are."""
    raw = {"game": "pebbles", "players": PLAYERS, "rounds": [{"winner": "Ben"}]}
    with registered():
        assert record.scored(record.parse(raw))["result"]["totals"] == {"Anna": 0, "Ben": 1, "Cleo": 0}
    with pytest.raises(Illegal, match=r'game: must be one of "auruxxx", "12days", "plain" \(got "pebbles"\)'):
        record.parse(raw)


# --- No shared module names a game ----------------------------------------------------------------


def folder_of(module: str) -> Path:
    """Return the folder of the package a module belongs to: a game's own folder."""
    return Path(str(sys.modules[module].__file__)).parent


def game_words() -> set[str]:
    """Return every name a registered game goes by in code: its kind, its packages and its template folder."""
    words: set[str] = set()
    for kind, rules in games.GAMES.items():
        words |= {kind, folder_of(rules.game_type.__module__).name}
    for sheet in sheets.SHEETS.values():
        words |= {folder_of(sheet.blueprint.import_name).name, sheet.folder}
    return words


def game_files() -> set[Path]:
    """Return what belongs to one game: its rules and views packages, its template and static folders, its FAQ files, and the two registry lines."""
    owned = {ROOT / "rules" / "__init__.py", ROOT / "views" / "__init__.py"}
    for kind, rules in games.GAMES.items():
        owned |= set(folder_of(rules.game_type.__module__).rglob("*"))
        owned |= set((ROOT / "faq" / "content").glob(f"{kind}.*"))
    for sheet in sheets.SHEETS.values():
        owned |= set(folder_of(sheet.blueprint.import_name).rglob("*"))
        owned |= set((ROOT / "templates" / sheet.folder).rglob("*"))
        owned |= set((ROOT / "static" / sheet.folder).rglob("*"))
    return owned


def shared_files(*patterns: str) -> list[Path]:
    """Return the files of the app matching ``patterns`` that belong to no one game."""
    owned = game_files()
    return sorted(path for pattern in patterns for path in ROOT.glob(pattern) if path not in owned)


def code_names(source: str) -> Iterator[str]:
    """Yield every name, attribute, imported module and string a module's code uses (not its docstrings, nor those of its attributes)."""
    tree = ast.parse(source)
    docstrings = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            yield node.id
        elif isinstance(node, ast.Attribute):
            yield node.attr
        elif isinstance(node, ast.ImportFrom):
            yield node.module or ""
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.value


def names_word(text: str, word: str) -> bool:
    """Return whether a text names a game's word as a word of its own: "plain" in "plain_sheet" or "rules.plain", not in "explain"."""
    return re.search(rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])", text.lower()) is not None


def test_a_game_word_counts_only_as_a_whole_word() -> None:
    """A game named by an everyday word is found where code names it, not inside longer words."""
    assert names_word("views.plain.routes", "plain") and names_word("PLAIN_SHEET", "plain") and names_word("twelve_days", "twelve_days")
    assert not names_word("explain", "plain") and not names_word("complaint", "plain") and not names_word("12daysx", "12days")


def test_no_shared_python_module_names_a_game() -> None:
    """The record, the history, the models, the shared views and the FAQ find a game in the registry, never by name."""
    words = game_words()
    modules = shared_files("*.py", "rules/*.py", "models/*.py", "views/*.py", "views/*/*.py", "faq/*.py", "live/*.py", "infra/*.py")
    assert ROOT / "rules" / "record.py" in modules and ROOT / "views" / "table" / "games.py" in modules
    for path in modules:
        named = {word for name in code_names(path.read_text(encoding="utf-8")) for word in words if names_word(name, word)}
        assert not named, f"{path.relative_to(ROOT)} names {sorted(named)}"


def test_no_shared_template_script_or_stylesheet_names_a_game() -> None:
    """The shared templates, scripts and stylesheets take the games from the server; each game's styles are in its own folder."""
    words = game_words()
    files = shared_files("templates/**/*.html", "templates/**/*.svg", "static/*.js", "static/js/*.js", "static/css/*.css")
    assert ROOT / "static" / "sw.js" in files and ROOT / "templates" / "games" / "new.html" in files
    assert ROOT / "templates" / "result" / "card.svg" in files
    assert ROOT / "static" / "css" / "app.css" in files
    for path in files:
        text = path.read_text(encoding="utf-8")
        named = {word for word in words if names_word(text, word)}
        assert not named, f"{path.relative_to(ROOT)} names {sorted(named)}"


def faq_terms(path: Path) -> set[str]:
    """Return the terms a FAQ file defines: the first word of each of its synonym groups, the word the others are read as.

    A number is no game's term: a card's name read as its number ("partridge" as 1) leaves 1 every game's.
    """
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return {group["words"][0].lower() for group in data.get("synonym", []) if not group["words"][0].isdigit()}


def shared_words(path: Path) -> set[str]:
    """Return every word a language's file lists in its synonyms, phrases and stopwords: what any game may read its own words as."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    phrases = " ".join(f"{phrase} {word}" for phrase, word in data.get("phrases", {}).items())
    listed = " ".join(word for group in data.get("synonym", []) for word in group["words"])
    return set(f"{listed} {phrases} {data.get('stopwords', '')}".lower().split())


def strings_of(data: object) -> Iterator[str]:
    """Yield every string a parsed TOML file holds, keys included."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from strings_of(value)
    elif isinstance(data, list):
        for value in data:
            yield from strings_of(value)


def test_no_shared_faq_vocabulary_names_a_game_or_uses_a_games_terms() -> None:
    """The languages' files and the FAQ's modules hold what is true of every game; each game's terms live in its own FAQ files.

    No shared FAQ file names a game, and none uses a word that one game's entries define as its term
    (Happy-Man, Golden 12, Santa, the pot ...).
    """
    languages = ROOT / "faq" / "content" / "languages"
    shared = shared_files("faq/content/languages/*.toml", "faq/*.py")
    assert languages / "de.toml" in shared and ROOT / "faq" / "search.py" in shared
    # Words every game shares: a game's synonyms may read its own words as one a language's file lists.
    common = set().union(*(shared_words(path) for path in languages.glob("*.toml")))
    terms = {
        term for kind in games.GAMES for path in (ROOT / "faq" / "content").glob(f"{kind}.*.toml") for term in faq_terms(path)
    } - common
    assert {"happyman", "golden12", "santa"} <= terms
    words = game_words()
    for path in shared:
        source = path.read_text(encoding="utf-8")
        data = tomllib.loads(source) if path.suffix == ".toml" else {}
        strings = list(strings_of(data)) if path.suffix == ".toml" else list(code_names(source))
        # The questions no entry answers are everyday talk ("guten Tag"): a game's word there is no use of its term.
        vocabulary = list(strings_of({key: value for key, value in data.items() if key != "unanswerable"})) if data else strings
        used = {word for text in vocabulary for word in re.findall(r"[a-z0-9]+", text.lower())}
        named = {word for word in words if any(names_word(text, word) for text in strings)}
        assert not named, f"{path.relative_to(ROOT)} names {sorted(named)}"
        assert not used & terms, f"{path.relative_to(ROOT)} uses the game terms {sorted(used & terms)}"


def imports_of(path: Path) -> set[str]:
    """Return the top-level packages a module imports."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
    return found


@pytest.mark.parametrize(
    ("layer", "below_it_only"),
    [
        ("rules", {"models", "views", "faq", "flask", "sqlalchemy"}),
        ("models", {"views", "faq", "flask"}),
        ("faq", {"views", "models", "flask"}),
    ],
)
def test_the_layers_import_only_downwards(layer: str, below_it_only: set[str]) -> None:
    """Views use models, models use rules; nothing imports a layer above its own."""
    for path in sorted((ROOT / layer).rglob("*.py")):
        assert not imports_of(path) & below_it_only, path.relative_to(ROOT)
