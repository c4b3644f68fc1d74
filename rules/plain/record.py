"""The plain sheet's part of the game record: its name, who wins, its end rule and its rounds, read from JSON and written back.

The shared top level (the game, the players) and the ``Reader`` that collects every problem come
from ``rules.record``; this module knows what a plain sheet adds:

    {"game": "plain", "name": "Wizard", "players": ["Anna", "Ben"], "wins": "highest", "end": {"rounds": 10},
     "rounds": [{"points": {"Anna": 20, "Ben": -10}}], "open_round": {"points": {"Anna": 5}}}
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from rules.json_value import JSON
from rules.plain.score import (
    HIGHEST,
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_TARGET,
    WINS,
    End,
    Game,
    best,
    is_over,
    player_count_problems,
    points_problems,
    totals,
)
from rules.problems import N_, Problem, at, problem
from rules.record import Reader, is_visible, json_type, read_players, trimmed_name

KIND = "plain"
SETUP_KEYS = ("name", "wins", "end")
_UNNAMEABLE = frozenset({"Cc", "Cs"})
"""Character categories the game's name may not hold, as a player's may not: control characters and lone surrogates."""


def game_name_problems(place: str, value: JSON) -> list[Problem]:
    """Return why a value cannot name the game: 1–60 characters, by the rules of a player's name.

    >>> game_name_problems("name", "Wizard"), [str(p) for p in game_name_problems("name", " Wizard")]
    ([], ["name: the game's name cannot begin or end with a space"])
    """
    if not isinstance(value, str):
        return [problem(place, N_("the game's name must be text (got {got})"), got=json_type(value))]
    if not trimmed_name(value):
        return [problem(place, N_("the game's name cannot be empty"))]
    if len(value) > MAX_NAME_LENGTH:
        return [problem(place, N_("the game's name has at most {limit} characters (got {got})"), limit=MAX_NAME_LENGTH, got=len(value))]
    if any(unicodedata.category(ch) in _UNNAMEABLE for ch in value):
        return [problem(place, N_("the game's name cannot contain control characters"))]
    if not any(is_visible(ch) for ch in value):
        return [problem(place, N_("the game's name needs at least one visible character"))]
    if trimmed_name(value) != value:
        return [problem(place, N_("the game's name cannot begin or end with a space"))]
    return []


def _read_end(reader: Reader, value: JSON) -> tuple[bool, End | None]:
    """Return (ok, end rule) as a record writes it: ``{"rounds": N}`` or ``{"target": T}``."""
    raw = reader.object("end", value, required=(), optional=("rounds", "target"))
    if raw is None:
        return False, None
    if not set(raw) <= {"rounds", "target"}:
        return False, None
    if len(raw) != 1:
        reader.fail("end", N_('an end rule names either "rounds" or "target", one of them'))
        return False, None
    key, number = next(iter(raw.items()))
    most = MAX_ROUNDS if key == "rounds" else MAX_TARGET
    counted = reader.integer(f"end.{key}", number)
    if counted is None:
        return False, None
    if not 1 <= counted <= most:
        reader.fail(f"end.{key}", N_("must be from 1 to {most} (got {got})"), most=most, got=counted)
        return False, None
    return True, End(rounds=counted) if key == "rounds" else End(target=counted)


def read_points(reader: Reader, place: str, value: JSON, players: tuple[str, ...], *, every: bool) -> dict[str, int] | None:
    """Return a round's numbers as a record writes it, ``{"points": {name: n}}``: every player's (``every``), or those entered so far."""
    raw = reader.object(place, value, required=("points",))
    if raw is None or "points" not in raw:
        return None
    points_place = f"{place}.points"
    before = len(reader.problems.listed())

    def number(cell: str, item: JSON) -> int | None:
        found = points_problems(cell, item)
        reader.problems.extend(found)
        return None if found or not isinstance(item, int) else item

    read = reader.mapping(points_place, raw["points"], players, number)
    if read is None:
        return None
    given = raw["points"] if isinstance(raw["points"], dict) else {}
    if every:
        for player in players:
            if player not in given:
                reader.fail(at(points_place, player), N_("is missing: every player has a number in a closed round"))
    elif len(read) == len(players) and players:
        reader.fail(points_place, N_("every player has a number here, so this round is closed and belongs in rounds"))
    return read if len(reader.problems.listed()) == before else None


def parse(raw: Mapping[str, JSON]) -> Game:
    """Return the game a plain sheet's record describes, or raise Illegal with every problem of its shape."""
    reader = Reader()
    reader.object(
        "",
        raw,
        required=("game", "name", "players"),
        optional=("wins", "end", "rounds", "open_round", "finished", "result"),
    )
    name = raw.get("name")
    name_found = game_name_problems("name", name) if "name" in raw else []
    reader.problems.extend(name_found)
    players = read_players(reader, raw, MAX_PLAYERS, player_count_problems)
    if players is not None:
        reader.problems.extend(player_count_problems(list(players)))
    wins = reader.choice("wins", raw.get("wins", HIGHEST), WINS)
    end_ok, end = _read_end(reader, raw["end"]) if "end" in raw else (True, None)
    finished = raw.get("finished", False)
    if not isinstance(finished, bool):
        reader.fail("finished", N_("must be true or false (got {got})"), got=json_type(finished))
    elif "finished" in raw and end is not None:
        reader.fail("finished", N_("a game with an end rule is finished by that rule, not by this key"))
    rounds = raw.get("rounds", [])
    if not isinstance(rounds, list):
        reader.fail("rounds", N_("must be a list of rounds (got {got})"), got=json_type(rounds))
        return reader.finish(None)
    if len(rounds) > MAX_ROUNDS:
        reader.fail("rounds", N_("a plain sheet holds at most {most} rounds (got {got})"), most=MAX_ROUNDS, got=len(rounds))
        return reader.finish(None)
    if players is None or not isinstance(name, str) or name_found or wins is None or not end_ok:
        return reader.finish(None)
    read = [read_points(reader, f"rounds[{index}]", value, players, every=True) for index, value in enumerate(rounds)]
    open_round = read_points(reader, "open_round", raw["open_round"], players, every=False) if "open_round" in raw else {}
    closed = tuple(points for points in read if points is not None)
    if open_round is None or len(closed) != len(read):
        return reader.finish(None)
    game = Game(
        name=name,
        players=players,
        wins=wins,
        end=end,
        rounds=closed,
        open_round=open_round,
        finished=finished is True,
    )
    return reader.finish(game)


