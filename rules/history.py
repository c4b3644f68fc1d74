"""From what happened at the table to the game record: folding the event history.

The app never overwrites a score. Every tap is appended as an event (a pass cross, a
revealed card, a correction, an undo), and the sheet is whatever the events add up to.
``fold`` replays them through the same rules that check a record, so an event that would
make the game illegal is refused before it is stored (``check``), and a stored history
always folds. A new tap is played on from the table its history already added up to
(``step``, each game's own reducer), so a tap costs the same in a long game as in a new one;
only an undo, an import or a correction folds the whole history again.

This module holds what every game's history shares: the events, undo, the import of a
record as a game's first change, and the checks of a payload. What a game's own events
mean is folded by the game (``rules/<game>/history.py``), found in the registry. Event
payloads count rounds and days from 0, like the record's list positions. Every game has

  ``import`` {record}: a game record's finished rounds or days, as the first change of an
  imported game (the round or day it was exported in follows as the game's own taps) ·
  ``undo`` {event}: the sequence number of an earlier change that no longer counts ·
  ``rematch`` {}: a rematch of this game was started (it changes no score and cannot be undone) ·
  ``new_addresses`` {}: the table's addresses were replaced (a note like ``rematch``, so every
  phone still on the game hears of it live).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules import record
from rules.games import Change, Table, TableEvent, rules_of
from rules.json_value import JSON
from rules.problems import N_, Illegal, at, problem, quoted_key

UNDO = "undo"
IMPORT = "import"
REMATCH = "rematch"
NEW_ADDRESSES = "new_addresses"
NOTES = (REMATCH, NEW_ADDRESSES)
"""The events that note what happened around a game: they change no score and cannot be undone."""


def effective(events: Sequence[TableEvent]) -> list[TableEvent]:
    """Return the changes that still count: every event but undos, what they undid, and the notes.

    >>> [e.seq for e in effective([TableEvent(1, "pass", {}), TableEvent(2, "pass", {}),
    ...                            TableEvent(3, "undo", {"event": 2})])]
    [1]
    """
    undone: set[int] = set()
    seen: dict[int, TableEvent] = {}
    for event in events:
        place = f"events[{event.seq}]"
        if event.kind in NOTES:
            payload(event, ())
        elif event.kind == UNDO:
            target = event.payload.get("event") if isinstance(event.payload, Mapping) else None
            if isinstance(target, bool) or not isinstance(target, int) or target not in seen:
                raise Illegal([problem(place, N_("an undo names an earlier change of this game"))])
            if target in undone:
                raise Illegal([problem(place, N_("that change was already undone"))])
            if seen[target].kind == IMPORT:
                raise Illegal([problem(place, N_("an imported record cannot be undone; correct its rounds or days instead"))])
            undone.add(target)
        else:
            seen[event.seq] = event
    return [event for seq, event in seen.items() if seq not in undone]


def last_change(events: Sequence[TableEvent]) -> TableEvent | None:
    """Return the most recent change that still counts and can be taken back: what "undo" offers.

    An imported record is where the game began, not a tap; it is corrected, never undone.
    """
    remaining = [event for event in effective(events) if event.kind != IMPORT]
    return remaining[-1] if remaining else None


def superseded(events: Sequence[TableEvent], target: int) -> bool:
    """Return whether change ``target`` still counts but is no longer the last one: undoing it would skip newer changes.

    An undo button offers the last change; once someone else's change follows it, the
    button shows an old sheet. Unknown, undone or imported changes are not "superseded":
    ``check`` refuses undoing them.

    >>> taps = [TableEvent(1, "pass", {}), TableEvent(2, "pass", {})]
    >>> superseded(taps, 1), superseded(taps, 2), superseded(taps, 9)
    (True, False, False)
    """
    change = last_change(events)
    undoable = {event.seq for event in effective(events) if event.kind != IMPORT}
    return change is not None and target in undoable and target != change.seq


def finished_part(table: Table[Any], index: int) -> object | None:
    """Return finished round or day ``index`` of a table (the game's own type), or None while it is not finished."""
    parts = rules_of(table.game).stages(table.game)
    return parts[index] if 0 <= index < len(parts) else None


def changed_between(then: Table[Any], now: Table[Any], index: int) -> bool:
    """Return whether finished round or day ``index`` differs in ``now`` from how it stood in ``then`` (the game a form was filled in on).

    This is what makes a correction form stale: only what folds into that round or day
    counts, so a tap, an undo or a correction elsewhere leaves the form valid, while a
    correction of the same round, an undo that reaches into it, or an earlier round
    handing it another Happy-Man holder does not. A round or day that is no longer
    finished is left to ``check``, which refuses correcting it.
    """
    stands = finished_part(now, index)
    return stands is not None and finished_part(then, index) != stands


def fold(setup: Mapping[str, JSON], events: Sequence[TableEvent]) -> Table[Any]:
    """Return the game the events add up to, or raise Illegal naming what went wrong.

    ``setup`` is a record without rounds or days: the game, its players and options.

    >>> setup = {"game": "auruxxx", "players": ["Anna", "Ben"]}
    >>> table = fold(setup, [TableEvent(1, "pass", {"round": 0, "player": "Anna"}),
    ...                      TableEvent(2, "finish", {"round": 0, "player": "Ben", "golden12": 2}),
    ...                      TableEvent(3, "hand", {"round": 0, "player": "Anna", "hand": {"points": 7}})])
    >>> record.scored(table.game)["result"]["totals"]
    {'Anna': 12, 'Ben': -10}
    """
    base = record.parse(dict(setup))
    counted = effective(events)
    start = base
    if counted and counted[0].kind == IMPORT:
        start = _imported(counted[0], base)
        counted = counted[1:]
    for event in counted:
        if event.kind == IMPORT:
            payload(event, ("record",))
            raise Illegal([problem(f"events[{event.seq}]", N_("a record can only be imported into a new game"))])
    table: Table[Any] = rules_of(base).fold(start, counted)
    return table


def check(
    setup: Mapping[str, JSON], events: Sequence[TableEvent], new: Sequence[TableEvent], *, table: Table[Any] | None = None
) -> Table[Any]:
    """Return the game with new events added, or raise Illegal: the test every tap passes.

    ``table`` is what ``events`` add up to, when the caller has it: the taps are then played on
    from it (``step``), and only what ``step`` cannot play folds the whole history again.
    """
    stepped = table
    for event in new:
        if stepped is None:
            break
        stepped = step(stepped, event)
    if stepped is not None:
        return stepped
    return fold(setup, [*events, *new])


def step(table: Table[Any], event: TableEvent) -> Table[Any] | None:
    """Return the table with one more event, exactly as the whole fold would, or None when only the whole fold can tell.

    An undo reaches back into the history and an import can only begin it: both always fold
    again. The game's own events are the game's to step (a correction is not, in either game).

    >>> table = fold({"game": "auruxxx", "players": ["Anna", "Ben"]}, [TableEvent(1, "pass", {"round": 0, "player": "Anna"})])
    >>> dict(step(table, TableEvent(2, "pass", {"round": 0, "player": "Anna"})).current.passes)
    {'Anna': 2}
    >>> step(table, TableEvent(2, "undo", {"event": 1})) is None
    True
    """
    if event.kind in (UNDO, IMPORT):
        return None
    if event.kind in NOTES:
        payload(event, ())
        return table
    return rules_of(table.game).step(table, event)


def import_changes(game: object) -> list[Change]:
    """Return the changes that start a game from a record: the finished rounds or days as one import,
    then the round or day being played tap by tap, so the table plays on and each tap can be undone.

    >>> game = record.parse({"game": "auruxxx", "players": ["Anna", "Ben"],
    ...                      "open_round": {"happy_man": "Ben", "passes": {"Anna": 2}}})
    >>> [(kind, payload.get("player")) for kind, payload in import_changes(game)]
    [('import', None), ('happy_man', 'Ben'), ('pass', 'Anna'), ('pass', 'Anna')]
    """
    finished, taps = rules_of(game).split_open(game)
    return [(IMPORT, {"record": record.serialise(finished)}), *taps]


def _imported(event: TableEvent, base: object) -> object:
    """Return the game an import event carries: the finished part of a record of the same game, players and options."""
    place = f"events[{event.seq}]"
    game = record.parse(payload(event, ("record",))["record"])
    setup = record.setup(base)
    written = record.setup(game)
    for key in {**setup, **written}:
        if written.get(key) != setup.get(key):
            raise Illegal([problem(at(place, key), N_("differs from the game it is imported into"))])
    finished, _ = rules_of(game).split_open(game)
    in_play = sorted(record.serialise(game).keys() - record.serialise(finished).keys())
    if in_play:
        raise Illegal(
            [problem(at(place, in_play[0]), N_("an import holds finished rounds and days only; later taps are changes of their own"))]
        )
    return game


# --- Reading a game's own events -------------------------------------------------------------


def payload(event: TableEvent, keys: tuple[str, ...]) -> Mapping[str, JSON]:
    """Return an event's payload after checking it has exactly the expected keys."""
    place = f"events[{event.seq}]"
    content = event.payload
    if not isinstance(content, Mapping):
        raise Illegal([problem(place, N_("the change has no content"))])
    problems = [problem(at(place, key), N_("is required")) for key in keys if key not in content]
    problems += [problem(place, N_("unknown key {key}"), key=quoted_key(key)) for key in content if key not in keys]
    if problems:
        raise Illegal(problems)
    return content


def player(place: str, value: JSON, players: Sequence[str]) -> str:
    """Return a player named in a payload."""
    if not isinstance(value, str) or value not in players:
        raise Illegal([problem(place, N_("{name} is not a player of this game"), name=record.shorten(value))])
    return value


@dataclass(frozen=True, kw_only=True)
class Stages:
    """What a game is played in (rounds, days), in the messages about one: whole sentences, so they translate well."""

    not_a_number: str
    all_finished: str
    """Placeholder ``{total}``: how many there are."""
    is_finished: str
    """Placeholders ``{number}`` (the one asked for) and ``{current}`` (the one being played), counted from 1."""
    has_not_begun: str
    """The same placeholders as ``is_finished``."""
    not_correctable: str


def position(place: str, value: JSON, current: int | None, stages: Stages, total: int) -> int:
    """Return the round or day an in-play event is for, refusing any but the one being played."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise Illegal([problem(place, stages.not_a_number)])
    if current is None:
        raise Illegal([problem(place, stages.all_finished, total=total)])
    if value != current:
        template = stages.is_finished if value < current else stages.has_not_begun
        raise Illegal([problem(place, template, number=value + 1, current=current + 1)])
    return value


def finished(place: str, value: JSON, count: int, stages: Stages) -> int:
    """Return the finished round or day a correction is for (``count`` of them are finished)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < count:
        raise Illegal([problem(place, stages.not_correctable)])
    return value
