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
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

import icu

from rules.games import find_game, kinds, rules_of
from rules.json_value import JSON
from rules.problems import N_, Illegal, Param, Problem, Problems, at, is_invisible, problem, quoted, quoted_key, readable

MAX_NAME_LENGTH = 40
MAX_DEPTH = 16
"""How deep a record may nest: far deeper than any record (six levels), far shallower than a stack."""
_UNNAMEABLE = frozenset({"Cc", "Cs"})
"""Character categories no name may hold: control characters and lone surrogates."""
_BLANKS = frozenset("\u2800\u3164\u115f\u1160\uffa0")
"""Characters that take a character's place and show nothing: the braille blank and the Hangul fillers."""
_SPOOF_CHECKER = icu.SpoofChecker()
"""ICU's implementation of Unicode's security mechanisms (UTS #39), for the confusables skeleton."""

T = TypeVar("T")


class Reader:
    """Collects problems while checking the shape of untrusted JSON, so all are reported at once."""

    def __init__(self) -> None:
        self.problems = Problems()

    def finish(self, read: T | None) -> T:
        """Return what was read, or raise Illegal with every problem noted on the way."""
        if self.problems or read is None:
            raise Illegal(self.problems)
        return read

    def fail(self, place: str, template: str, /, **params: Param) -> None:
        """Note a problem: a template marked with ``N_`` and the values for its placeholders."""
        self.problems.note(place, template, **params)

    def object(
        self, place: str, value: JSON | Mapping[str, JSON], *, required: tuple[str, ...], optional: tuple[str, ...] = ()
    ) -> Mapping[str, JSON] | None:
        """Return an object whose keys are all known and whose required keys are present."""
        if not isinstance(value, Mapping):
            self.fail(place or "record", N_("must be an object (got {got})"), got=json_type(value))
            return None
        for key in value:
            if key not in required and key not in optional:
                self.fail(place or "record", N_("unknown key {key}"), key=quoted_key(key))
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
        """Return a player's name, as ``name_problems`` allows it."""
        found = name_problems(place, value)
        self.problems.extend(found)
        return None if found or not isinstance(value, str) else value

    def player_ref(self, place: str, value: JSON, players: tuple[str, ...], *, nullable: bool = False) -> tuple[bool, str | None]:
        """Return (ok, name) for a reference to one of the game's players."""
        if value is None and nullable:
            return True, None
        if not isinstance(value, str):
            self.fail(place, N_("must name a player (got {got})"), got=json_type(value))
            return False, None
        if value not in players:
            self.fail(place, N_("{name} is not a player of this game"), name=quoted(value))
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
                self.fail(at(place, player), N_("{name} is not a player of this game"), name=quoted(player))
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
    """Return a value as JSON, shortened and escaped so a hostile input cannot flood a message."""
    return readable(json.dumps(value, ensure_ascii=False))


# --- Names -------------------------------------------------------------------------------


def trimmed_name(typed: str) -> str:
    """Return a typed name without the spaces at either end, as the new-game form keeps it.

    >>> trimmed_name("\u00a0 Anna  ")
    'Anna'
    """
    return typed.strip()


def _folded(text: str) -> str:
    """Return text after NFKC normalisation and case folding: "Ａnna" and "anna" both become "anna"."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def _skeleton(text: str) -> str:
    """Return Unicode's confusables skeleton of text (UTS #39, as ICU computes it): a Cyrillic "А" becomes a Latin "A"."""
    return str(_SPOOF_CHECKER.getSkeleton(0, text))


def _seen(name: str) -> str:
    """Return what of a name one can see: invisible characters dropped, each run of spaces one space."""
    return " ".join("".join(ch for ch in name if ch.isspace() or not is_invisible(ch)).split())


def _name_keys(name: str) -> tuple[str, str]:
    """Return the keys two names that count as the same share one of, looked at without their invisible characters.

    Case folding and the skeleton are taken in both orders, so that a look-alike in other
    letters (Greek "Η" is "H", but its lower case "η" looks like "n") still meets its twin.
    """
    seen = _seen(name)
    return _skeleton(_folded(seen)), _folded(_skeleton(seen))


