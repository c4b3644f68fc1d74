"""AURUXXX's part of the game record: house rules, rounds and hands, read from JSON and written back.

The shared top level (the game, the players) and the ``Reader`` that collects every
problem come from ``rules.record``; this module knows what an AURUXXX record adds.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.auruxxx.legal import number_card_count_problems, player_count_problems, round_count_problems
from rules.auruxxx.score import (
    GOLDEN12_IN_HAND_CHOICES,
    MAX_PLAYERS,
    TWO_IN_HAND_CHOICES,
    Cards,
    CountedHand,
    Game,
    Halving,
    Hand,
    HouseRules,
    Round,
    Rounding,
    RoundInProgress,
    figure_holder,
    score_game,
)
from rules.json_value import JSON
from rules.points import to_json_number
from rules.problems import N_, Illegal, at
from rules.record import Reader, json_type, read_players

KIND = "auruxxx"
SETUP_KEYS = ("house_rules",)
_HOUSE_RULE_KEYS = ("golden12_in_hand", "two_in_hand", "halving", "rounding")
_CARD_KEYS = ("numbers", "fifty", "action", "happy_man", "two", "golden12")


def _house_rules(reader: Reader, value: JSON) -> HouseRules | None:
    """Return the house rules, defaults for any left out."""
    raw = reader.object("house_rules", value, required=(), optional=_HOUSE_RULE_KEYS)
    if raw is None:
        return None
    defaults = HouseRules()
    golden12 = reader.choice(
        "house_rules.golden12_in_hand", raw.get("golden12_in_hand", defaults.golden12_in_hand), GOLDEN12_IN_HAND_CHOICES
    )
    two = reader.choice("house_rules.two_in_hand", raw.get("two_in_hand", defaults.two_in_hand), TWO_IN_HAND_CHOICES)
    halving = reader.choice("house_rules.halving", raw.get("halving", defaults.halving.value), tuple(h.value for h in Halving))
    rounding = reader.choice("house_rules.rounding", raw.get("rounding", defaults.rounding.value), tuple(r.value for r in Rounding))
    if golden12 is None or two is None or halving is None or rounding is None:
        return None
    return HouseRules(golden12_in_hand=golden12, two_in_hand=two, halving=Halving(halving), rounding=Rounding(rounding))


def _hand(reader: Reader, place: str, value: JSON) -> Hand | None:
    """Return a hand: either its cards or the counted total."""
    if isinstance(value, dict) and "points" in value:
        raw = reader.object(place, value, required=("points",))
        if raw is None or len(raw) != 1:
            return None
        points = reader.integer(at(place, "points"), raw["points"])
        return None if points is None else CountedHand(points)
    raw = reader.object(place, value, required=(), optional=_CARD_KEYS)
    if raw is None:
        return None
    numbers_raw = raw.get("numbers", [])
    numbers: list[int] = []
    ok = True
    if not isinstance(numbers_raw, list):
        reader.fail(at(place, "numbers"), N_("must be a list of card numbers (got {got})"), got=json_type(numbers_raw))
        ok = False
    elif too_many := number_card_count_problems(at(place, "numbers"), numbers_raw):
        reader.problems.extend(too_many)
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
    return Cards(numbers=tuple(numbers), **counts)


def _round(reader: Reader, place: str, value: JSON, players: tuple[str, ...]) -> Round | None:
    """Return one finished round."""
    raw = reader.object(place, value, required=("finisher", "golden12", "happy_man"), optional=("passes", "hands"))
    if raw is None or any(key not in raw for key in ("finisher", "golden12", "happy_man")):
        return None
    ok_finisher, finisher = reader.player_ref(at(place, "finisher"), raw["finisher"], players)
    golden12 = reader.integer(at(place, "golden12"), raw["golden12"])
    ok_holder, holder = reader.player_ref(at(place, "happy_man"), raw["happy_man"], players, nullable=True)
    passes = reader.mapping(at(place, "passes"), raw.get("passes", {}), players, reader.integer)

    def read_hand(hand_place: str, hand: JSON) -> Hand | None:
        return _hand(reader, hand_place, hand)

    hands: dict[str, Hand] | None = reader.mapping(at(place, "hands"), raw.get("hands", {}), players, read_hand)
    if not (ok_finisher and ok_holder) or finisher is None or golden12 is None or passes is None or hands is None:
        return None
    return Round(finisher=finisher, golden12=golden12, happy_man=holder, passes=passes, hands=hands)


def _open_round(reader: Reader, value: JSON, players: tuple[str, ...], holder_before: str | None) -> RoundInProgress | None:
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

    def read_hand(hand_place: str, hand: JSON) -> Hand | None:
        return _hand(reader, hand_place, hand)

    hands: dict[str, Hand] | None = reader.mapping(at(place, "hands"), raw.get("hands", {}), players, read_hand)
    if not (ok_holder and ok_finisher) or passes is None or hands is None:
        return None
    return RoundInProgress(happy_man=holder, passes=passes, finisher=finisher, golden12=golden12, hands=hands)


def read_round(value: JSON, players: tuple[str, ...], place: str = "round") -> Round:
    """Return a round given as JSON (as in a record), or raise Illegal with its problems."""
    reader = Reader()
    return reader.finish(_round(reader, place, value, players))


def read_hand(value: JSON, place: str = "hand") -> Hand:
    """Return a hand given as JSON, or raise Illegal with its problems."""
    reader = Reader()
    hand = _hand(reader, place, value)
    if reader.problems or hand is None:
        raise Illegal(reader.problems)
    return hand


def parse(raw: Mapping[str, JSON]) -> Game:
    """Return the AURUXXX game a record describes, or raise Illegal with every problem of its shape.

    >>> parse({"game": "auruxxx", "players": ["Anna", "Ben"], "house_rules": {"rounding": "floor"}}).house_rules.rounding
    <Rounding.FLOOR: 'floor'>
    """
    reader = Reader()
    reader.object("", raw, required=("game", "players"), optional=("house_rules", "rounds", "open_round", "result"))
    players = read_players(reader, raw, MAX_PLAYERS, player_count_problems)
    house_rules = _house_rules(reader, raw.get("house_rules", {}))
    rounds_raw = raw.get("rounds", [])
    if not isinstance(rounds_raw, list):
        reader.fail("rounds", N_("must be a list of rounds (got {got})"), got=json_type(rounds_raw))
        return reader.finish(None)
    too_many = round_count_problems(rounds_raw)
    reader.problems.extend(too_many)
    if players is None or house_rules is None or too_many:
        return reader.finish(None)
    read = [_round(reader, at("rounds", i), r, players) for i, r in enumerate(rounds_raw)]
    rounds = tuple(r for r in read if r is not None)
    open_round = None
    if "open_round" in raw:
        open_round = _open_round(reader, raw["open_round"], players, figure_holder(rounds))
    return reader.finish(Game(players=players, house_rules=house_rules, rounds=rounds, open_round=open_round))


def serialise_hand(hand: Hand) -> dict[str, JSON]:
    """Return a hand as the record writes it, every card count present."""
    if isinstance(hand, CountedHand):
        return {"points": hand.points}
    return {
        "numbers": list(hand.numbers),
        "fifty": hand.fifty,
        "action": hand.action,
        "happy_man": hand.happy_man,
        "two": hand.two,
        "golden12": hand.golden12,
    }


def serialise_round(round_: Round, players: tuple[str, ...]) -> dict[str, JSON]:
    """Return a round as the record writes it: every player's crosses, every non-finisher's hand."""
    return {
        "finisher": round_.finisher,
        "golden12": round_.golden12,
        "happy_man": round_.happy_man,
        "passes": {p: round_.passes_of(p) for p in players},
        "hands": {p: serialise_hand(round_.hand_of(p)) for p in players if p != round_.finisher},
    }


def _serialise_open_round(so_far: RoundInProgress, players: tuple[str, ...]) -> dict[str, JSON]:
    """Return the round being played as the record writes it: every player's crosses, the hands counted so far."""
    written: dict[str, JSON] = {}
    if so_far.finisher is not None:
        written |= {"finisher": so_far.finisher, "golden12": so_far.golden12}
    written["happy_man"] = so_far.happy_man
    written["passes"] = {p: so_far.passes.get(p, 0) for p in players}
    written["hands"] = {p: serialise_hand(so_far.hands[p]) for p in players if p in so_far.hands}
    return written


def serialise(game: Game) -> dict[str, JSON]:
    """Return an AURUXXX game in its normalised form; a round being played only once something happened in it."""
    rules = game.house_rules
    written: dict[str, JSON] = {
        "game": KIND,
        "players": list(game.players),
        "house_rules": {
            "golden12_in_hand": rules.golden12_in_hand,
            "two_in_hand": rules.two_in_hand,
            "halving": rules.halving.value,
            "rounding": rules.rounding.value,
        },
        "rounds": [serialise_round(r, game.players) for r in game.rounds],
    }
    so_far = game.open_round
    if so_far is not None and not so_far.is_blank(figure_holder(game.rounds)):
        written["open_round"] = _serialise_open_round(so_far, game.players)
    return written


def result(game: Game) -> dict[str, JSON]:
    """Return the result object of an AURUXXX game: points per round, totals, winners."""
    scored = score_game(game)
    return {
        "rounds": [{p: to_json_number(s.points) for p, s in r.items()} for r in scored.rounds],
        "totals": {p: to_json_number(t) for p, t in scored.totals.items()},
        "winners": list(scored.winners),
        "complete": scored.complete,
    }
