"""The game record: the one JSON document a game is exported as, imported from and scored.

``parse`` turns untrusted JSON into a typed game, refusing the whole record with every
problem it finds; ``serialise`` writes a game back in its normalised form (defaults filled
in), and ``scored`` adds the ``result`` computed by the rules. A record's own ``result`` is
never trusted: it is recomputed.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from rules import auruxxx, twelve_days
from rules.points import to_json_number
from rules.problems import N_, Illegal, Param, Problem, at, problem, quoted, readable

AURUXXX = "auruxxx"
TWELVE_DAYS = "12days"
GAMES = (AURUXXX, TWELVE_DAYS)
MAX_NAME_LENGTH = 40
MAX_DEPTH = 16
"""How deep a record may nest: far deeper than any record (six levels), far shallower than a stack."""
_UNNAMEABLE = frozenset({"Cc", "Cs"})
"""Character categories no name may hold: control characters and lone surrogates."""

Record = auruxxx.Game | twelve_days.Game
JSON = Any
"""A value decoded from JSON: dict, list, str, int, float, bool or None."""

T = TypeVar("T")


class _Reader:
    """Collects problems while checking the shape of untrusted JSON, so all are reported at once."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def fail(self, place: str, template: str, /, **params: Param) -> None:
        """Note a problem: a template marked with ``N_`` and the values for its placeholders."""
        self.problems.append(problem(place, template, **params))

    def object(self, place: str, value: JSON, *, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, JSON] | None:
        """Return an object whose keys are all known and whose required keys are present."""
        if not isinstance(value, dict):
            self.fail(place or "record", N_("must be an object (got {got})"), got=_kind(value))
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
            self.fail(place, N_("must be a whole number (got {got})"), got=_kind(value))
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
        self.problems += found
        return None if found or not isinstance(value, str) else value

    def player_ref(self, place: str, value: JSON, players: tuple[str, ...], *, nullable: bool = False) -> tuple[bool, str | None]:
        """Return (ok, name) for a reference to one of the game's players."""
        if value is None and nullable:
            return True, None
        if not isinstance(value, str):
            self.fail(place, N_("must name a player (got {got})"), got=_kind(value))
            return False, None
        if value not in players:
            self.fail(place, N_("{name} is not a player of this game"), name=quoted(value))
            return False, None
        return True, value

    def mapping(self, place: str, value: JSON, players: tuple[str, ...], read: Callable[[str, JSON], T | None]) -> dict[str, T] | None:
        """Return an object keyed by player names, each value read by ``read``."""
        if not isinstance(value, dict):
            self.fail(place, N_("must be an object keyed by player names (got {got})"), got=_kind(value))
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


def _kind(value: JSON) -> str:
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