def serialise(game: Game) -> dict[str, JSON]:
    """Return the normalised record of a plain sheet: ``finished`` is written for an open-ended game only, ``open_round`` while one is."""
    written: dict[str, JSON] = {"game": KIND, "name": game.name, "players": list(game.players), "wins": game.wins}
    if game.end is not None:
        written["end"] = {"rounds": game.end.rounds} if game.end.rounds is not None else {"target": game.end.target}
    written["rounds"] = [{"points": dict(round_)} for round_ in game.rounds]
    if game.open_round:
        written["open_round"] = {"points": dict(game.open_round)}
    if game.end is None:
        written["finished"] = game.finished
    return written


def result(game: Game) -> dict[str, JSON]:
    """Return each round's points, the totals, the winners (the leaders while it runs) and whether the game is over."""
    summed = totals(game.rounds, game.players)
    return {
        "rounds": [dict(round_) for round_ in game.rounds],
        "totals": dict(summed),
        "winners": list[JSON](best(summed, game.wins)),
        "complete": is_over(game),
    }


def read_round(value: JSON, players: tuple[str, ...], place: str) -> dict[str, int]:
    """Return a closed round as a correction writes it, ``{"points": {...}}``, or raise Illegal naming the place."""
    reader = Reader()
    return reader.finish(read_points(reader, place, value, players, every=True))
