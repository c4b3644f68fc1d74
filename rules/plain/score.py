"""The plain sheet's rules: a pad with nothing printed on it, for any game the app has no rules for.

Players in columns, one whole number per player per round, a running total, and who wins:
the highest total (the default) or the lowest. A game may end by a rule (after a number of
rounds, or with the round in which a total reaches a target) or be open-ended, finished when
the table says so. The app knows nothing else of the game, so it checks only what a paper pad
would show: a number in every cell, and a winner.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rules.json_value import JSON
from rules.problems import N_, Problem, at, problem
from rules.record import shorten

HIGHEST = "highest"
LOWEST = "lowest"
WINS = (HIGHEST, LOWEST)
"""Who wins: the highest total (the default) or the lowest."""
MIN_PLAYERS, MAX_PLAYERS = 1, 12
MAX_ROUNDS = 99
"""The most rounds a record holds, and the most an end rule may ask for."""
MAX_TARGET = 100_000
MAX_POINTS = 100_000
"""A round's number for a player lies between minus and plus this."""
MAX_NAME_LENGTH = 60
"""The most characters the name of the game has."""


@dataclass(frozen=True, kw_only=True)
class End:
    """When a game ends by itself: after ``rounds`` rounds, or with the round in which a total reaches ``target`` (one of them)."""

    rounds: int | None = None
    target: int | None = None


@dataclass(frozen=True, kw_only=True)
class Game:
    """A plain sheet: the game's name, its players, who wins, when it ends, the closed rounds and the numbers entered so far."""

    name: str
    players: tuple[str, ...]
    wins: str = HIGHEST
    end: End | None = None
    """None: open-ended, the table says when it is over (``finished``)."""
    rounds: tuple[Mapping[str, int], ...] = ()
    """Every closed round: each player's number."""
    open_round: Mapping[str, int] = field(default_factory=dict)
    """The numbers entered so far in the round being played."""
    finished: bool = False
    """An open-ended game the table finished."""


def totals(rounds: Sequence[Mapping[str, int]], players: Sequence[str]) -> dict[str, int]:
    """Return every player's total: the sum of the closed rounds.

    >>> totals([{"A": 20, "B": -10}, {"A": 0, "B": 40}], ["A", "B"])
    {'A': 20, 'B': 30}
    """
    return {player: sum(round_[player] for round_ in rounds) for player in players}


def best(scores: Mapping[str, int], wins: str) -> list[str]:
    """Return everyone with the best total, in seating order: a tie shares the win.

    >>> best({"A": 35, "B": 35, "C": 20}, HIGHEST), best({"A": 35, "B": 35, "C": 20}, LOWEST)
    (['A', 'B'], ['C'])
    """
    if not scores:
        return []
    top = min(scores.values()) if wins == LOWEST else max(scores.values())
    return [player for player, total in scores.items() if total == top]


def target_round(game: Game) -> int | None:
    """Return the index of the round in which a total first reached the target, or None (no target, or nobody yet)."""
    if game.end is None or game.end.target is None:
        return None
    running = dict.fromkeys(game.players, 0)
    for index, round_ in enumerate(game.rounds):
        running = {player: running[player] + round_[player] for player in game.players}
        if max(running.values()) >= game.end.target:
            return index
    return None


def over_by_rule(game: Game) -> bool:
    """Return whether the game's end rule says it is over: all its rounds played, or a total at the target."""
    if game.end is None:
        return False
    if game.end.rounds is not None:
        return len(game.rounds) >= game.end.rounds
    return target_round(game) is not None


def is_over(game: Game) -> bool:
    """Return whether the game is over: by its end rule, or (open-ended) because the table finished it."""
    return game.finished or over_by_rule(game)


def winners(game: Game) -> list[str]:
    """Return who wins once the game is over, before that who leads (nobody before the first round)."""
    if not game.rounds:
        return []
    return best(totals(game.rounds, game.players), game.wins)


def points_problems(place: str, value: JSON) -> list[Problem]:
    """Return why a value is no player's number in a round: a whole number from −100,000 to 100,000."""
    if isinstance(value, bool) or not isinstance(value, int) or not -MAX_POINTS <= value <= MAX_POINTS:
        return [
            problem(
                place,
                N_("a round's points are a whole number from {least} to {most} (got {got})"),
                least=-MAX_POINTS,
                most=MAX_POINTS,
                got=shorten(value),
            )
        ]
    return []


def player_count_problems(players: Sequence[JSON]) -> list[Problem]:
    """Return a problem unless 1–12 players sit at the table."""
    if MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        return []
    return [
        problem("players", N_("a plain sheet has {min} to {max} players (got {got})"), min=MIN_PLAYERS, max=MAX_PLAYERS, got=len(players))
    ]


def game_problems(game: Game) -> list[Problem]:
    """Return what the rules forbid in a game: too many rounds, a round after the game ended, an open round or a finish out of place."""
    found = player_count_problems(game.players)
    if len(game.rounds) > MAX_ROUNDS:
        found.append(problem("rounds", N_("a plain sheet holds at most {most} rounds (got {got})"), most=MAX_ROUNDS, got=len(game.rounds)))
    last = target_round(game)
    if game.end is not None and game.end.rounds is not None and len(game.rounds) > game.end.rounds:
        found.append(
            problem(at("rounds", game.end.rounds), N_("the game ends after {rounds} rounds; no round follows"), rounds=game.end.rounds)
        )
    if game.end is not None and game.end.target is not None and last is not None and last + 1 < len(game.rounds):
        found.append(
            problem(
                at("rounds", last + 1),
                N_("the game ended after round {number}, when a total reached {target}; no round follows"),
                number=last + 1,
                target=game.end.target,
            )
        )
    if game.finished and not game.rounds:
        found.append(problem("finished", N_("a game is finished after at least one round")))
    if game.open_round and is_over(game):
        found.append(problem("open_round", N_("the game is over, so no round is being played")))
    elif game.open_round and len(game.rounds) >= MAX_ROUNDS:
        found.append(
            problem("open_round", N_("a plain sheet holds at most {most} rounds (got {got})"), most=MAX_ROUNDS, got=MAX_ROUNDS + 1)
        )
    return found


def first_player(first_dealer: int, players: int) -> None:
    """Return nobody: on a plain sheet everyone enters their number at once.

    >>> first_player(0, 3) is None
    True
    """
    return