def same_name_key(name: str) -> str:
    """Return what decides whether two names are the same name: NFKC normalisation and case folding.

    >>> same_name_key("Anna") == same_name_key("anna") == same_name_key("\uff21nna")
    True
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def name_problems(place: str, value: JSON) -> list[Problem]:
    """Return why a value cannot be a player's name: 1–40 characters, no space at either end, no control character.

    Joiners, emoji and no-break spaces are ordinary characters; only Unicode's control
    characters and lone surrogates (categories Cc and Cs) are refused.

    >>> name_problems("players[0]", "\U0001f468\u200d\U0001f373"), name_problems("players[0]", "Jean\u00a0Luc")
    ([], [])
    >>> [str(p) for p in name_problems("players[0]", " Anna")]
    ["players[0]: a player's name cannot begin or end with a space"]
    """
    if not isinstance(value, str):
        return [problem(place, N_("a player's name must be text (got {got})"), got=_kind(value))]
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
    if trimmed_name(value) != value:
        return [problem(place, N_("a player's name cannot begin or end with a space"))]
    return []


def _players(
    reader: _Reader, raw: dict[str, JSON], most: int, count_problems: Callable[[Sequence[JSON]], list[Problem]]
) -> tuple[str, ...] | None:
    """Return the players in seating order, each name different from the others.

    More than ``most`` players are refused with the game's own ``count_problems`` before
    any name is read, so the work never grows with a hostile list.
    """
    value = raw.get("players")
    if not isinstance(value, list):
        if "players" in raw:
            reader.fail("players", N_("must be a list of names (got {got})"), got=_kind(value))
        return None
    if len(value) > most:
        reader.problems += count_problems(value)
        return None
    names: list[str] = []
    seated: dict[str, str] = {}
    ok = True
    for index, item in enumerate(value):
        name = reader.name(at("players", index), item)
        if name is None:
            ok = False
            continue
        key = same_name_key(name)
        earlier = seated.get(key)
        if earlier is None:
            seated[key] = name
            names.append(name)
            continue
        ok = False
        if earlier == name:
            reader.fail(
                at("players", index), N_("{name} is already a player; names are unique within a game"), name=quoted(name)
            )
        else:
            reader.fail(
                at("players", index),
                N_("{name} counts as the same name as {other}; names are unique within a game"),
                name=quoted(name),
                other=quoted(earlier),
            )
    return tuple(names) if ok else None


# --- AURUXXX -----------------------------------------------------------------------------

_HOUSE_RULE_KEYS = ("golden12_in_hand", "two_in_hand", "halving", "rounding")
_CARD_KEYS = ("numbers", "fifty", "action", "happy_man", "two", "golden12")


def _auruxxx_house_rules(reader: _Reader, value: JSON) -> auruxxx.HouseRules | None:
    """Return the house rules, defaults for any left out."""
    raw = reader.object("house_rules", value, required=(), optional=_HOUSE_RULE_KEYS)
    if raw is None:
        return None
    defaults = auruxxx.HouseRules()
    golden12 = reader.choice("house_rules.golden12_in_hand", raw.get("golden12_in_hand", defaults.golden12_in_hand), auruxxx.GOLDEN12_IN_HAND_CHOICES)
    two = reader.choice("house_rules.two_in_hand", raw.get("two_in_hand", defaults.two_in_hand), auruxxx.TWO_IN_HAND_CHOICES)
    halving = reader.choice("house_rules.halving", raw.get("halving", defaults.halving.value), tuple(h.value for h in auruxxx.Halving))
    rounding = reader.choice("house_rules.rounding", raw.get("rounding", defaults.rounding.value), tuple(r.value for r in auruxxx.Rounding))
    if golden12 is None or two is None or halving is None or rounding is None:
        return None
    return auruxxx.HouseRules(
        golden12_in_hand=golden12, two_in_hand=two, halving=auruxxx.Halving(halving), rounding=auruxxx.Rounding(rounding)
    )


def read_auruxxx_hand(reader: _Reader, place: str, value: JSON) -> auruxxx.Hand | None:
    """Return a hand: either its cards or the counted total."""
    if isinstance(value, dict) and "points" in value:
        raw = reader.object(place, value, required=("points",))
        if raw is None or len(raw) != 1:
            return None
        points = reader.integer(at(place, "points"), raw["points"])
        return None if points is None else auruxxx.CountedHand(points)
    raw = reader.object(place, value, required=(), optional=_CARD_KEYS)
    if raw is None:
        return None
    numbers_raw = raw.get("numbers", [])
    numbers: list[int] = []
    ok = True
    if not isinstance(numbers_raw, list):
        reader.fail(at(place, "numbers"), N_("must be a list of card numbers (got {got})"), got=_kind(numbers_raw))
        ok = False
    else:
        for index, item in enumerate(numbers_raw):
            number = reader.integer(at(at(place, "numbers"), index), item)
            if number is None:
                ok = False
            else:
                numbers.append(number)
    counts: dict[str, int] = {}
    for key in _CARD_KEYS[1:]:
        count = reader.integer(at(place, key), raw.get(key, 0))
        if count is None:
            ok = False
        else:
            counts[key] = count
    if not ok:
        return None
    return auruxxx.Cards(numbers=tuple(numbers), **counts)


def _auruxxx_round(reader: _Reader, place: str, value: JSON, players: tuple[str, ...]) -> auruxxx.Round | None:
    """Return one finished round."""
    raw = reader.object(place, value, required=("finisher", "golden12", "happy_man"), optional=("passes", "hands"))
    if raw is None or any(key not in raw for key in ("finisher", "golden12", "happy_man")):
        return None
    ok_finisher, finisher = reader.player_ref(at(place, "finisher"), raw["finisher"], players)
    golden12 = reader.integer(at(place, "golden12"), raw["golden12"])
    ok_holder, holder = reader.player_ref(at(place, "happy_man"), raw["happy_man"], players, nullable=True)
    passes = reader.mapping(at(place, "passes"), raw.get("passes", {}), players, reader.integer)
    def read_hand(hand_place: str, hand: JSON) -> auruxxx.Hand | None:
        return read_auruxxx_hand(reader, hand_place, hand)

    hands: dict[str, auruxxx.Hand] | None = reader.mapping(at(place, "hands"), raw.get("hands", {}), players, read_hand)
    if not (ok_finisher and ok_holder) or finisher is None or golden12 is None or passes is None or hands is None:
        return None
    return auruxxx.Round(finisher=finisher, golden12=golden12, happy_man=holder, passes=passes, hands=hands)


def _auruxxx_open_round(
    reader: _Reader, value: JSON, players: tuple[str, ...], holder_before: str | None
) -> auruxxx.RoundInProgress | None:
    """Return what was tapped of the round being played; every key is optional, and null means not known yet."""
    place = "open_round"
    raw = reader.object(place, value, required=(), optional=("finisher", "golden12", "happy_man", "passes", "hands"))
    if raw is None:
        return None
    ok_holder, holder = True, holder_before
    if "happy_man" in raw:
        ok_holder, holder = reader.player_ref(at(place, "happy_man"), raw["happy_man"], players, nullable=True)
    ok_finisher, finisher = reader.player_ref(at(place, "finisher"), raw.get("finisher"), players, nullable=True)
    golden12 = None if raw.get("golden12") is None else reader.integer(at(place, "golden12"), raw["golden12"])
    passes = reader.mapping(at(place, "passes"), raw.get("passes", {}), players, reader.integer)

    def read_hand(hand_place: str, hand: JSON) -> auruxxx.Hand | None:
        return read_auruxxx_hand(reader, hand_place, hand)

    hands: dict[str, auruxxx.Hand] | None = reader.mapping(at(place, "hands"), raw.get("hands", {}), players, read_hand)
    if not (ok_holder and ok_finisher) or passes is None or hands is None:
        return None
    return auruxxx.RoundInProgress(happy_man=holder, passes=passes, finisher=finisher, golden12=golden12, hands=hands)


def read_auruxxx_round(value: JSON, players: tuple[str, ...], place: str = "round") -> auruxxx.Round:
    """Return a round given as JSON (as in a record), or raise Illegal with its problems."""
    reader = _Reader()
    parsed = _auruxxx_round(reader, place, value, players)
    if reader.problems or parsed is None:
        raise Illegal(reader.problems)
    return parsed


def read_auruxxx_hand_json(value: JSON, place: str = "hand") -> auruxxx.Hand:
    """Return a hand given as JSON, or raise Illegal with its problems."""
    reader = _Reader()
    parsed = read_auruxxx_hand(reader, place, value)
    if reader.problems or parsed is None:
        raise Illegal(reader.problems)
    return parsed


def _parse_auruxxx(reader: _Reader, raw: dict[str, JSON]) -> auruxxx.Game | None:
    """Return an AURUXXX game from a record whose top level was checked."""
    reader.object("", raw, required=("game", "players"), optional=("house_rules", "rounds", "open_round", "result"))
    players = _players(reader, raw, auruxxx.MAX_PLAYERS, auruxxx.player_count_problems)
    house_rules = _auruxxx_house_rules(reader, raw.get("house_rules", {}))
    rounds_raw = raw.get("rounds", [])
    if not isinstance(rounds_raw, list):
        reader.fail("rounds", N_("must be a list of rounds (got {got})"), got=_kind(rounds_raw))
        return None
    if players is None or house_rules is None:
        return None
    read = [_auruxxx_round(reader, at("rounds", i), r, players) for i, r in enumerate(rounds_raw)]
    rounds = tuple(r for r in read if r is not None)
    open_round = None
    if "open_round" in raw:
        open_round = _auruxxx_open_round(reader, raw["open_round"], players, auruxxx.figure_holder(rounds))
    if reader.problems:
        return None
    return auruxxx.Game(players=players, house_rules=house_rules, rounds=rounds, open_round=open_round)


def serialise_auruxxx_hand(hand: auruxxx.Hand) -> dict[str, JSON]:
    """Return a hand as the record writes it, every card count present."""
    if isinstance(hand, auruxxx.CountedHand):
        return {"points": hand.points}
    return {
        "numbers": list(hand.numbers),
        "fifty": hand.fifty,
        "action": hand.action,
        "happy_man": hand.happy_man,
        "two": hand.two,
        "golden12": hand.golden12,
    }


def serialise_auruxxx_round(round_: auruxxx.Round, players: tuple[str, ...]) -> dict[str, JSON]:
    """Return a round as the record writes it: every player's crosses, every non-finisher's hand."""
    return {
        "finisher": round_.finisher,
        "golden12": round_.golden12,
        "happy_man": round_.happy_man,
        "passes": {p: round_.passes_of(p) for p in players},
        "hands": {p: serialise_auruxxx_hand(round_.hand_of(p)) for p in players if p != round_.finisher},
    }


def _serialise_auruxxx_open_round(so_far: auruxxx.RoundInProgress, players: tuple[str, ...]) -> dict[str, JSON]:
    """Return the round being played as the record writes it: every player's crosses, the hands counted so far."""
    written: dict[str, JSON] = {}
    if so_far.finisher is not None:
        written |= {"finisher": so_far.finisher, "golden12": so_far.golden12}
    written["happy_man"] = so_far.happy_man
    written["passes"] = {p: so_far.passes.get(p, 0) for p in players}
    written["hands"] = {p: serialise_auruxxx_hand(so_far.hands[p]) for p in players if p in so_far.hands}
    return written


