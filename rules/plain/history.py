"""The plain sheet's fold: a player's number entered (or changed) in the round being played, a finished open-ended game, a corrected round.

The events, from 0 like the record's list positions:

  ``hand`` {round, player, points}: a player's number in the round being played; the round
  closes when every player has one · ``finish`` {round}: the table says an open-ended game is
  over, after its last closed round (``round`` is the one that would come next) ·
  ``correct_round`` {round, record}: a closed round replaced, as a record writes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rules.games import Change, TableEvent
from rules.history import Stages, finished, payload, player, position
from rules.json_value import JSON
from rules.plain.record import read_round
from rules.plain.score import Game, game_problems, is_over, points_problems
from rules.problems import N_, Illegal, at, problem

ROUNDS_SAY = Stages(
    not_a_number=N_("must be the number of a round"),
    all_finished=N_("the game is over after {total} rounds"),
    is_finished=N_("round {number} is closed; round {current} is being played"),
    has_not_begun=N_("round {number} has not begun; round {current} is being played"),
    not_correctable=N_("only a closed round can be corrected"),
)


@dataclass(frozen=True, kw_only=True)
class PlainTable:
    """A plain sheet as its events add up: the game holds the closed rounds and the numbers of the open one."""

    game: Game


def current_round(game: Game) -> int | None:
    """Return the round being played (from 0), or None once the game is over."""
    return None if is_over(game) else len(game.rounds)


def _entered(start: Game, place: str, content: dict[str, JSON] | object, game: Game) -> Game:
    """Return the game with one player's number entered in the open round, which closes once everyone has one."""
    assert isinstance(content, dict)
    position(at(place, "round"), content["round"], current_round(game), ROUNDS_SAY, len(game.rounds))
    who = player(at(place, "player"), content["player"], start.players)
    number = content["points"]
    found = points_problems(at(place, "points"), number)
    if found or not isinstance(number, int):
        raise Illegal(found)
    open_round = {**game.open_round, who: number}
    if len(open_round) == len(start.players):
        closed = {name: open_round[name] for name in start.players}
        return replace(game, rounds=(*game.rounds, closed), open_round={})
    return replace(game, open_round=open_round)


def _finished(place: str, content: dict[str, JSON] | object, game: Game) -> Game:
    """Return an open-ended game finished after its last closed round; a round half entered must be completed (or undone) first."""
    assert isinstance(content, dict)
    if game.end is not None:
        raise Illegal([problem(place, N_("this game ends by its own rule, not when a phone says so"))])
    position(at(place, "round"), content["round"], current_round(game), ROUNDS_SAY, len(game.rounds))
    if game.open_round:
        raise Illegal(
            [
                problem(
                    place, N_("round {number} is half entered: enter the missing numbers or undo them first"), number=len(game.rounds) + 1
                )
            ]
        )
    if not game.rounds:
        raise Illegal([problem(place, N_("a game is finished after at least one round"))])
    return replace(game, finished=True)


def _corrected(start: Game, place: str, content: dict[str, JSON] | object, game: Game) -> Game:
    """Return the game with a closed round replaced; a correction the rules refuse (a round after the target) is refused whole."""
    assert isinstance(content, dict)
    index = finished(at(place, "round"), content["round"], len(game.rounds), ROUNDS_SAY)
    corrected = read_round(content["record"], start.players, f"rounds[{index}]")
    rounds = list(game.rounds)
    rounds[index] = corrected
    changed = replace(game, rounds=tuple(rounds))
    found = game_problems(changed)
    if found:
        raise Illegal(found)
    return changed


def fold(start: Game, events: Sequence[TableEvent]) -> PlainTable:
    """Replay ``hand``, ``finish`` and ``correct_round`` events on from ``start``, refusing any the rules forbid."""
    game = start
    for event in events:
        place = f"events[{event.seq}]"
        if event.kind == "hand":
            game = _entered(start, place, dict(payload(event, ("round", "player", "points"))), game)
        elif event.kind == "finish":
            game = _finished(place, dict(payload(event, ("round",))), game)
        elif event.kind == "correct_round":
            game = _corrected(start, place, dict(payload(event, ("round", "record"))), game)
        else:
            raise Illegal([problem(place, N_("{kind} is not a change of this game"), kind=repr(event.kind))])
    return PlainTable(game=game)


def step(table: PlainTable, event: TableEvent) -> PlainTable | None:
    """Return the table with one more number or finish, played on from the game it holds; a correction folds the whole history again."""
    return None if event.kind == "correct_round" else fold(table.game, [event])


def stages(game: Game) -> tuple[object, ...]:
    """Return the closed rounds: what a correction corrects."""
    return tuple(game.rounds)


def split_open(game: Game) -> tuple[Game, list[Change]]:
    """Return the game without its open round or its finish, and the taps that enter them again, each to be undone on its own."""
    taps: list[Change] = [
        ("hand", {"round": len(game.rounds), "player": name, "points": number}) for name, number in game.open_round.items()
    ]
    if game.finished:
        taps.append(("finish", {"round": len(game.rounds)}))
    return replace(game, open_round={}, finished=False), taps
