"""Pebbles: a game that exists only in the tests, to show that a third game needs no shared module changed.

Its rules (``rules.py``), its views (``views.py``) and its templates (``templates/pebbles/``)
are all it brings; ``registered`` adds it to both registries for a test, as the games Tischblock ships
are added in ``rules/__init__.py`` and ``views/__init__.py``.
"""

from collections.abc import Iterator
from contextlib import contextmanager

from rules import games
from tests.pebbles import rules, views
from views.table import sheets


@contextmanager
def registered() -> Iterator[None]:
    """Register Pebbles in both registries for the duration of a test, and take it out again."""
    games.register(rules.PEBBLES)
    sheets.register(views.PEBBLES_SHEET)
    try:
        yield
    finally:
        del games.GAMES[rules.PEBBLES.kind]
        del sheets.SHEETS[views.PEBBLES_SHEET.kind]