def _serialise_auruxxx(game: auruxxx.Game) -> dict[str, JSON]:
    """Return an AURUXXX game in its normalised form; a round being played only once something happened in it."""
    rules = game.house_rules
    written: dict[str, JSON] = {
        "game": AURUXXX,
        "players": list(game.players),
        "house_rules": {
            "golden12_in_hand": rules.golden12_in_hand,
            "two_in_hand": rules.two_in_hand,
            "halving": rules.halving.value,
            "rounding": rules.rounding.value,
        },
        "rounds": [serialise_auruxxx_round(r, game.players) for r in game.rounds],
    }
    so_far = game.open_round
    if so_far is not None and not so_far.is_blank(auruxxx.figure_holder(game.rounds)):
        written["open_round"] = _serialise_auruxxx_open_round(so_far, game.players)
    return written


def _auruxxx_result(game: auruxxx.Game) -> dict[str, JSON]:
    """Return the result object of an AURUXXX game."""
    result = auruxxx.score_game(game)
    return {
        "rounds": [{p: to_json_number(s.points) for p, s in r.items()} for r in result.rounds],
        "totals": {p: to_json_number(t) for p, t in result.totals.items()},
        "winners": list(result.winners),
        "complete": result.complete,
    }


# --- 12 Days -----------------------------------------------------------------------------


