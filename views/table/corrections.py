"""Correcting a finished round or day, the same way for every game.

The form is filled in with what is stored (and any change a link asks for: the refusal of a
tap made for a round already over links here with that tap) and says which change it was filled in from
(``seen``, read as every form that moves something reads it: ``views.table.taps.posted_seen``);
saving it records one correction event. If that round or day changed since (the
rules decide what counts: ``rules.history.changed_between``), the save is refused with 409 and
the form keeps what was typed, beside the round or day as it stands now. A correction the
rules refuse answers 422 with the form as it was filled in, so nothing typed is lost.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar
from urllib.parse import urlencode

from flask import abort, request, url_for
from werkzeug.wrappers import Response

from models import Before, Folded, Game, Precondition, StaleError, folded
from rules.games import GameRules
from rules.history import changed_between, finished_part
from rules.json_value import JSON
from views.pages.render import game_page, go_to
from views.pages.viewers import Viewer
from views.table.sheets import Fix
from views.table.taps import posted_seen, record_tap

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
    endpoint: str
    """The form's view, for links to it: "auruxxx.correct"."""
    fix_text: Callable[[int], str]
    """The words of a link to the form of round or day ``number``, filled in with a refused tap."""
    prefilled: Callable[[V, Mapping[str, str], T], V]
    """The stored values with what a link asks to change (its query string): only choices the form offers, the rest as stored."""


def refused_fix(how: Correction[T, V], state: Folded, token: str, index: int, asked: Callable[[T], dict[str, str] | None]) -> Fix | None:
    """Return the correction of round or day ``index``, filled in with a tap refused because it is over (None while it is not).

    ``asked`` says what the tap changes there, as the form's fields (None where the form cannot say it).
    """
    if finished_part(state.table, index) is None:
        return None
    fields = asked(how.rules.typed(state.table))
    if fields is None:
        return None
    return Fix(f"{url_for(how.endpoint, token=token, number=index + 1)}?{urlencode(fields)}", how.fix_text(index + 1))


def unchanged_since(index: int, seen: int) -> Precondition:
    """Return a precondition refusing a correction of round or day ``index`` if it changed after change ``seen``.

    It runs inside the guarded step that appends, so two corrections made on the same state
    cannot both pass: saving the second would silently overwrite the first.
    """

    def unchanged(before: Before) -> None:
        if changed_between(before.table_at(seen), before.state.table, index):
            raise StaleError(f"{index + 1} changed after change {seen}")

    return unchanged


def correct_finished(game: Game, viewer: Viewer, number: int, how: Correction[T, V]) -> Response:
    """Show the correction form of round or day ``number`` (from 1), or save it; everything after it is worked out again."""
    now = folded(game)
    index = number - 1
    if finished_part(now.table, index) is None:
        abort(404)
    if request.method == "GET":
        stored = how.stored(how.rules.typed(now.table), index)
        values = how.prefilled(stored, request.args, how.rules.typed(now.table))
        return _form(game, viewer, how, now, index, values, now.version, [], 200, None, prefilled=values != stored)
    seen = posted_seen(now.version)
    written, shown, problems = how.read_form(request.form, game, how.rules.typed(now.table), index)
    if not problems:
        try:
            problems = list(
                record_tap(
                    game,
                    viewer,
                    how.event,
                    {how.position: index, "record": written},
                    precondition=unchanged_since(index, seen),
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
    game: Game,
    viewer: Viewer,
    how: Correction[T, V],
    now: Folded,
    index: int,
    values: V,
    seen: int,
    problems: list[str],
    status: int,
    stands_now: V | None,
    *,
    prefilled: bool = False,
) -> Response:
    """Render the correction form filled in with ``values`` (the stored round or day, a link's change to it, or what was refused, beside ``stands_now``)."""
    return game_page(
        how.template,
        "correct",
        game,
        viewer,
        status=status,
        number=index + 1,
        players=list(game.player_names),
        values=values,
        stands_now=stands_now,
        seen=seen,
        problems=problems,
        prefilled=prefilled,
        **how.offers(how.rules.typed(now.table), index),
    )
