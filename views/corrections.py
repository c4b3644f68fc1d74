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

from models import Folded, Game, StaleError, folded
from rules.games import GameRules, TableEvent
from rules.history import changed_since, finished_part
from rules.json_value import JSON
from views.forms import is_whole
from views.render import game_page, go_to
from views.taps import record_tap
from views.viewers import Viewer

T = TypeVar("T")
"""A game's folded table."""
V = TypeVar("V")
"""What a game's correction form shows: the stored round or day, or what was typed into it."""


@dataclass(frozen=True, kw_only=True)
class Correction(Generic[T, V]):
    """How one game corrects what it is played in: the event it records, its form and what the form offers."""

    rules: GameRules[Any, T]
    event: str
    """The kind of event a correction is stored as: "correct_round"."""
    position: str
    """The payload key naming which one is corrected: "round"."""
    template: str
    """The form's template; its block ``correct`` is what htmx swaps."""
    changed_meanwhile: Callable[[], str]
    """The words for a 409: someone else changed it since the form was filled in."""
    stored: Callable[[T, int], V]
    """The form's values for finished round or day ``index`` as it stands."""
    read_form: Callable[[Mapping[str, str], Game, T, int], tuple[JSON, V, list[str]]]
    """The record to store from the posted form, the values to show again, and problems found before the rules look."""
    offers: Callable[[T, int], Mapping[str, object]]
    """What the form offers to choose from for round or day ``index``, besides its values."""


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


def correct(game: Game, viewer: Viewer, number: int, how: Correction[T, V]) -> Response:
    """Show the correction form of round or day ``number`` (from 1), or save it; everything after it is worked out again."""
    now = folded(game)
    index = number - 1
    if finished_part(now.table, index) is None:
        abort(404)
    if request.method == "GET":
        return _form(game, viewer, how, now, index, how.stored(how.rules.typed(now.table), index), now.version, [], 200, None)
    seen = form_seen()
    written, shown, problems = how.read_form(request.form, game, how.rules.typed(now.table), index)
    if not problems:
        try:
            problems = list(
                record_tap(
                    game, viewer, how.event, {how.position: index, "record": written},
                    precondition=unchanged_since(game.setup, index, seen),
                ).problems
            )
        except StaleError:
            now = folded(game)
            if finished_part(now.table, index) is None:
                return go_to(url_for("games.sheet", token=game.token), viewer.fragment)
            stands_now = how.stored(how.rules.typed(now.table), index)
            return _form(game, viewer, how, now, index, shown, now.version, [how.changed_meanwhile()], 409, stands_now)
    if problems:
        return _form(game, viewer, how, now, index, shown, seen, problems, 422, None)
    return go_to(url_for("games.sheet", token=game.token), viewer.fragment)


def _form(
    game: Game, viewer: Viewer, how: Correction[T, V], now: Folded, index: int, values: V, seen: int,
    problems: list[str], status: int, stands_now: V | None,
) -> Response:
    """Render the correction form filled in with ``values`` (the stored round or day, or what was refused, beside ``stands_now``)."""
    return game_page(
        how.template, "correct", game, viewer, status=status, number=index + 1, players=list(game.player_names),
        values=values, stands_now=stands_now, seen=seen, problems=problems, **how.offers(how.rules.typed(now.table), index),
    )