def _read_card(reader: _Reader, place: str, value: JSON) -> twelve_days.Card | None:
    """Return a gift card: 1–12, "santa" or "mrs_claus"."""
    if value == twelve_days.SANTA:
        return twelve_days.SANTA
    if value == twelve_days.MRS_CLAUS:
        return twelve_days.MRS_CLAUS
    if isinstance(value, str):
        reader.fail(place, N_('a card is a number, "santa" or "mrs_claus" (got {got})'), got=shorten(value))
        return None
    return reader.integer(place, value)


def read_twelve_days_card(value: JSON, place: str = "card") -> twelve_days.Card:
    """Return a card given as JSON, or raise Illegal."""
    reader = _Reader()
    card = _read_card(reader, place, value)
    if reader.problems or card is None:
        raise Illegal(reader.problems)
    return card


def _twelve_days_day(reader: _Reader, place: str, value: JSON, players: tuple[str, ...]) -> twelve_days.Day | None:
    """Return one day: the revealed cards, or only who took the day card."""
    if isinstance(value, dict) and "taken_by" in value:
        raw = reader.object(place, value, required=("taken_by",))
        if raw is None:
            return None
        ok, taker = reader.player_ref(at(place, "taken_by"), raw["taken_by"], players, nullable=True)
        return twelve_days.TakenDay(taken_by=taker) if ok and not reader.problems else None
    raw = reader.object(place, value, required=("played",), optional=("gift_to",))
    if raw is None or "played" not in raw:
        return None
    def read_card(card_place: str, card: JSON) -> twelve_days.Card | None:
        return _read_card(reader, card_place, card)

    played: dict[str, twelve_days.Card] | None = reader.mapping(at(place, "played"), raw["played"], players, read_card)
    ok, gift_to = reader.player_ref(at(place, "gift_to"), raw.get("gift_to"), players, nullable=True)
    if played is None or not ok:
        return None
    return twelve_days.PlayedDay(played=played, gift_to=gift_to)