def same_name_key(name: str) -> str:
    """Return one key for a name, to find the same player again in another game: its visible characters, folded, as a skeleton.

    Two names with equal keys count as the same name; ``same_name_as`` also catches the rarer
    look-alikes whose case folding and skeleton meet only the other way round.

    >>> same_name_key("Anna") == same_name_key("anna") == same_name_key("\uff21nna") == same_name_key("An\u200bna")
    True
    """
    return _name_keys(name)[0]


def same_name_keys(name: str) -> tuple[str, str]:
    """Return both keys of a name: two names count as the same when either of their keys is equal (``same_name_as``).

    >>> same_name_keys("Anna  Lena") == same_name_keys("anna lena")
    True
    """
    return _name_keys(name)


def same_name_as(name: str, others: Iterable[str]) -> str | None:
    """Return the first of ``others`` that counts as the same name as ``name``, or None.

    Names equal after NFKC normalisation and case folding are one name; so are names that
    Unicode's confusables skeleton makes equal, and names that differ only by invisible characters.

    >>> same_name_as("\uff41NNA", ["Ben", "Anna"]), same_name_as("\u0410nna", ["Anna"]), same_name_as("An\u200bna", ["Anna"])
    ('Anna', 'Anna', 'Anna')
    >>> same_name_as("Ana", ["Anna", "Hanna"]) is None
    True
    """
    keys = _name_keys(name)
    for other in others:
        if any(mine == theirs for mine, theirs in zip(keys, _name_keys(other))):
            return other
    return None


def is_visible(character: str) -> bool:
    """Return whether a character shows something of its own, as a name needs one to: not white space, not
    default-ignorable, not a combining mark (which shows only on another character) and not a blank.

    >>> [is_visible(ch) for ch in ("A", "\u00e9", "\u0301", "\u2800", "\u3164", "\u200b", "\U0001f600")]
    [True, True, False, False, False, False, True]
    """
    return not is_invisible(character) and not unicodedata.category(character).startswith("M") and character not in _BLANKS


def name_problems(place: str, value: JSON) -> list[Problem]:
    """Return why a value cannot be a player's name: 1–40 characters, no space at either end, no control character.

    Joiners, emoji and no-break spaces are ordinary characters; only Unicode's control
    characters and lone surrogates (categories Cc and Cs) are refused, and a name without
    a visible character (``is_visible``): spaces, joiners, combining marks and blanks alone.

    >>> name_problems("players[0]", "\U0001f468\u200d\U0001f373"), name_problems("players[0]", "Jean\u00a0Luc")
    ([], [])
    >>> [str(p) for p in name_problems("players[0]", " Anna")]
    ["players[0]: a player's name cannot begin or end with a space"]
    """
    if not isinstance(value, str):
        return [problem(place, N_("a player's name must be text (got {got})"), got=json_type(value))]
    if not trimmed_name(value):
        return [problem(place, N_("a player's name cannot be empty"))]
    if len(value) > MAX_NAME_LENGTH:
        return [
            problem(
                place,
                N_("a player's name has at most {limit} characters (got {got})"),
                limit=MAX_NAME_LENGTH,
                got=len(value),
            )
        ]
    if any(unicodedata.category(ch) in _UNNAMEABLE for ch in value):
        return [problem(place, N_("a player's name cannot contain control characters"))]
    if not any(is_visible(ch) for ch in value):
        return [problem(place, N_("a player's name needs at least one visible character"))]
    if trimmed_name(value) != value:
        return [problem(place, N_("a player's name cannot begin or end with a space"))]
    return []


