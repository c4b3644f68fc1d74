"""The shape of ``views``: a game's package imports one face of it, and every room stands only on the rooms below it.

A game plugs into ``views.table`` (its ``__init__``); what else the rooms hold may change without
a game noticing. The rooms are layered bottom up: ``pages``, ``table``, ``results``, ``site``.
The imports are read from the source, so a test needs no game registered to hold the line.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import views
from tests.pebbles import views as pebbles_views
from views.table.sheets import SHEETS

ROOT = Path(__file__).resolve().parents[2]
ROOMS = ("pages", "table", "results", "site")
"""The rooms of ``views`` from the bottom up: each may import the rooms before it, never one after it."""
FACE = "views.table"


def imported_modules(path: Path) -> set[str]:
    """Return every module a Python file imports, by its absolute name (``from views.table import x`` gives ``views.table``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names if node.module == "views")
    return names


def package_files(package: str) -> list[Path]:
    """Return the Python files of a package (or of a single module) under the repository."""
    path = ROOT / package.replace(".", "/")
    return sorted(path.rglob("*.py")) if path.is_dir() else [path.with_suffix(".py")]


def game_packages() -> list[str]:
    """Return the package of every game's views: those Tischblock ships, and the test-only Pebbles."""
    packages = {sheet.blueprint.import_name.rsplit(".", 1)[0] for sheet in SHEETS.values()}
    return sorted(packages | {pebbles_views.__name__})


def test_every_shipped_game_has_a_package_of_its_own() -> None:
    """Both games Tischblock ships bring their views in packages of their own under ``views``."""
    assert {"views.auruxxx", "views.twelve_days"} <= set(game_packages())


@pytest.mark.parametrize("package", game_packages())
def test_a_game_imports_nothing_of_views_but_the_table_face(package: str) -> None:
    """A game's views import ``views.table`` (its face) and their own modules, and no other module of ``views``."""
    strays = {
        (path.relative_to(ROOT).as_posix(), name)
        for path in package_files(package)
        for name in imported_modules(path)
        if (name == "views" or name.startswith("views.")) and name != FACE and not name.startswith(package)
    }
    assert not strays, f"import from {FACE} instead: {sorted(strays)}"


@pytest.mark.parametrize("room", ROOMS)
def test_a_room_stands_only_on_the_rooms_below_it(room: str) -> None:
    """A module of a room imports no module of a room above it, and no game's package."""
    above = {f"views.{other}" for other in ROOMS[ROOMS.index(room) + 1 :]}
    games = set(game_packages())
    strays = {
        (path.relative_to(ROOT).as_posix(), name)
        for path in package_files(f"views.{room}")
        for name in imported_modules(path)
        if any(name == forbidden or name.startswith(forbidden + ".") for forbidden in above | games)
    }
    assert not strays, sorted(strays)


def test_every_module_of_views_lives_in_a_room_or_a_game() -> None:
    """No module lies loose in ``views``: each belongs to a room or to a game's package."""
    loose = [path.name for path in (ROOT / "views").glob("*.py") if path.name != "__init__.py"]
    folders = {path.name for path in (ROOT / "views").iterdir() if path.is_dir() and (path / "__init__.py").exists()}
    assert not loose and folders == set(ROOMS) | {package.split(".")[1] for package in game_packages() if package.startswith("views.")}
    assert views.__doc__ and all(f"views.{room}" in views.__doc__ for room in ROOMS)