def read_twelve_days_day(value: JSON, players: tuple[str, ...], place: str = "day") -> twelve_days.Day:
    """Return a day given as JSON (as in a record), or raise Illegal with its problems."""
    reader = _Reader()
    parsed = _twelve_days_day(reader, place, value, players)
    if reader.problems or parsed is None:
        raise Illegal(reader.problems)
    return parsed


def _read_hand_cards(reader: _Reader, place: str, value: JSON) -> tuple[twelve_days.Card, ...] | None:
    """Return a final hand: a list of cards."""
    if not isinstance(value, list):
        reader.fail(place, N_("must be a list of cards (got {got})"), got=_kind(value))
        return None
    cards = [_read_card(reader, at(place, i), item) for i, item in enumerate(value)]
    if any(card is None for card in cards):
        return None
    return tuple(card for card in cards if card is not None)


def read_twelve_days_hand(value: JSON, place: str = "hand") -> tuple[twelve_days.Card, ...]:
    """Return a final hand given as JSON, or raise Illegal."""
    reader = _Reader()
    parsed = _read_hand_cards(reader, place, value)
    if reader.problems or parsed is None:
        raise Illegal(reader.problems)
    return parsed


def _twelve_days_open_day(reader: _Reader, value: JSON, players: tuple[str, ...]) -> twelve_days.DayInProgress | None:
    """Return the cards revealed so far on the day being played."""
    raw = reader.object("open_day", value, required=("played",))
    if raw is None or "played" not in raw:
        return None

    def read_card(card_place: str, card: JSON) -> twelve_days.Card | None:
        return _read_card(reader, card_place, card)

    played: dict[str, twelve_days.Card] | None = reader.mapping("open_day.played", raw["played"], players, read_card)
    return None if played is None else twelve_days.DayInProgress(played=played)