def read_players(
    reader: Reader, raw: Mapping[str, JSON], most: int, count_problems: Callable[[Sequence[JSON]], list[Problem]]
) -> tuple[str, ...] | None:
    """Return the players in seating order, each name different from the others.

    More than ``most`` players are refused with the game's own ``count_problems`` before
    any name is read, so the work never grows with a hostile list.
    """
    value = raw.get("players")
    if not isinstance(value, list):
        if "players" in raw:
            reader.fail("players", N_("must be a list of names (got {got})"), got=json_type(value))
        return None
    if len(value) > most:
        reader.problems.extend(count_problems(value))
        return None
    names: list[str] = []
    ok = True
    for index, item in enumerate(value):
        name = reader.name(at("players", index), item)
        if name is None:
            ok = False
            continue
        earlier = same_name_as(name, names)
        if earlier is None:
            names.append(name)
            continue
        ok = False
        if earlier == name:
            reader.fail(at("players", index), N_("{name} is already a player; names are unique within a game"), name=quoted(name))
        else:
            reader.fail(
                at("players", index),
                N_("{name} counts as the same name as {other}; names are unique within a game"),
                name=quoted(name),
                other=quoted(earlier),
            )
    return tuple(names) if ok else None


def parse(raw: JSON) -> object:
    """Return the game a decoded record describes, or raise Illegal with every problem.

    The game's own ``Game`` comes back (``rules_of`` tells which game it is).

    >>> parse({"game": "auruxxx", "players": ["Anna", "Ben"]}).house_rules.rounding.value
    'exact'
    >>> parse({"game": "chess", "players": []})
    Traceback (most recent call last):
    ...
    rules.problems.Illegal: game: must be one of "auruxxx", "12days", "plain" (got "chess")
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


class _Repeated(dict[str, JSON]):
    """A decoded JSON object in which some key was given twice; the record refuses it.

    It keeps every pair as written, so what a repeated key's later value replaced is looked at too.
    """

    def __init__(self, pairs: list[tuple[str, JSON]], repeated: list[str]) -> None:
        super().__init__(pairs)
        self.pairs = pairs
        self.repeated = repeated


class _NotANumber:
    """Where a text said ``NaN``, ``Infinity`` or ``-Infinity``: Python's JSON reads them, strict JSON has no such number."""

    def __init__(self, written: str) -> None:
        self.written = written


class _Decoding:
    """The hooks one JSON text is decoded with: they mark what strict, unambiguous JSON refuses, and note that they did."""

    def __init__(self) -> None:
        self.marked = False

    def object(self, pairs: list[tuple[str, JSON]]) -> dict[str, JSON]:
        """Return a decoded JSON object, marked when a key is given twice (plain JSON keeps the last silently)."""
        decoded = dict(pairs)
        if len(decoded) == len(pairs):
            return decoded
        self.marked = True
        seen: set[str] = set()
        repeated: dict[str, None] = {}
        for key, _ in pairs:
            if key in seen:
                repeated[key] = None
            seen.add(key)
        return _Repeated(pairs, list(repeated))

    def constant(self, written: str) -> _NotANumber:
        """Return a mark where the text holds ``NaN``, ``Infinity`` or ``-Infinity``."""
        self.marked = True
        return _NotANumber(written)


def _too_deep() -> Problem:
    """Return the problem of a record nested deeper than any record can be."""
    return problem("record", N_("is nested more than {limit} levels deep"), limit=MAX_DEPTH)


def _nested_too_deep(raw: JSON) -> bool:
    """Return whether a decoded value nests lists and objects deeper than ``MAX_DEPTH``, looking at each value once."""
    level: list[dict[str, JSON] | list[JSON]] = [raw] if isinstance(raw, (dict, list)) else []
    for _ in range(MAX_DEPTH):
        level = [
            inner for outer in level for inner in (outer.values() if isinstance(outer, dict) else outer) if isinstance(inner, (dict, list))
        ]
        if not level:
            return False
    return True


