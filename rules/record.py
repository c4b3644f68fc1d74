"""The game record: the one JSON document a game is exported as, imported from and scored.

``parse`` turns untrusted JSON into a typed game, refusing the whole record with every
problem it finds; ``serialise`` writes a game back in its normalised form (defaults filled
in), and ``scored`` adds the ``result`` computed by the rules. A record's own ``result`` is
never trusted: it is recomputed.

This module holds what every game's record shares: the top level naming the game, checking
the shape of untrusted JSON (``Reader``), the players, and JSON text in and out. The rest of
a record is read and written by its game (``rules/<game>/record.py``), found in the registry.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TypeVar

from rules.games import JSON, find_game, kinds, rules_of
from rules.problems import N_, Illegal, Param, Problem, at, problem

MAX_NAME_LENGTH = 40

T = TypeVar("T")


class Reader:
    """Collects problems while checking the shape of untrusted JSON, so all are reported at once."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def finish(self, read: T | None) -> T:
        """Return what was read, or raise Illegal with every problem noted on the way."""
        if self.problems or read is None:
            raise Illegal(self.problems)
        return read

    def fail(self, place: str, template: str, /, **params: Param) -> None:
        """Note a problem: a template marked with ``N_`` and the values for its placeholders."""
        self.problems.append(problem(place, template, **params))

    def object(self, place: str, value: JSON, *, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, JSON] | None:
        """Return an object whose keys are all known and whose required keys are present."""
        if not isinstance(value, dict):
            self.fail(place or "record", N_("must be an object (got {got})"), got=json_type(value))
            return None
        for key in value:
            if key not in required and key not in optional:
                self.fail(at(place, key), N_("unknown key"))
        for key in required:
            if key not in value:
                self.fail(at(place, key), N_("is required"))
        return value

    def integer(self, place: str, value: JSON) -> int | None:
        """Return a whole number (true and false are not numbers here)."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(place, N_("must be a whole number (got {got})"), got=json_type(value))
            return None
        return value

    def choice(self, place: str, value: JSON, choices: tuple[T, ...]) -> T | None:
        """Return one of the allowed values."""
        for option in choices:
            if type(value) is type(option) and value == option:
                return option
        self.fail(
            place,
            N_("must be one of {choices} (got {got})"),
            choices=", ".join(json.dumps(c) for c in choices),
            got=shorten(value),
        )
        return None

    def name(self, place: str, value: JSON) -> str | None:
        """Return a player's name: 1–40 characters of text."""
        if not isinstance(value, str):
            self.fail(place, N_("a player's name must be text (got {got})"), got=json_type(value))
            return None
        if not value.strip():
            self.fail(place, N_("a player's name cannot be empty"))
            return None
        if len(value) > MAX_NAME_LENGTH:
            self.fail(
                place,
                N_("a player's name has at most {limit} characters (got {got})"),
                limit=MAX_NAME_LENGTH,
                got=len(value),
            )
            return None
        if any(not ch.isprintable() for ch in value):
            self.fail(place, N_("a player's name cannot contain control characters"))
            return None
        return value

    def player_ref(self, place: str, value: JSON, players: tuple[str, ...], *, nullable: bool = False) -> tuple[bool, str | None]:
        """Return (ok, name) for a reference to one of the game's players."""
        if value is None and nullable:
            return True, None
        if not isinstance(value, str):
            self.fail(place, N_("must name a player (got {got})"), got=json_type(value))
            return False, None
        if value not in players:
            self.fail(place, N_("{name} is not a player of this game"), name=repr(value))
            return False, None
        return True, value

    def mapping(self, place: str, value: JSON, players: tuple[str, ...], read: Callable[[str, JSON], T | None]) -> dict[str, T] | None:
        """Return an object keyed by player names, each value read by ``read``."""
        if not isinstance(value, dict):
            self.fail(place, N_("must be an object keyed by player names (got {got})"), got=json_type(value))
            return None
        result: dict[str, T] = {}
        for player, item in value.items():
            if player not in players:
                self.fail(at(place, player), N_("{name} is not a player of this game"), name=repr(player))
                continue
            parsed = read(at(place, player), item)
            if parsed is not None:
                result[player] = parsed
        return result


def json_type(value: JSON) -> str:
    """Return the JSON name of a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {shorten(value)}"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    return "an object"


def shorten(value: JSON) -> str:
    """Return a value as JSON, shortened so a hostile input cannot flood a message."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def read_players(reader: Reader, raw: Mapping[str, JSON]) -> tuple[str, ...] | None:
    """Return the players in seating order, unique names."""
    value = raw.get("players")
    if not isinstance(value, list):
        if "players" in raw:
            reader.fail("players", N_("must be a list of names (got {got})"), got=json_type(value))
        return None
    names: list[str] = []
    ok = True
    for index, item in enumerate(value):
        name = reader.name(at("players", index), item)
        if name is None:
            ok = False
        elif name in names:
            reader.fail(
                at("players", index), N_("{name} is already a player; names are unique within a game"), name=repr(name)
            )
            ok = False
        else:
            names.append(name)
    return tuple(names) if ok else None


def parse(raw: JSON) -> object:
    """Return the game a decoded record describes, or raise Illegal with every problem.

    The game's own ``Game`` comes back (``rules_of`` tells which game it is).

    >>> parse({"game": "auruxxx", "players": ["Anna", "Ben"]}).house_rules.rounding.value
    'exact'
    >>> parse({"game": "chess", "players": []})
    Traceback (most recent call last):
    ...
    rules.problems.Illegal: game: must be one of "auruxxx", "12days" (got "chess")
    """
    reader = Reader()
    if not isinstance(raw, dict):
        reader.fail("record", N_("must be an object (got {got})"), got=json_type(raw))
        raise Illegal(reader.problems)
    if "game" not in raw:
        reader.fail("game", N_("is required"))
        raise Illegal(reader.problems)
    kind = reader.finish(reader.choice("game", raw["game"], kinds()))
    rules = find_game(kind)
    game = rules.parse(raw)
    found = rules.problems(game)
    if found:
        raise Illegal(found)
    return game


def loads(text: str | bytes) -> object:
    """Return the game a JSON text describes, or raise Illegal (broken JSON included)."""
    try:
        raw = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise Illegal([problem("record", N_("is not valid JSON ({error})"), error=str(error))]) from None
    return parse(raw)


def serialise(game: object) -> dict[str, JSON]:
    """Return the normalised record of a game, without a result."""
    return rules_of(game).serialise(game)


def setup(game: object) -> dict[str, JSON]:
    """Return the part of a game's record that sets it up: the game, its players and options, no play.

    >>> setup(parse({"game": "12days", "players": ["A", "B", "C"], "days": [{"taken_by": "A"}]}))
    {'game': '12days', 'variant': 'standard', 'players': ['A', 'B', 'C']}
    """
    keys = ("game", "players", *rules_of(game).SETUP_KEYS)
    return {key: value for key, value in serialise(game).items() if key in keys}


def scored(game: object) -> dict[str, JSON]:
    """Return the normalised record with its ``result``, as export and ``score`` print it."""
    written = serialise(game)
    written["result"] = rules_of(game).result(game)
    return written


def dumps(record: Mapping[str, JSON]) -> str:
    """Return a record as JSON text, readable and with names in their own letters."""
    return json.dumps(record, ensure_ascii=False, indent=2) + "\n"
