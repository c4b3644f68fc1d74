"""12 Days' part of the game record: the variant, the days and the final hands, read from JSON and written back.

The shared top level (the game, the players) and the ``Reader`` that collects every
problem come from ``rules.record``; this module knows what a 12 Days record adds.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.json_value import JSON
from rules.problems import N_, Illegal, at
from rules.record import Reader, json_type, read_players, shorten
from rules.twelve_days.legal import day_count_problems, hand_size_problems, playerdeck_count_problems
from rules.twelve_days.score import (
    MRS_CLAUS,
    SANTA,
    STANDARD,
    VARIANTS,
    Card,
    Day,
    DayInProgress,
    Game,
    PlayedDay,
    TakenDay,
    Variant,
    find_variant,
    score_game,
)

KIND = "12days"
SETUP_KEYS = ("variant",)


def _card(reader: Reader, place: str, value: JSON) -> Card | None:
    """Return a gift card: 1–12, "santa" or "mrs_claus"."""
    if value == SANTA:
        return SANTA
    if value == MRS_CLAUS:
        return MRS_CLAUS
    if isinstance(value, str):
        reader.fail(place, N_('a card is a number, "santa" or "mrs_claus" (got {got})'), got=shorten(value))
        return None
    return reader.integer(place, value)


def read_card(value: JSON, place: str = "card") -> Card:
    """Return a card given as JSON, or raise Illegal."""
    reader = Reader()
    card = _card(reader, place, value)
    if reader.problems or card is None:
        raise Illegal(reader.problems)
    return card


def _day(reader: Reader, place: str, value: JSON, players: tuple[str, ...]) -> Day | None:
    """Return one day: the revealed cards, or only who took the day card."""
    if isinstance(value, dict) and "taken_by" in value:
        raw = reader.object(place, value, required=("taken_by",))
        if raw is None:
            return None
        ok, taker = reader.player_ref(at(place, "taken_by"), raw["taken_by"], players, nullable=True)
        return TakenDay(taken_by=taker) if ok and not reader.problems else None
    raw = reader.object(place, value, required=("played",), optional=("gift_to",))
    if raw is None or "played" not in raw:
        return None

    def card_of(card_place: str, card: JSON) -> Card | None:
        return _card(reader, card_place, card)

    played: dict[str, Card] | None = reader.mapping(at(place, "played"), raw["played"], players, card_of)
    ok, gift_to = reader.player_ref(at(place, "gift_to"), raw.get("gift_to"), players, nullable=True)
    if played is None or not ok:
        return None
    return PlayedDay(played=played, gift_to=gift_to)


def read_day(value: JSON, players: tuple[str, ...], place: str = "day") -> Day:
    """Return a day given as JSON (as in a record), or raise Illegal with its problems."""
    reader = Reader()
    day = _day(reader, place, value, players)
    if reader.problems or day is None:
        raise Illegal(reader.problems)
    return day


def _open_day(reader: Reader, value: JSON, players: tuple[str, ...]) -> DayInProgress | None:
    """Return the cards revealed so far on the day being played."""
    raw = reader.object("open_day", value, required=("played",))
    if raw is None or "played" not in raw:
        return None

    def card_of(card_place: str, card: JSON) -> Card | None:
        return _card(reader, card_place, card)

    played: dict[str, Card] | None = reader.mapping("open_day.played", raw["played"], players, card_of)
    return None if played is None else DayInProgress(played=played)


def _hand(reader: Reader, place: str, value: JSON, variant: Variant) -> tuple[Card, ...] | None:
    """Return a final hand: a list of cards (one longer than any hand is refused by its length, unread)."""
    if not isinstance(value, list):
        reader.fail(place, N_("must be a list of cards (got {got})"), got=json_type(value))
        return None
    if len(value) > variant.hand_size:
        reader.problems.extend(hand_size_problems(place, value, variant))
        return None
    cards = [_card(reader, at(place, i), item) for i, item in enumerate(value)]
    if any(card is None for card in cards):
        return None
    return tuple(card for card in cards if card is not None)


def read_hand(value: JSON, variant: Variant, place: str = "hand") -> tuple[Card, ...]:
    """Return a final hand given as JSON, or raise Illegal."""
    reader = Reader()
    return reader.finish(_hand(reader, place, value, variant))


def parse(raw: Mapping[str, JSON]) -> Game:
    """Return the 12 Days game a record describes, or raise Illegal with every problem of its shape.

    >>> parse({"game": "12days", "variant": "8nights", "players": ["A", "B", "C"]}).variant.days
    8
    """
    reader = Reader()
    reader.object("", raw, required=("game", "players"), optional=("variant", "days", "open_day", "hands", "result"))
    variant_name = reader.choice("variant", raw.get("variant", STANDARD.name), tuple(VARIANTS))
    if variant_name is None:
        most = max(v.max_players for v in VARIANTS.values())
        players = read_players(reader, raw, most, lambda _: [])
    else:
        variant = find_variant(variant_name)
        players = read_players(reader, raw, variant.max_players, lambda names: playerdeck_count_problems(names, variant))
    days_raw = raw.get("days", [])
    if not isinstance(days_raw, list):
        reader.fail("days", N_("must be a list of days (got {got})"), got=json_type(days_raw))
        return reader.finish(None)
    too_many = [] if variant_name is None else day_count_problems(days_raw, find_variant(variant_name))
    reader.problems.extend(too_many)
    if players is None or variant_name is None or too_many:
        return reader.finish(None)
    variant = find_variant(variant_name)
    days = [_day(reader, at("days", i), d, players) for i, d in enumerate(days_raw)]
    open_day = _open_day(reader, raw["open_day"], players) if "open_day" in raw else None
    hands = None
    if raw.get("hands") is not None:

        def hand_of(hand_place: str, hand: JSON) -> tuple[Card, ...] | None:
            return _hand(reader, hand_place, hand, variant)

        hands = reader.mapping("hands", raw["hands"], players, hand_of)
    return reader.finish(
        Game(
            players=players,
            variant=variant,
            days=tuple(d for d in days if d is not None),
            hands=hands,
            open_day=open_day,
        )
    )


def serialise_day(day: Day, players: tuple[str, ...]) -> dict[str, JSON]:
    """Return a day as the record writes it, cards in seating order."""
    if isinstance(day, TakenDay):
        return {"taken_by": day.taken_by}
    written: dict[str, JSON] = {"played": {p: day.played[p] for p in players if p in day.played}}
    if day.gift_to is not None:
        written["gift_to"] = day.gift_to
    return written


def serialise(game: Game) -> dict[str, JSON]:
    """Return a 12 Days game in its normalised form; a day being played only once a card is revealed."""
    written: dict[str, JSON] = {
        "game": KIND,
        "variant": game.variant.name,
        "players": list(game.players),
        "days": [serialise_day(d, game.players) for d in game.days],
    }
    if game.open_day is not None and game.open_day.played:
        played = game.open_day.played
        written["open_day"] = {"played": {p: played[p] for p in game.players if p in played}}
    if game.hands is not None:
        written["hands"] = {p: list(game.hands[p]) for p in game.players if p in game.hands}
    return written


def result(game: Game) -> dict[str, JSON]:
    """Return the result object of a 12 Days game: the day points, the hand bonus, what was lost."""
    scored = score_game(game)
    return {
        "rounds": [dict(r) for r in scored.rounds],
        "totals": dict(scored.totals),
        "day_points": dict(scored.day_points),
        "bonus": dict(scored.bonus),
        "lost": scored.lost,
        "winners": list(scored.winners),
        "complete": scored.complete,
    }