def _marked_problems(raw: JSON) -> Problems:
    """Return every key given twice in one object and every number strict JSON does not have, each at its place."""
    found = Problems()
    stack: list[tuple[str, str | int | None, JSON | _NotANumber]] = [("", None, raw)]
    while stack:
        outer, key, value = stack.pop()
        if not isinstance(value, (dict, list, _NotANumber)):
            continue
        place = outer if key is None else at(outer, key)
        if isinstance(value, _NotANumber):
            found.note(place or "record", N_("{number} is not a JSON number"), number=value.written)
            continue
        if isinstance(value, _Repeated):
            for repeated in value.repeated:
                found.note(at(place, repeated), N_("is given twice in one object"))
            stack += [(place, inner_key, item) for inner_key, item in reversed(value.pairs)]
        elif isinstance(value, dict):
            stack += [(place, inner_key, item) for inner_key, item in reversed(value.items())]
        else:
            stack += [(place, index, item) for index, item in reversed(list(enumerate(value)))]
    return found


def decode(text: str | bytes) -> JSON:
    """Return a JSON text decoded strictly, or raise Illegal: broken JSON, a key given twice, ``NaN`` or an infinity, deep nesting.

    Every record, a game's or an evening's, is decoded here, so each refuses the same texts with the same messages.

    >>> decode('{"a": {"b": 1, "b": 2}}')
    Traceback (most recent call last):
    ...
    rules.problems.Illegal: a.b: is given twice in one object
    >>> decode('{"x": NaN, "x": 1}')
    Traceback (most recent call last):
    ...
    rules.problems.Illegal: x: is given twice in one object
    x: NaN is not a JSON number
    """
    decoding = _Decoding()
    try:
        raw = json.loads(text, object_pairs_hook=decoding.object, parse_constant=decoding.constant)
    except RecursionError:
        raise Illegal([_too_deep()]) from None
    except ValueError as error:
        raise Illegal([problem("record", N_("is not valid JSON ({error})"), error=str(error))]) from None
    if _nested_too_deep(raw):
        raise Illegal([_too_deep()])
    if decoding.marked:
        raise Illegal(_marked_problems(raw))
    decoded: JSON = raw
    return decoded


def loads(text: str | bytes) -> object:
    """Return the game a JSON text describes, or raise Illegal (broken or non-strict JSON, a key given twice, deep nesting).

    >>> loads('{"game": "auruxxx", "game": "auruxxx", "players": ["A", "B"]}')
    Traceback (most recent call last):
    ...
    rules.problems.Illegal: game: is given twice in one object
    >>> loads('{"game": "auruxxx", "players": ["A", "B"], "result": NaN}')
    Traceback (most recent call last):
    ...
    rules.problems.Illegal: result: NaN is not a JSON number
    """
    return parse(decode(text))


def serialise(game: object) -> dict[str, JSON]:
    """Return the normalised record of a game, without a result."""
    return rules_of(game).serialise(game)


def setup(game: object) -> dict[str, JSON]:
    """Return the part of a game's record that sets it up: the game, its players and options, no play.

    >>> setup(parse({"game": "12days", "players": ["A", "B", "C"], "days": [{"taken_by": "A"}]}))
    {'game': '12days', 'variant': 'standard', 'players': ['A', 'B', 'C']}
    """
    keys = ("game", "players", *rules_of(game).setup_keys)
    return {key: value for key, value in serialise(game).items() if key in keys}


def player_names(setup: Mapping[str, JSON]) -> tuple[str, ...]:
    """Return the players of a setup the rules have read, in seating order; anything else is a caller's mistake.

    >>> player_names(setup(parse({"game": "auruxxx", "players": ["Anna", "Ben"]})))
    ('Anna', 'Ben')
    """
    players = setup.get("players")
    if not isinstance(players, list):
        raise ValueError("players: not a setup the rules have read")
    names = tuple(name for name in players if isinstance(name, str))
    if not names or len(names) != len(players):
        raise ValueError("players: not a setup the rules have read")
    return names


def scored(game: object) -> dict[str, JSON]:
    """Return the normalised record with its ``result``, as export and ``score`` print it."""
    written = serialise(game)
    written["result"] = rules_of(game).result(game)
    return written


def dumps(record: Mapping[str, JSON]) -> str:
    """Return a record as JSON text, readable and with names in their own letters."""
    return json.dumps(record, ensure_ascii=False, indent=2) + "\n"
