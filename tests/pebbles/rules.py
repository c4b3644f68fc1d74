"""The rules of Pebbles: two rounds, whoever wins a round takes a pebble, most pebbles win.

One module plays the part of a game's package under ``rules/``: its score, its part of the
record, its fold, and the module-level names of ``rules.games.GameRules``.

    {"game": "pebbles", "players": ["Anna", "Ben"], "rounds": [{"winner": "Ben"}]}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules.history import Change, Stages, TableEvent, payload, player, position
from rules.json_value import JSON
from rules.problems import N_, Illegal, Problem, at, problem
from rules.record import Reader, json_type, read_players

KIND = "pebbles"
TITLE = "Pebbles"
SETUP_KEYS: tuple[str, ...] = ()
ROUNDS = 2
MIN_PLAYERS, MAX_PLAYERS = 2, 4
ROUNDS_SAY = Stages(
    not_a_number=N_("must be the number of a round"),
    all_finished=N_("all {total} rounds are finished"),
    is_finished=N_("round {number} is finished; round {current} is being played"),
    has_not_begun=N_("round {number} has not begun; round {current} is being played"),
    not_correctable=N_("only a finished round can be corrected"),
)


@dataclass(frozen=True, kw_only=True)
class Game:
    """The players and who won each finished round."""

    players: tuple[str, ...]
    winners: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class PebblesTable:
    """A Pebbles game as its events add up; the round being played is the next one."""

    game: Game


def pebbles(game: Game) -> dict[str, int]:
    """Return every player's pebbles.

    >>> pebbles(Game(players=("A", "B"), winners=("B", "B")))
    {'A': 0, 'B': 2}
    """
    return {p: game.winners.count(p) for p in game.players}


def parse(raw: Mapping[str, JSON]) -> Game:
    """Return the game a Pebbles record describes, or raise Illegal."""
    reader = Reader()
    reader.object("", raw, required=("game", "players"), optional=("rounds", "result"))
    players = read_players(reader, raw, MAX_PLAYERS, player_count_problems)
    rounds = raw.get("rounds", [])
    if not isinstance(rounds, list):
        reader.fail("rounds", N_("must be a list of rounds (got {got})"), got=json_type(rounds))
        return reader.finish(None)
    if players is None:
        return reader.finish(None)
    winners = []
    for index, value in enumerate(rounds):
        round_ = reader.object(at("rounds", index), value, required=("winner",))
        if round_ is not None and "winner" in round_:
            _, winner = reader.player_ref(at(at("rounds", index), "winner"), round_["winner"], players)
            winners.append(winner)
    return reader.finish(Game(players=players, winners=tuple(w for w in winners if w is not None)))


def serialise(game: Game) -> dict[str, JSON]:
    """Return the normalised record of a game."""
    return {"game": KIND, "players": list(game.players), "rounds": [{"winner": w} for w in game.winners]}


def result(game: Game) -> dict[str, JSON]:
    """Return the pebbles per round and in total, and who has the most."""
    totals = pebbles(game)
    best = max(totals.values())
    return {
        "rounds": [{p: int(p == w) for p in game.players} for w in game.winners],
        "totals": {p: count for p, count in totals.items()},
        "winners": [p for p in game.players if totals[p] == best],
        "complete": len(game.winners) == ROUNDS,
    }


def player_count_problems(players: Sequence[JSON]) -> list[Problem]:
    """Return a problem unless 2–4 players sit at the table."""
    if MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        return []
    return [problem("players", N_("{variant} is played by {min} to {max} players (got {got})"),
                    variant=TITLE, min=MIN_PLAYERS, max=MAX_PLAYERS, got=len(players))]


def problems(game: Game) -> list[Problem]:
    """Return what makes a game impossible: the number of players and of rounds."""
    found = player_count_problems(game.players)
    if len(game.winners) > ROUNDS:
        found.append(problem("rounds", N_("a game has {rounds} rounds (got {got})"), rounds=ROUNDS, got=len(game.winners)))
    return found


def first_player(first_dealer: int, players: int) -> int:
    """Return the first dealer: in Pebbles whoever deals also plays first."""
    return first_dealer


def stages(game: Game) -> tuple[str, ...]:
    """Return the winners of the finished rounds: a round of Pebbles is who took its pebble."""
    return game.winners


def split_open(game: Game) -> tuple[Game, list[Change]]:
    """Return the game as it is: a round of Pebbles is won in one tap, so nothing is ever half played."""
    return game, []


def fold(start: Game, events: Sequence[TableEvent]) -> PebblesTable:
    """Replay ``win`` {round, player} events on from ``start``."""
    winners = list(start.winners)
    for event in events:
        place = f"events[{event.seq}]"
        if event.kind != "win":
            raise Illegal([problem(place, N_("{kind} is not a change of this game"), kind=repr(event.kind))])
        content = payload(event, ("round", "player"))
        current = len(winners) if len(winners) < ROUNDS else None
        position(at(place, "round"), content["round"], current, ROUNDS_SAY, ROUNDS)
        winners.append(player(at(place, "player"), content["player"], start.players))
    return PebblesTable(game=Game(players=start.players, winners=tuple(winners)))


def step(table: PebblesTable, event: TableEvent) -> PebblesTable:
    """Return the table with one more won round: a Pebbles game holds all there is to know, so it plays on from it."""
    return fold(table.game, [event])