def _parse_twelve_days(reader: _Reader, raw: dict[str, JSON]) -> twelve_days.Game | None:
    """Return a 12 Days game from a record whose top level was checked."""
    reader.object("", raw, required=("game", "players"), optional=("variant", "days", "open_day", "hands", "result"))
    variant_name = reader.choice("variant", raw.get("variant", twelve_days.STANDARD.name), tuple(twelve_days.VARIANTS))
    if variant_name is None:
        most = max(v.max_players for v in twelve_days.VARIANTS.values())
        players = _players(reader, raw, most, lambda _: [])
    else:
        variant = twelve_days.find_variant(variant_name)
        players = _players(
            reader, raw, variant.max_players, lambda names: twelve_days.playerdeck_count_problems(names, variant)
        )
    days_raw = raw.get("days", [])
    if not isinstance(days_raw, list):
        reader.fail("days", N_("must be a list of days (got {got})"), got=_kind(days_raw))
        return None
    if players is None or variant_name is None:
        return None
    days = [_twelve_days_day(reader, at("days", i), d, players) for i, d in enumerate(days_raw)]
    open_day = _twelve_days_open_day(reader, raw["open_day"], players) if "open_day" in raw else None
    hands = None
    if raw.get("hands") is not None:
        def read_hand(hand_place: str, hand: JSON) -> tuple[twelve_days.Card, ...] | None:
            return _read_hand_cards(reader, hand_place, hand)

        hands = reader.mapping("hands", raw["hands"], players, read_hand)
    if reader.problems:
        return None
    return twelve_days.Game(
        players=players,
        variant=twelve_days.find_variant(variant_name),
        days=tuple(d for d in days if d is not None),
        hands=hands,
        open_day=open_day,
    )


def serialise_twelve_days_day(day: twelve_days.Day, players: tuple[str, ...]) -> dict[str, JSON]:
    """Return a day as the record writes it, cards in seating order."""
    if isinstance(day, twelve_days.TakenDay):
        return {"taken_by": day.taken_by}
    written: dict[str, JSON] = {"played": {p: day.played[p] for p in players if p in day.played}}
    if day.gift_to is not None:
        written["gift_to"] = day.gift_to
    return written


def _serialise_twelve_days(game: twelve_days.Game) -> dict[str, JSON]:
    """Return a 12 Days game in its normalised form; a day being played only once a card is revealed."""
    written: dict[str, JSON] = {
        "game": TWELVE_DAYS,
        "variant": game.variant.name,
        "players": list(game.players),
        "days": [serialise_twelve_days_day(d, game.players) for d in game.days],
    }
    if game.open_day is not None and game.open_day.played:
        played = game.open_day.played
        written["open_day"] = {"played": {p: played[p] for p in game.players if p in played}}
    if game.hands is not None:
        written["hands"] = {p: list(game.hands[p]) for p in game.players if p in game.hands}
    return written


def _twelve_days_result(game: twelve_days.Game) -> dict[str, JSON]:
    """Return the result object of a 12 Days game."""
    result = twelve_days.score_game(game)
    return {
        "rounds": [dict(r) for r in result.rounds],
        "totals": dict(result.totals),
        "day_points": dict(result.day_points),
        "bonus": dict(result.bonus),
        "lost": result.lost,
        "winners": list(result.winners),
        "complete": result.complete,
    }


# --- The record as a whole ---------------------------------------------------------------


def problems(game: Record) -> list[Problem]:
    """Return everything the rules forbid in a typed game."""
    if isinstance(game, auruxxx.Game):
        return auruxxx.game_problems(game)
    return twelve_days.game_problems(game)


