"""12 Days' events folded into finished days, the open day and the final hands.

Event payloads (``day`` counts from 0): ``card`` {day, player, card} · ``gift`` {day,
player} · ``taken`` {day, player|null} · ``hand`` {player, cards} · ``correct_day`` {day,
record} (a record day). Undo and import are folded away by ``rules.history`` before these
are read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from rules.games import Change, TableEvent
from rules.history import UNDO, Stages, effective, finished, payload, player, position
from rules.problems import N_, Illegal, at, problem
from rules.twelve_days.legal import card_problems, day_problems, deck_count_problems, game_problems, hand_problems
from rules.twelve_days.record import read_card, read_day, read_hand
from rules.twelve_days.score import Card, Day, DayInProgress, Game, PlayedDay, TakenDay, reveal

EVENT_KINDS = ("card", "gift", "taken", "hand", "correct_day")
_DAY_PAYLOAD_KEYS = {"card": ("day", "player", "card"), "gift": ("day", "player"), "taken": ("day", "player")}
DAYS_SAY = Stages(
    not_a_number=N_("must be the number of a day"),
    all_finished=N_("all {total} days are finished"),
    is_finished=N_("day {number} is finished; day {current} is being played"),
    has_not_begun=N_("day {number} has not begun; day {current} is being played"),
    not_correctable=N_("only a finished day can be corrected"),
)


@dataclass(frozen=True, kw_only=True)
class OpenDay:
    """The 12 Days day being played: the cards revealed so far and a Claus winner's gift."""

    index: int
    played: Mapping[str, Card]
    gift_to: str | None = None


@dataclass(frozen=True, kw_only=True)
class TwelveDaysTable:
    """A 12 Days game as the events add up: finished days, the open day, final hands so far."""

    game: Game
    current: OpenDay | None
    """None once every day is finished."""
    hands: Mapping[str, tuple[Card, ...]]
    """Final hands entered so far; the game holds them once every player's is in."""


@dataclass(kw_only=True)
class _Days:
    """A 12 Days game while it is folded: finished days, the cards revealed on the open day, final hands so far."""

    days: list[Day]
    played: dict[str, Card]
    hands: dict[str, tuple[Card, ...]]


def fold(start: Game, events: Sequence[TableEvent]) -> TwelveDaysTable:
    """Replay 12 Days events, on from the days of ``start``, into finished days, the open day and the final hands."""
    state = _Days(days=list(start.days), played={}, hands=dict(start.hands or {}))
    for event in events:
        if event.kind == "correct_day":
            place = f"events[{event.seq}]"
            content = payload(event, ("day", "record"))
            index = finished(at(place, "day"), content["day"], len(state.days), DAYS_SAY)
            day_place = at("days", index)
            fixed = read_day(content["record"], start.players, day_place)
            problems = day_problems(day_place, fixed, start.players, start.variant)
            if problems:
                raise Illegal(problems)
            state.days[index] = fixed
        else:
            _play(state, event, start)
    return _table(state, start)


def step(table: TwelveDaysTable, event: TableEvent) -> TwelveDaysTable | None:
    """Return the table with one more card, gift, taken day or final hand, as ``fold`` would; None for a correction.

    A corrected day moves the pot of every day after it: only the whole fold can tell.
    """
    if event.kind == "correct_day":
        return None
    played = dict(table.current.played) if table.current is not None else {}
    state = _Days(days=list(table.game.days), played=played, hands=dict(table.hands))
    _play(state, event, table.game)
    return _table(state, table.game)


def _play(state: _Days, event: TableEvent, game: Game) -> None:
    """Play one tap of the game's own on the state: a card revealed, a day given away or taken, a final hand."""
    players, variant = game.players, game.variant
    place = f"events[{event.seq}]"
    current_index = len(state.days) if len(state.days) < variant.days else None
    if event.kind not in EVENT_KINDS or event.kind == "correct_day":
        raise Illegal([problem(place, N_("{kind} is not a change of a 12 Days game"), kind=repr(event.kind))])
    if event.kind == "hand":
        content = payload(event, ("player", "cards"))
        who = player(at(place, "player"), content["player"], players)
        hand_place = at("hands", who)
        cards = read_hand(content["cards"], variant, hand_place)
        problems = hand_problems(hand_place, cards, variant)
        if problems:
            raise Illegal(problems)
        state.hands[who] = cards
        return
    content = payload(event, _DAY_PAYLOAD_KEYS[event.kind])
    index = position(at(place, "day"), content["day"], current_index, DAYS_SAY, variant.days)
    day_place = at("days", index)
    if event.kind == "taken":
        if state.played:
            raise Illegal([problem(day_place, N_("cards are already being entered for this day"))])
        taker = None if content["player"] is None else player(at(place, "player"), content["player"], players)
        state.days.append(TakenDay(taken_by=taker))
        return
    who = player(at(place, "player"), content["player"], players)
    if event.kind == "card":
        card_place = at(at(day_place, "played"), who)
        card = read_card(content["card"], card_place)
        problems = card_problems(card_place, card, variant)
        trial = {**state.played, who: card}
        problems += deck_count_problems(at(day_place, "played"), list(trial.values()), variant, "day")
        if problems:
            raise Illegal(problems)
        state.played = trial
        if len(trial) == len(players) and not reveal(trial).claus_win:
            state.days.append(PlayedDay(played=trial))
            state.played = {}
        return
    decision = reveal(state.played)
    day = PlayedDay(played=state.played, gift_to=who)
    if len(state.played) < len(players) or not decision.claus_win:
        raise Illegal([problem(at(day_place, "gift_to"), N_("only a player who wins with a Claus card gives the day away"))])
    problems = day_problems(day_place, day, players, variant)
    if problems:
        raise Illegal(problems)
    state.days.append(day)
    state.played = {}


