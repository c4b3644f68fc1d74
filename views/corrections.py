"""Correcting a finished round or day, the same way for every game.

The form is filled in with what is stored; saving it records one correction event. Someone
may have corrected the same round (or undone a change) since the form was shown: then the
save is refused with 409 and the form shows the round as it stands now. A correction the
rules refuse answers 422 with the form as it was filled in, so nothing typed is lost.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from flask import abort, request, url_for
from werkzeug.wrappers import Response

from models import Game, StaleError, history_of
from rules.games import JSON, Table
from rules.history import UNDO, TableEvent, fold
from views.forms import is_whole
from views.render import go_to
from views.taps import record_tap

V = TypeVar("V")
"""What a game's correction form shows: the stored round or day, or what was typed into it."""


@dataclass(frozen=True, kw_only=True)
class Correction(Generic[V]):
    """How one game corrects what it is played in: the event it records and its form."""

    event: str
    """The kind of event a correction is stored as: "correct_round"."""
    position: str
    """The payload key naming which one is corrected: "round"."""
    changed_meanwhile: Callable[[], str]
    """The words for a 409: someone else changed it since the form was shown."""
    finished: Callable[[Table[Any]], int]
    """How many are finished, and so can be corrected."""
    stored: Callable[[Table[Any], int], V]
    """The form's values for the stored one."""
    read_form: Callable[[Game, Table[Any], int], tuple[JSON, V, list[str]]]
    """The record to store from the posted form, the values to show again, and problems found before the rules look."""
    page: Callable[[Game, Table[Any], int, V, int, list[str], int], Response]
    """Render the form: game, table, index, values, the newest change it was filled in from, problems, status."""


def newest(events: Sequence[TableEvent]) -> int:
    """Return the number of the newest change (0 for none): what a form was filled in from."""
    return events[-1].seq if events else 0


def unchanged_since_form(event_kind: str, position: str, index: int) -> Callable[[Sequence[TableEvent]], None]:
    """Return a precondition refusing a correction if its round or day changed after the form was shown.

    The form carries ``seen``, the number of the newest change it was filled in from. A later
    correction of the same round (or day), or any undo, means the form shows an old state:
    saving it would silently overwrite someone else's fix.
    """
    posted = request.form.get("seen", "")

    def unchanged(events: Sequence[TableEvent]) -> None:
        if not is_whole(posted):
            return
        seen = int(posted)
        if any(
            event.seq > seen
            and (event.kind == UNDO or (event.kind == event_kind and event.payload.get(position) == index))
            for event in events
        ):
            raise StaleError(f"{position} {index + 1} changed after change {seen}")

    return unchanged


def correct(game: Game, number: int, how: Correction[V]) -> Response:
    """Show the correction form of round or day ``number`` (from 1), or save it; everything after it is worked out again."""
    history = history_of(game)
    table = fold(game.setup, history)
    index = number - 1
    if not 0 <= index < how.finished(table):
        abort(404)
    seen = newest(history)
    if request.method == "GET":
        return how.page(game, table, index, how.stored(table, index), seen, [], 200)
    written, shown, problems = how.read_form(game, table, index)
    if not problems:
        try:
            problems = record_tap(
                game, how.event, {how.position: index, "record": written},
                precondition=unchanged_since_form(how.event, how.position, index),
            )
        except StaleError:
            history = history_of(game)
            now = fold(game.setup, history)
            return how.page(game, now, index, how.stored(now, index), newest(history), [how.changed_meanwhile()], 409)
    if problems:
        return how.page(game, table, index, shown, seen, problems, 422)
    return go_to(url_for("games.sheet", token=game.token))