def parse(raw: JSON) -> Record:
    """Return the game a decoded record describes, or raise Illegal with every problem.

    >>> parse({"game": "auruxxx", "players": ["Anna", "Ben"]}).house_rules.rounding.value
    'exact'
    >>> parse({"game": "chess", "players": []})
    Traceback (most recent call last):
    ...
    rules.problems.Illegal: game: must be one of "auruxxx", "12days" (got "chess")
    """
    reader = _Reader()
    top = reader.object(
        "", raw, required=("game", "players"),
        optional=("house_rules", "rounds", "open_round", "variant", "days", "open_day", "hands", "result"),
    )
    if top is None:
        raise Illegal(reader.problems)
    if "game" not in top:
        raise Illegal(reader.problems)
    kind = reader.choice("game", top["game"], GAMES)
    if kind is None:
        raise Illegal(reader.problems)
    reader.problems.clear()
    game: Record | None
    game = _parse_auruxxx(reader, top) if kind == AURUXXX else _parse_twelve_days(reader, top)
    if reader.problems or game is None:
        raise Illegal(reader.problems)
    found = problems(game)
    if found:
        raise Illegal(found)
    return game


class _Repeated(dict[str, JSON]):
    """A decoded JSON object in which some key was given twice; the record refuses it."""

    def __init__(self, pairs: list[tuple[str, JSON]], repeated: list[str]) -> None:
        super().__init__(pairs)
        self.repeated = repeated


def _decoded_object(pairs: list[tuple[str, JSON]]) -> dict[str, JSON]:
    """Return a decoded JSON object, marked when a key is given twice (plain JSON keeps the last silently)."""
    decoded = dict(pairs)
    if len(decoded) == len(pairs):
        return decoded
    seen: set[str] = set()
    repeated: dict[str, None] = {}
    for key, _ in pairs:
        if key in seen:
            repeated[key] = None
        seen.add(key)
    return _Repeated(pairs, list(repeated))


def _too_deep() -> Problem:
    """Return the problem of a record nested deeper than any record can be."""
    return problem("record", N_("is nested more than {limit} levels deep"), limit=MAX_DEPTH)


def _structure_problems(raw: JSON) -> list[Problem]:
    """Return every key given twice in one object, and whether anything nests too deep, walking without recursion."""
    found: list[Problem] = []
    stack: list[tuple[str, JSON, int]] = [("", raw, 1)]
    while stack:
        place, value, depth = stack.pop()
        if not isinstance(value, (dict, list)):
            continue
        if depth > MAX_DEPTH:
            return [_too_deep()]
        if isinstance(value, _Repeated):
            found += [problem(at(place, key), N_("is given twice in one object")) for key in value.repeated]
        items = list(value.items()) if isinstance(value, dict) else list(enumerate(value))
        stack += [(at(place, key), item, depth + 1) for key, item in reversed(items)]
    return found


def loads(text: str | bytes) -> Record:
    """Return the game a JSON text describes, or raise Illegal (broken JSON, a key given twice, deep nesting included).

    >>> loads('{"game": "auruxxx", "game": "auruxxx", "players": ["A", "B"]}')
    Traceback (most recent call last):
    ...
    rules.problems.Illegal: game: is given twice in one object
    """
    try:
        raw = json.loads(text, object_pairs_hook=_decoded_object)
    except RecursionError:
        raise Illegal([_too_deep()]) from None
    except ValueError as error:
        raise Illegal([problem("record", N_("is not valid JSON ({error})"), error=str(error))]) from None
    structure = _structure_problems(raw)
    if structure:
        raise Illegal(structure)
    return parse(raw)


def serialise(game: Record) -> dict[str, JSON]:
    """Return the normalised record of a game, without a result."""
    if isinstance(game, auruxxx.Game):
        return _serialise_auruxxx(game)
    return _serialise_twelve_days(game)


def scored(game: Record) -> dict[str, JSON]:
    """Return the normalised record with its ``result``, as export and ``score`` print it."""
    written = serialise(game)
    written["result"] = _auruxxx_result(game) if isinstance(game, auruxxx.Game) else _twelve_days_result(game)
    return written


def dumps(record: Mapping[str, JSON]) -> str:
    """Return a record as JSON text, readable and with names in their own letters."""
    return json.dumps(record, ensure_ascii=False, indent=2) + "\n"