def _table(state: _Days, game: Game) -> TwelveDaysTable:
    """Return the table the state adds up to, checked as a whole game."""
    players, variant, days, played, hands = game.players, game.variant, state.days, state.played, state.hands
    all_hands = len(hands) == len(players)
    whole = Game(
        players=players,
        variant=variant,
        days=tuple(days),
        hands=dict(hands) if all_hands else None,
        open_day=DayInProgress(played=dict(played)) if played else None,
    )
    problems = game_problems(whole)
    if not all_hands:
        problems += deck_count_problems("hands", [c for h in hands.values() for c in h], variant, "hands")
    if problems:
        raise Illegal(problems)
    current = OpenDay(index=len(days), played=played) if len(days) < variant.days else None
    return TwelveDaysTable(game=whole, current=current, hands=hands)


def stages(game: Game) -> tuple[Day, ...]:
    """Return the finished days: 12 Days is played in days."""
    return game.days


def split_open(game: Game) -> tuple[Game, list[Change]]:
    """Return the game without the day being played, and the cards revealed on it as taps, in seating order."""
    played = game.open_day.played if game.open_day is not None else {}
    taps: list[Change] = [("card", {"day": len(game.days), "player": who, "card": played[who]}) for who in game.players if who in played]
    return replace(game, open_day=None), taps


def gift_due(table: TwelveDaysTable) -> str | None:
    """Return who won the open day with a Claus card and must give it away, once every card is in; else None."""
    current = table.current
    if current is None or len(current.played) < len(table.game.players):
        return None
    decision = reveal(current.played)
    return decision.winner if decision.claus_win else None


def final_hand(table: TwelveDaysTable, player: str) -> tuple[Card, ...] | None:
    """Return a player's final hand as entered so far, or None: what the final-hand form edits."""
    return table.hands.get(player)


def clearing(events: Sequence[TableEvent], index: int) -> list[Change]:
    """Return the undos that take back every card revealed on day ``index`` (and a gift) that still counts, newest first.

    Stored together, they leave the day as if nobody had revealed anything: what quick mode
    needs before it can note who takes the day.

    >>> clearing([TableEvent(1, "card", {"day": 0, "player": "A", "card": 3}),
    ...           TableEvent(2, "card", {"day": 0, "player": "B", "card": 5}),
    ...           TableEvent(3, "card", {"day": 0, "player": "C", "card": 7}),
    ...           TableEvent(4, "undo", {"event": 2})], 0)
    [('undo', {'event': 3}), ('undo', {'event': 1})]
    """
    revealed = [
        event.seq
        for event in effective(events)
        if event.kind in ("card", "gift") and isinstance(event.payload, Mapping) and event.payload.get("day") == index
    ]
    return [(UNDO, {"event": seq}) for seq in reversed(revealed)]


def revealed_on(table: TwelveDaysTable, index: int) -> object:
    """Return what was revealed on day ``index``: the open day's cards so far, or the finished day itself (None before it).

    What a gift and clearing the day move, for their version check (``views.table.taps.unmoved_since``).
    """
    if table.current is not None and table.current.index == index:
        return dict(table.current.played)
    return table.game.days[index] if 0 <= index < len(table.game.days) else None


def card_of(table: TwelveDaysTable, index: int, player: str) -> Card | None:
    """Return the card a player revealed on day ``index`` (open or finished), or None.

    A second card for the same player replaces the first: what a card tap moves, for its version check.
    """
    if table.current is not None and table.current.index == index:
        return table.current.played.get(player)
    day = table.game.days[index] if 0 <= index < len(table.game.days) else None
    return day.played.get(player) if isinstance(day, PlayedDay) else None
