"""Correcting a finished round or day, the same way for every game.

The form is filled in with what is stored and says which change it was filled in from
(``seen``); saving it records one correction event. If that round or day changed since (the
rules decide what counts: ``rules.history.changed_since``), the save is refused with 409 and
the form keeps what was typed, beside the round or day as it stands now. A correction the
rules refuse answers 422 with the form as it was filled in, so nothing typed is lost.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from flask import abort, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from models import Game, StaleError, history_of
from rules.games import Table
from rules.history import TableEvent, changed_since, finished_part, fold
from rules.json_value import JSON
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
    """The words for a 409: someone else changed it since the form was filled in."""
    stored: Callable[[Table[Any], int], V]
    """The form's values for finished round or day ``index`` as it stands."""
    read_form: Callable[[Game, Table[Any], int], tuple[JSON, V, list[str]]]
    """The record to store from the posted form, the values to show again, and problems found before the rules look."""
    page: Callable[[Game, Table[Any], int, V, int, list[str], int, V | None], Response]
    """Render the form: game, table, index, its values, the change they were filled in from, problems,
    status, and (after a 409) the values as it stands now, to show beside them."""


def newest(events: Sequence[TableEvent]) -> int:
    """Return the number of the newest change (0 for none): what a form is filled in from."""
    return events[-1].seq if events else 0


def form_seen() -> int:
    """Return ``seen`` of a correction form: the number of the newest change it was filled in from.

    Without it nobody can tell whether someone else changed the round or day meanwhile, so
    such a form is refused (400) before anything is stored.
    """
    posted = request.form.get("seen", "")
    if not is_whole(posted):
        abort(400, description=gettext(
            "This correction does not say which state of the game it was made from. Open the correction again and save it."
        ))
    return int(posted)


def unchanged_since(setup: Mapping[str, JSON], index: int, seen: int) -> Callable[[Sequence[TableEvent]], None]:
    """Return a precondition refusing a correction of round or day ``index`` if it changed after change ``seen``.

    It runs inside the guarded step that appends, so two corrections made on the same state
    cannot both pass: saving the second would silently overwrite the first.
    """

    def unchanged(events: Sequence[TableEvent]) -> None:
        if changed_since(setup, events, index, seen):
            raise StaleError(f"{index + 1} changed after change {seen}")

    return unchanged


def correct(game: Game, number: int, how: Correction[V]) -> Response:
    """Show the correction form of round or day ``number`` (from 1), or save it; everything after it is worked out again."""
    history = history_of(game)
    table = fold(game.setup, history)
    index = number - 1
    if finished_part(table, index) is None:
        abort(404)
    if request.method == "GET":
        return how.page(game, table, index, how.stored(table, index), newest(history), [], 200, None)
    seen = form_seen()
    written, shown, problems = how.read_form(game, table, index)
    if not problems:
        try:
            problems = record_tap(
                game, how.event, {how.position: index, "record": written},
                precondition=unchanged_since(game.setup, index, seen),
            )
        except StaleError:
            history = history_of(game)
            now = fold(game.setup, history)
            if finished_part(now, index) is None:
                return go_to(url_for("games.sheet", token=game.token))
            stands_now = how.stored(now, index)
            return how.page(game, now, index, shown, newest(history), [how.changed_meanwhile()], 409, stands_now)
    if problems:
        return how.page(game, table, index, shown, seen, problems, 422, None)
    return go_to(url_for("games.sheet", token=game.token))
