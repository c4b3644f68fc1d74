"""The score sheets of the games: one view module per game, behind one small protocol.

A game's view module (``views/auruxxx_sheet.py``, ``views/twelve_days_sheet.py``) holds its
routes and satisfies ``SheetView`` with its module-level names; its templates live in one
folder. ``views/__init__.py`` registers the games Tischblock ships; the shared pages (new
game, the sheet's address, undo, rematch, history, import, the front page) find a game's
views here by its kind and never ask which game it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from flask import Blueprint
from werkzeug.wrappers import Response

from models import Game
from rules.json_value import JSON
from views.scoreboard import Scoreboard


@dataclass(frozen=True)
class Choice:
    """One option of a setting on the new-game form, as the form offers it."""

    value: str
    label: Any
    """Text or a lazily translated text."""


@dataclass(frozen=True)
class Option:
    """A setting the table chooses when it starts a game: a house rule or a variant."""

    name: str
    title: Any
    explanation: Any
    choices: tuple[Choice, ...]
    default: str


class SheetView(Protocol):
    """What the shared pages need from one game's view module."""

    @property
    def KIND(self) -> str:
        """Return the kind of game these views show (``rules.games``)."""
        ...

    @property
    def bp(self) -> Blueprint:
        """Return the blueprint of the game's own routes: its taps and forms."""
        ...

    @property
    def FOLDER(self) -> str:
        """Return the game's template folder: ``new.html`` (extending ``games/new.html``) and ``card.html`` for the front page."""
        ...

    @property
    def SEATS(self) -> int:
        """Return how many player fields the new-game form offers."""
        ...

    @property
    def OPTIONS(self) -> tuple[Option, ...]:
        """Return the settings the new-game form asks for."""
        ...

    def setup_from_form(self, settings: Mapping[str, str]) -> dict[str, JSON]:
        """Return the options part of a setup (house rules, variant) from the form's chosen settings."""
        ...

    def render(self, game: Game, *, problems: Sequence[str] = (), status: int = 200) -> Response:
        """Return the game's sheet as a page, or its ``#sheet`` fragment for htmx, with any refusals on it."""
        ...

    def after_tap(self, game: Game, problems: Sequence[str]) -> Response:
        """Answer a tap on the sheet: the refusal, the fresh sheet for htmx, or back to the page."""
        ...

    def rematch(self, game: Game) -> int:
        """Return the seat that deals first in a rematch of a finished game."""
        ...

    def describe_event(self, kind: str, payload: Mapping[str, JSON]) -> str:
        """Return one of the game's own changes in words, for the history and the undo button."""
        ...

    def scoreboard(self, game: Game) -> Scoreboard:
        """Return the game's points in the shape the chart, the CSV and the share text read."""
        ...


SHEETS: dict[str, SheetView] = {}
"""The view module of every registered game, by kind."""


def register(sheet: SheetView) -> None:
    """Add a game's views; a kind has one view module."""
    known = SHEETS.get(sheet.KIND)
    if known is not None and known is not sheet:
        raise ValueError(f"two view modules show {sheet.KIND!r}")
    SHEETS[sheet.KIND] = sheet


def sheet_of(kind: str) -> SheetView:
    """Return the views of a kind of game (a stored game's kind always has them)."""
    return SHEETS[kind]
