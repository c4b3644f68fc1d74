"""Keypads not saved yet, kept in this phone's session: a reload, or a phone put away mid-hand, loses no tapped card."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import session

from models import Game

KEYPAD_DRAFTS = 3
"""How many unsaved keypads one phone keeps (the newest), well inside a cookie."""


def draft_key(game: Game, seat: int, index: int | None = None) -> str:
    """Return the name under which this phone keeps the unsaved keypad of a seat (in a round or day)."""
    return f"{game.id}:{'' if index is None else index}:{seat}"


def keep_draft(key: str, draft: Mapping[str, Any]) -> None:
    """Keep what a keypad shows but nobody saved yet, in this phone's session."""
    drafts = {name: value for name, value in session.get("keypads", {}).items() if name != key}
    session["keypads"] = dict([*list(drafts.items())[-(KEYPAD_DRAFTS - 1) :], (key, dict(draft))])


def draft_of(key: str) -> dict[str, Any] | None:
    """Return the unsaved keypad this phone kept under ``key``, if any."""
    draft = session.get("keypads", {}).get(key)
    return draft if isinstance(draft, dict) else None


def drop_draft(key: str) -> None:
    """Forget an unsaved keypad: it was saved, or its player kept what another phone saved."""
    drafts = session.get("keypads", {})
    if key in drafts:
        session["keypads"] = {name: value for name, value in drafts.items() if name != key}
