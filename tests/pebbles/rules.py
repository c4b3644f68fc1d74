"""The rules of Pebbles: whoever wins a round takes a pebble; stones left in hand count too; most wins.

One module plays the part of a game's package under ``rules/``: its score, its part of the
record, its fold, and ``PEBBLES``, its entry in the registry (``rules.games.GameRules``).
A table chooses how many rounds it plays (its one option); a finished round can be corrected;
each player's stones in hand are entered once, and changed, on a keypad.

    {"game": "pebbles", "players": ["Anna", "Ben"], "length": 2, "rounds": [{"winner": "Ben"}], "hands": {"Anna": 3}}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from rules.games import Change, GameRules, TableEvent
from rules.history import Stages, finished, payload, player, position
from rules.json_value import JSON
from rules.problems import N_, Illegal, Problem, at, problem
from rules.record import Reader, json_type, read_players

KIND = "pebbles"
TITLE = "Pebbles"
SETUP_KEYS: tuple[str, ...] = ("length",)
LENGTHS = (2, 3)
"""How many rounds a table may choose to play; the first is the default."""
MAX_STONES = 9
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
    """The players, how many rounds they play, who won each finished round, and the stones in hand entered so far."""

    players: tuple[str, ...]
    length: int = LENGTHS[0]
    winners: tuple[str, ...] = ()
    hands: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class PebblesTable:
    """A Pebbles game as its events add up; the round being played is the next one."""

    game: Game


def pebbles(game: Game) -> dict[str, int]:
    """Return every player's points: a pebble per round won, and the stones left in hand.

    >>> pebbles(Game(players=("A", "B"), winners=("B", "B"), hands={"A": 3}))
    {'A': 3, 'B': 2}
    """
    return {p: game.winners.count(p) + game.hands.get(p, 0) for p in game.players}


def stones_problems(place: str, stones: JSON) -> list[Problem]:
    """Return why a number of stones in hand is impossible: a whole number from 0 to 9."""
    if isinstance(stones, bool) or not isinstance(stones, int) or not 0 <= stones <= MAX_STONES:
        return [problem(place, N_("a hand holds 0 to {most} stones"), most=MAX_STONES)]
    return []


def parse(raw: Mapping[str, JSON]) -> Game:
    """Return the game a Pebbles record describes, or raise Illegal."""
    reader = Reader()
    reader.object("", raw, required=("game", "players"), optional=("length", "rounds", "hands", "result"))
    players = read_players(reader, raw, MAX_PLAYERS, player_count_problems)
    length = reader.choice("length", raw.get("length", LENGTHS[0]), LENGTHS)
    rounds = raw.get("rounds", [])
    if not isinstance(rounds, list):
        reader.fail("rounds", N_("must be a list of rounds (got {got})"), got=json_type(rounds))
        return reader.finish(None)
    if players is None or length is None:
        return reader.finish(None)
    winners = [read_round(reader, at("rounds", index), value, players) for index, value in enumerate(rounds)]
    hands = reader.mapping("hands", raw.get("hands", {}), players, lambda place, value: _stones(reader, place, value))
    game = Game(players=players, length=length, winners=tuple(w for w in winners if w is not None), hands=hands or {})
    return reader.finish(game)


def _stones(reader: Reader, place: str, value: JSON) -> int | None:
    """Return a number of stones in hand, noting why it cannot be one."""
    found = stones_problems(place, value)
    reader.problems.extend(found)
    return None if found or not isinstance(value, int) else value


def read_round(reader: Reader, place: str, value: JSON, players: tuple[str, ...]) -> str | None:
    """Return the winner of a round as a record writes it: ``{"winner": name}``."""
    round_ = reader.object(place, value, required=("winner",))
    if round_ is None or "winner" not in round_:
        return None
    _, winner = reader.player_ref(at(place, "winner"), round_["winner"], players)
    return winner


def serialise(game: Game) -> dict[str, JSON]:
    """Return the normalised record of a game."""
    written: dict[str, JSON] = {
        "game": KIND,
        "players": list(game.players),
        "length": game.length,
        "rounds": [{"winner": w} for w in game.winners],
    }
    if game.hands:
        written["hands"] = dict(game.hands)
    return written


def result(game: Game) -> dict[str, JSON]:
    """Return the pebbles per round, the points in total, and who has the most."""
    totals = pebbles(game)
    best = max(totals.values())
    return {
        "rounds": [{p: int(p == w) for p in game.players} for w in game.winners],
        "totals": dict(totals),
        "winners": [p for p in game.players if totals[p] == best],
        "complete": len(game.winners) == game.length,
    }


def player_count_problems(players: Sequence[JSON]) -> list[Problem]:
    """Return a problem unless 2–4 players sit at the table."""
    if MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        return []
    return [
        problem(
            "players",
            N_("{variant} is played by {min} to {max} players (got {got})"),
            variant=TITLE,
            min=MIN_PLAYERS,
            max=MAX_PLAYERS,
            got=len(players),
        )
    ]


def problems(game: Game) -> list[Problem]:
    """Return what makes a game impossible: the number of players and of rounds."""
    found = player_count_problems(game.players)
    if len(game.winners) > game.length:
        found.append(problem("rounds", N_("a game has {rounds} rounds (got {got})"), rounds=game.length, got=len(game.winners)))
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
    """Replay ``win`` {round, player}, ``hand`` {player, stones} and ``correct_round`` {round, record} events on from ``start``."""
    winners, hands = list(start.winners), dict(start.hands)
    for event in events:
        place = f"events[{event.seq}]"
        if event.kind == "hand":
            content = payload(event, ("player", "stones"))
            who = player(at(place, "player"), content["player"], start.players)
            stones = content["stones"]
            found = stones_problems(at("hands", who), stones)
            if found or not isinstance(stones, int):
                raise Illegal(found)
            hands[who] = stones
        elif event.kind == "correct_round":
            content = payload(event, ("round", "record"))
            index = finished(at(place, "round"), content["round"], len(winners), ROUNDS_SAY)
            reader = Reader()
            winner = reader.finish(read_round(reader, at("rounds", index), content["record"], start.players))
            winners[index] = winner
        elif event.kind == "win":
            content = payload(event, ("round", "player"))
            current = len(winners) if len(winners) < start.length else None
            position(at(place, "round"), content["round"], current, ROUNDS_SAY, start.length)
            winners.append(player(at(place, "player"), content["player"], start.players))
        else:
            raise Illegal([problem(place, N_("{kind} is not a change of this game"), kind=repr(event.kind))])
    return PebblesTable(game=replace(start, winners=tuple(winners), hands=hands))


def step(table: PebblesTable, event: TableEvent) -> PebblesTable | None:
    """Return the table with one more won round or hand: a Pebbles game holds all there is to know, so it plays on from it.

    A correction changes a finished round, which only the whole fold can tell.
    """
    return None if event.kind == "correct_round" else fold(table.game, [event])


PEBBLES: GameRules[Game, PebblesTable] = GameRules(
    kind=KIND,
    title=TITLE,
    setup_keys=SETUP_KEYS,
    game_type=Game,
    table_type=PebblesTable,
    parse=parse,
    serialise=serialise,
    result=result,
    problems=problems,
    first_player=first_player,
    stages=stages,
    split_open=split_open,
    fold=fold,
    step=step,
)
"""Pebbles, as the registry knows it."""
