"""From what happened at the table to the game record: folding the event history.

The app never overwrites a score. Every tap is appended as an event (a pass cross, the
Happy-Man figure changing hands, a finisher, a hand, a revealed card, a correction, an
undo), and the sheet is whatever the events add up to. ``fold`` replays them through the
same rules that check a record, so an event that would make the game illegal is refused
before it is stored (``check``), and a stored history always folds.

Event payloads (``round`` and ``day`` count from 0, like the record's list positions):

AURUXXX
  ``pass`` {round, player} · ``happy_man`` {round, player} · ``finish`` {round, player,
  golden12} · ``hand`` {round, player, hand} (a record hand) · ``correct_round`` {round,
  record} (a record round, replacing a finished round as a whole)
12 Days
  ``card`` {day, player, card} · ``gift`` {day, player} · ``taken`` {day, player|null} ·
  ``hand`` {player, cards} · ``correct_day`` {day, record} (a record day)
Both
  ``import`` {record}: a game record's finished rounds or days, as the first change of an
  imported game (the round or day it was exported in follows as ordinary taps) ·
  ``undo`` {event}: the sequence number of an earlier change that no longer counts ·
  ``rematch`` {}: a rematch of this game was started (it changes no score and cannot be undone).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from rules import auruxxx, record, twelve_days
from rules.problems import N_, Illegal, Problem, at, problem

JSON = Any

UNDO = "undo"
IMPORT = "import"
REMATCH = "rematch"
AURUXXX_KINDS = ("pass", "happy_man", "finish", "hand", "correct_round")
TWELVE_DAYS_KINDS = ("card", "gift", "taken", "hand", "correct_day")


@dataclass(frozen=True)
class TableEvent:
    """One stored change: its number in the game's history, what kind it is, and its content."""

    seq: int
    kind: str
    payload: Mapping[str, JSON]


@dataclass(frozen=True, kw_only=True)
class OpenRound:
    """The AURUXXX round being played: crosses so far, and the finisher and hands once known."""

    index: int
    passes: Mapping[str, int]
    holder: str | None
    """Who holds the Happy-Man figure right now."""
    finisher: str | None = None
    golden12: int | None = None
    hands: Mapping[str, auruxxx.Hand] = field(default_factory=dict)

    def waiting_for(self, players: Sequence[str]) -> tuple[str, ...]:
        """Return the players whose hand is still missing (empty until the finisher is known)."""
        if self.finisher is None:
            return ()
        return tuple(p for p in players if p != self.finisher and p not in self.hands)


@dataclass(frozen=True, kw_only=True)
class AuruxxxTable:
    """An AURUXXX game as the events add up: finished rounds and the round being played."""

    game: auruxxx.Game
    current: OpenRound | None
    """None once all three rounds are finished."""


@dataclass(frozen=True, kw_only=True)
class OpenDay:
    """The 12 Days day being played: the cards revealed so far and a Claus winner's gift."""

    index: int
    played: Mapping[str, twelve_days.Card]
    gift_to: str | None = None


@dataclass(frozen=True, kw_only=True)
class TwelveDaysTable:
    """A 12 Days game as the events add up: finished days, the open day, final hands so far."""

    game: twelve_days.Game
    current: OpenDay | None
    """None once every day is finished."""
    hands: Mapping[str, tuple[twelve_days.Card, ...]]
    """Final hands entered so far; the game holds them once every player's is in."""


Table = AuruxxxTable | TwelveDaysTable


def effective(events: Sequence[TableEvent]) -> list[TableEvent]:
    """Return the changes that still count: every event but undos, what they undid, and the rematch note.

    >>> [e.seq for e in effective([TableEvent(1, "pass", {}), TableEvent(2, "pass", {}),
    ...                            TableEvent(3, "undo", {"event": 2})])]
    [1]
    """
    undone: set[int] = set()
    seen: dict[int, TableEvent] = {}
    for event in events:
        place = f"events[{event.seq}]"
        if event.kind == REMATCH:
            _payload(event, ())
        elif event.kind == UNDO:
            target = event.payload.get("event") if isinstance(event.payload, Mapping) else None
            if isinstance(target, bool) or not isinstance(target, int) or target not in seen:
                raise Illegal([problem(place, N_("an undo names an earlier change of this game"))])
            if target in undone:
                raise Illegal([problem(place, N_("that change was already undone"))])
            if seen[target].kind == IMPORT:
                raise Illegal([problem(place, N_("an imported record cannot be undone; correct its rounds or days instead"))])
            undone.add(target)
        else:
            seen[event.seq] = event
    return [event for seq, event in seen.items() if seq not in undone]


def last_change(events: Sequence[TableEvent]) -> TableEvent | None:
    """Return the most recent change that still counts and can be taken back: what "undo" offers.

    An imported record is where the game began, not a tap; it is corrected, never undone.
    """
    remaining = [event for event in effective(events) if event.kind != IMPORT]
    return remaining[-1] if remaining else None


def superseded(events: Sequence[TableEvent], target: int) -> bool:
    """Return whether change ``target`` still counts but is no longer the last one: undoing it would skip newer changes.

    An undo button offers the last change; once someone else's change follows it, the
    button shows an old sheet. Unknown, undone or imported changes are not "superseded":
    ``check`` refuses undoing them.

    >>> taps = [TableEvent(1, "pass", {}), TableEvent(2, "pass", {})]
    >>> superseded(taps, 1), superseded(taps, 2), superseded(taps, 9)
    (True, False, False)
    """
    change = last_change(events)
    undoable = {event.seq for event in effective(events) if event.kind != IMPORT}
    return change is not None and target in undoable and target != change.seq


def finished_part(table: Table, index: int) -> auruxxx.Round | twelve_days.Day | None:
    """Return finished round (AURUXXX) or day (12 Days) ``index`` of a table, or None while it is not finished."""
    parts: Sequence[auruxxx.Round | twelve_days.Day] = table.game.rounds if isinstance(table, AuruxxxTable) else table.game.days
    return parts[index] if 0 <= index < len(parts) else None


def changed_since(setup: Mapping[str, JSON], events: Sequence[TableEvent], index: int, seen: int) -> bool:
    """Return whether finished round or day ``index`` now differs from how it stood after change ``seen``.

    This is what makes a correction form stale: only what folds into that round or day
    counts, so a tap, an undo or a correction elsewhere leaves the form valid, while a
    correction of the same round, an undo that reaches into it, or an earlier round
    handing it another Happy-Man holder does not. A round or day that is no longer
    finished is left to ``check``, which refuses correcting it.
    """
    now = finished_part(fold(setup, events), index)
    if now is None:
        return False
    then = finished_part(fold(setup, [event for event in events if event.seq <= seen]), index)
    return then != now


def revealed_on(events: Sequence[TableEvent], index: int) -> list[int]:
    """Return the changes that revealed a card on 12 Days day ``index`` (or gave it away) and still count.

    Undoing them, newest first, leaves the day as if nobody had revealed anything: what
    quick mode needs before it can note who takes the day.

    >>> revealed_on([TableEvent(1, "card", {"day": 0, "player": "A", "card": 3}),
    ...              TableEvent(2, "card", {"day": 0, "player": "B", "card": 5}),
    ...              TableEvent(3, "undo", {"event": 2})], 0)
    [1]
    """
    return [
        event.seq for event in effective(events)
        if event.kind in ("card", "gift") and isinstance(event.payload, Mapping) and event.payload.get("day") == index
    ]


def hand_of(table: Table, player: str, index: int | None = None) -> auruxxx.Hand | tuple[twelve_days.Card, ...] | None:
    """Return a player's hand as entered so far: AURUXXX in round ``index`` (open or finished), 12 Days the final hand."""
    if isinstance(table, TwelveDaysTable):
        return table.hands.get(player)
    if table.current is not None and table.current.index == index:
        return table.current.hands.get(player)
    finished = finished_part(table, index if index is not None else -1)
    if isinstance(finished, auruxxx.Round) and finished.finisher != player:
        return finished.hand_of(player)
    return None


def hand_changed_since(setup: Mapping[str, JSON], events: Sequence[TableEvent], player: str, index: int | None, seen: int) -> bool:
    """Return whether a player's hand now differs from how it stood after change ``seen``: the keypad's version check.

    The same check as a correction's (``changed_since``), for what a keypad edits: another
    phone that saved this hand after the keypad opened makes saving it a choice, never a
    silent overwrite; taps about anything else leave the keypad valid.

    >>> setup = {"game": "auruxxx", "players": ["Anna", "Ben", "Cleo"]}
    >>> taps = [TableEvent(1, "finish", {"round": 0, "player": "Ben", "golden12": 1}),
    ...         TableEvent(2, "hand", {"round": 0, "player": "Anna", "hand": {"points": 6}}),
    ...         TableEvent(3, "hand", {"round": 0, "player": "Cleo", "hand": {"points": 4}})]
    >>> hand_changed_since(setup, taps, "Anna", 0, 1), hand_changed_since(setup, taps, "Anna", 0, 2)
    (True, False)
    """
    then = hand_of(fold(setup, [event for event in events if event.seq <= seen]), player, index)
    return then != hand_of(fold(setup, events), player, index)


def fold(setup: Mapping[str, JSON], events: Sequence[TableEvent]) -> Table:
    """Return the game the events add up to, or raise Illegal naming what went wrong.

    ``setup`` is a record without rounds or days: the game, its players and options.

    >>> setup = {"game": "auruxxx", "players": ["Anna", "Ben"]}
    >>> table = fold(setup, [TableEvent(1, "pass", {"round": 0, "player": "Anna"}),
    ...                      TableEvent(2, "finish", {"round": 0, "player": "Ben", "golden12": 2}),
    ...                      TableEvent(3, "hand", {"round": 0, "player": "Anna", "hand": {"points": 7}})])
    >>> record.scored(table.game)["result"]["totals"]
    {'Anna': 12, 'Ben': -10}
    """
    base = record.parse(dict(setup))
    if isinstance(base, auruxxx.Game):
        return _fold_auruxxx(base, effective(events))
    return _fold_twelve_days(base, effective(events))


def check(setup: Mapping[str, JSON], events: Sequence[TableEvent], new: TableEvent) -> Table:
    """Return the game with a new event added, or raise Illegal: the test every tap passes."""
    return fold(setup, [*events, new])


Change = tuple[str, dict[str, JSON]]
"""An event still to be stored: its kind and its content."""


def import_changes(game: record.Record) -> list[Change]:
    """Return the changes that start a game from a record: the finished rounds or days as one import,
    then the round or day being played tap by tap, so the table plays on and each tap can be undone.

    >>> game = record.parse({"game": "auruxxx", "players": ["Anna", "Ben"],
    ...                      "open_round": {"happy_man": "Ben", "passes": {"Anna": 2}}})
    >>> [(kind, payload.get("player")) for kind, payload in import_changes(game)]
    [('import', None), ('happy_man', 'Ben'), ('pass', 'Anna'), ('pass', 'Anna')]
    """
    if isinstance(game, auruxxx.Game):
        changes: list[Change] = [(IMPORT, {"record": record.serialise(replace(game, open_round=None))})]
        so_far, index = game.open_round, len(game.rounds)
        if so_far is None:
            return changes
        if so_far.happy_man is not None and so_far.happy_man != auruxxx.figure_holder(game.rounds):
            changes.append(("happy_man", {"round": index, "player": so_far.happy_man}))
        for player in game.players:
            changes += [("pass", {"round": index, "player": player}) for _ in range(so_far.passes.get(player, 0))]
        if so_far.finisher is not None:
            changes.append(("finish", {"round": index, "player": so_far.finisher, "golden12": so_far.golden12}))
        for player in game.players:
            if player in so_far.hands:
                hand = record.serialise_auruxxx_hand(so_far.hands[player])
                changes.append(("hand", {"round": index, "player": player, "hand": hand}))
        return changes
    changes = [(IMPORT, {"record": record.serialise(replace(game, open_day=None))})]
    played = game.open_day.played if game.open_day is not None else {}
    for player in game.players:
        if player in played:
            changes.append(("card", {"day": len(game.days), "player": player, "card": played[player]}))
    return changes


# --- Reading payloads --------------------------------------------------------------------


def _payload(event: TableEvent, keys: tuple[str, ...]) -> Mapping[str, JSON]:
    """Return an event's payload after checking it has exactly the expected keys."""
    place = f"events[{event.seq}]"
    payload = event.payload
    if not isinstance(payload, Mapping):
        raise Illegal([problem(place, N_("the change has no content"))])
    problems = [problem(at(place, key), N_("is required")) for key in keys if key not in payload]
    problems += [problem(at(place, key), N_("unknown key")) for key in payload if key not in keys]
    if problems:
        raise Illegal(problems)
    return payload


def _player(place: str, value: JSON, players: Sequence[str]) -> str:
    """Return a player named in a payload."""
    if not isinstance(value, str) or value not in players:
        raise Illegal([problem(place, N_("{name} is not a player of this game"), name=record.shorten(value))])
    return value


Stage = Literal["round", "day"]
"""What the games are played in: AURUXXX in rounds, 12 Days in days."""


@dataclass(frozen=True, kw_only=True)
class _StageTemplates:
    """The messages about a round or a day, each a whole sentence so that it translates well."""

    not_a_number: str
    all_finished: str
    is_finished: str
    has_not_begun: str
    not_correctable: str


_STAGE_TEMPLATES: Mapping[Stage, _StageTemplates] = {
    "round": _StageTemplates(
        not_a_number=N_("must be the number of a round"),
        all_finished=N_("all {total} rounds are finished"),
        is_finished=N_("round {number} is finished; round {current} is being played"),
        has_not_begun=N_("round {number} has not begun; round {current} is being played"),
        not_correctable=N_("only a finished round can be corrected"),
    ),
    "day": _StageTemplates(
        not_a_number=N_("must be the number of a day"),
        all_finished=N_("all {total} days are finished"),
        is_finished=N_("day {number} is finished; day {current} is being played"),
        has_not_begun=N_("day {number} has not begun; day {current} is being played"),
        not_correctable=N_("only a finished day can be corrected"),
    ),
}


def _position(place: str, value: JSON, current: int | None, stage: Stage, total: int) -> int:
    """Return the round or day an in-play event is for, refusing any but the one being played."""
    says = _STAGE_TEMPLATES[stage]
    if isinstance(value, bool) or not isinstance(value, int):
        raise Illegal([problem(place, says.not_a_number)])
    if current is None:
        raise Illegal([problem(place, says.all_finished, total=total)])
    if value != current:
        template = says.is_finished if value < current else says.has_not_begun
        raise Illegal([problem(place, template, number=value + 1, current=current + 1)])
    return value


def _finished(place: str, value: JSON, finished: int, stage: Stage) -> int:
    """Return a finished round or day a correction is for."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < finished:
        raise Illegal([problem(place, _STAGE_TEMPLATES[stage].not_correctable)])
    return value


def _imported(event: TableEvent, base: record.Record, *, first: bool) -> record.Record:
    """Return the game an import event carries, which must be this game's first change."""
    place = f"events[{event.seq}]"
    payload = _payload(event, ("record",))
    if not first:
        raise Illegal([problem(place, N_("a record can only be imported into a new game"))])
    game = record.parse(payload["record"])
    setup = record.serialise(base)
    written = record.serialise(game)
    for key in ("game", "players", "house_rules", "variant"):
        if written.get(key) != setup.get(key):
            raise Illegal([problem(at(place, key), N_("differs from the game it is imported into"))])
    for key in ("open_round", "open_day"):
        if key in written:
            raise Illegal(
                [problem(at(place, key), N_("an import holds finished rounds and days only; later taps are changes of their own"))]
            )
    return game


# --- AURUXXX -----------------------------------------------------------------------------


@dataclass
class _Round:
    """A round while it is folded; its Happy-Man holder is settled at the end."""

    passes: dict[str, int] = field(default_factory=dict)
    finisher: str | None = None
    golden12: int | None = None
    hands: dict[str, auruxxx.Hand] = field(default_factory=dict)
    holder_set: bool = False
    """Whether the figure changed hands in this round (else it stays with last round's holder)."""
    holder: str | None = None


def _check_deck(state: _Round, index: int) -> None:
    """Refuse a finish or hand that would put more cards in play than the deck holds, before the round closes."""
    assert state.finisher is not None and state.golden12 is not None
    so_far = auruxxx.Round(
        finisher=state.finisher, golden12=state.golden12, happy_man=None, passes={}, hands=dict(state.hands)
    )
    problems = auruxxx.deck_problems(at("rounds", index), so_far)
    if problems:
        raise Illegal(problems)


def _fold_auruxxx(base: auruxxx.Game, events: Sequence[TableEvent]) -> AuruxxxTable:
    """Replay AURUXXX events into finished rounds and the round being played."""
    players = base.players
    rounds: list[_Round] = [_Round()]

    def closed(r: _Round) -> bool:
        return r.finisher is not None and all(p in r.hands for p in players if p != r.finisher)

    for event in events:
        place = f"events[{event.seq}]"
        current_index: int | None = len(rounds) - 1 if len(rounds) <= auruxxx.ROUNDS else None
        if event.kind == IMPORT:
            imported = _imported(event, base, first=event is events[0])
            assert isinstance(imported, auruxxx.Game)
            rounds = [
                _Round(passes=dict(r.passes), finisher=r.finisher, golden12=r.golden12,
                       hands={p: r.hand_of(p) for p in players if p != r.finisher}, holder_set=True, holder=r.happy_man)
                for r in imported.rounds
            ] + [_Round()]
            continue
        if event.kind == "correct_round":
            payload = _payload(event, ("round", "record"))
            index = _finished(at(place, "round"), payload["round"], len(rounds) - 1, "round")
            fixed = record.read_auruxxx_round(payload["record"], players, at("rounds", index))
            rounds[index] = _Round(
                passes=dict(fixed.passes),
                finisher=fixed.finisher,
                golden12=fixed.golden12,
                hands={p: fixed.hand_of(p) for p in players if p != fixed.finisher},
                holder_set=True,
                holder=fixed.happy_man,
            )
            continue
        if event.kind not in AURUXXX_KINDS:
            raise Illegal([problem(place, N_("{kind} is not a change of an AURUXXX game"), kind=repr(event.kind))])
        keys = {"pass": ("round", "player"), "happy_man": ("round", "player"),
                "finish": ("round", "player", "golden12"), "hand": ("round", "player", "hand")}[event.kind]
        payload = _payload(event, keys)
        index = _position(at(place, "round"), payload["round"], current_index, "round", auruxxx.ROUNDS)
        player = _player(at(place, "player"), payload["player"], players)
        state = rounds[index]
        round_place = at("rounds", index)
        if event.kind == "pass":
            crosses = state.passes.get(player, 0) + 1
            problems = auruxxx.pass_problems(at(at(round_place, "passes"), player), crosses)
            if problems:
                raise Illegal(problems)
            state.passes[player] = crosses
        elif event.kind == "happy_man":
            state.holder_set, state.holder = True, player
        elif event.kind == "finish":
            golden12 = payload["golden12"]
            if isinstance(golden12, bool) or not isinstance(golden12, int):
                raise Illegal([problem(at(round_place, "golden12"), N_("must be a whole number"))])
            problems = auruxxx.finisher_golden12_problems(at(round_place, "golden12"), golden12)
            if player in state.hands:
                problems.append(
                    problem(at(round_place, "finisher"), N_("{player} has already counted a hand this round"), player=player)
                )
            if problems:
                raise Illegal(problems)
            state.finisher, state.golden12 = player, golden12
        else:
            hand_place = at(at(round_place, "hands"), player)
            if state.finisher is None:
                raise Illegal([problem(hand_place, N_("hands are counted once the finisher is known"))])
            if player == state.finisher:
                raise Illegal([problem(hand_place, N_("the finisher has no hand left to count"))])
            hand = record.read_auruxxx_hand_json(payload["hand"], hand_place)
            problems = auruxxx.hand_problems(hand_place, hand, base.house_rules)
            if problems:
                raise Illegal(problems)
            state.hands[player] = hand
        if event.kind in ("finish", "hand"):
            _check_deck(state, index)
        if closed(state) and len(rounds) <= auruxxx.ROUNDS:
            rounds.append(_Round())

    finished: list[auruxxx.Round] = []
    holder: str | None = None
    for state in rounds[:-1]:
        holder = state.holder if state.holder_set else holder
        assert state.finisher is not None and state.golden12 is not None
        finished.append(
            auruxxx.Round(
                finisher=state.finisher, golden12=state.golden12, happy_man=holder,
                passes=dict(state.passes), hands=dict(state.hands),
            )
        )
    open_state = rounds[-1]
    current = None
    so_far = None
    if len(finished) < auruxxx.ROUNDS:
        holder_now = open_state.holder if open_state.holder_set else holder
        if holder is not None and holder_now is None:
            raise Illegal(
                [problem(at(at("rounds", len(finished)), "happy_man"), N_("the Happy-Man figure never goes back to nobody"))]
            )
        current = OpenRound(
            index=len(finished), passes=dict(open_state.passes), holder=holder_now,
            finisher=open_state.finisher, golden12=open_state.golden12, hands=dict(open_state.hands),
        )
        so_far = auruxxx.RoundInProgress(
            happy_man=holder_now, passes=dict(open_state.passes),
            finisher=open_state.finisher, golden12=open_state.golden12, hands=dict(open_state.hands),
        )
        so_far = None if so_far.is_blank(holder) else so_far
    game = auruxxx.Game(
        players=players, house_rules=base.house_rules, rounds=tuple(finished[: auruxxx.ROUNDS]), open_round=so_far
    )
    problems = auruxxx.game_problems(game)
    if problems:
        raise Illegal(problems)
    return AuruxxxTable(game=game, current=current)


# --- 12 Days -----------------------------------------------------------------------------


def _fold_twelve_days(base: twelve_days.Game, events: Sequence[TableEvent]) -> TwelveDaysTable:
    """Replay 12 Days events into finished days, the open day and the final hands."""
    players, variant = base.players, base.variant
    days: list[twelve_days.Day] = []
    played: dict[str, twelve_days.Card] = {}
    hands: dict[str, tuple[twelve_days.Card, ...]] = {}

    for event in events:
        place = f"events[{event.seq}]"
        current_index = len(days) if len(days) < variant.days else None
        if event.kind == IMPORT:
            imported = _imported(event, base, first=event is events[0])
            assert isinstance(imported, twelve_days.Game)
            days = list(imported.days)
            hands = dict(imported.hands or {})
            continue
        if event.kind == "correct_day":
            payload = _payload(event, ("day", "record"))
            index = _finished(at(place, "day"), payload["day"], len(days), "day")
            day_place = at("days", index)
            fixed = record.read_twelve_days_day(payload["record"], players, day_place)
            problems = twelve_days.day_problems(day_place, fixed, players, variant)
            if problems:
                raise Illegal(problems)
            days[index] = fixed
            continue
        if event.kind not in TWELVE_DAYS_KINDS:
            raise Illegal([problem(place, N_("{kind} is not a change of a 12 Days game"), kind=repr(event.kind))])
        if event.kind == "hand":
            payload = _payload(event, ("player", "cards"))
            player = _player(at(place, "player"), payload["player"], players)
            hand_place = at("hands", player)
            cards = record.read_twelve_days_hand(payload["cards"], hand_place)
            problems = twelve_days.hand_problems(hand_place, cards, variant)
            if problems:
                raise Illegal(problems)
            hands[player] = cards
            continue
        keys = {"card": ("day", "player", "card"), "gift": ("day", "player"), "taken": ("day", "player")}[event.kind]
        payload = _payload(event, keys)
        index = _position(at(place, "day"), payload["day"], current_index, "day", variant.days)
        day_place = at("days", index)
        if event.kind == "taken":
            if played:
                raise Illegal([problem(day_place, N_("cards are already being entered for this day"))])
            taker = None if payload["player"] is None else _player(at(place, "player"), payload["player"], players)
            days.append(twelve_days.TakenDay(taken_by=taker))
            continue
        player = _player(at(place, "player"), payload["player"], players)
        if event.kind == "card":
            card_place = at(at(day_place, "played"), player)
            card = record.read_twelve_days_card(payload["card"], card_place)
            problems = twelve_days.card_problems(card_place, card, variant)
            trial = {**played, player: card}
            problems += twelve_days.deck_count_problems(at(day_place, "played"), list(trial.values()), variant, "day")
            if problems:
                raise Illegal(problems)
            played = trial
            decision = twelve_days.reveal(played)
            if len(played) == len(players) and not decision.claus_win:
                days.append(twelve_days.PlayedDay(played=played))
                played = {}
        else:
            decision = twelve_days.reveal(played)
            day = twelve_days.PlayedDay(played=played, gift_to=player)
            if len(played) < len(players) or not decision.claus_win:
                raise Illegal(
                    [problem(at(day_place, "gift_to"), N_("only a player who wins with a Claus card gives the day away"))]
                )
            problems = twelve_days.day_problems(day_place, day, players, variant)
            if problems:
                raise Illegal(problems)
            days.append(day)
            played = {}

    all_hands = len(hands) == len(players)
    game = twelve_days.Game(
        players=players, variant=variant, days=tuple(days), hands=dict(hands) if all_hands else None,
        open_day=twelve_days.DayInProgress(played=dict(played)) if played else None,
    )
    problems = twelve_days.game_problems(game)
    problems += twelve_days.deck_count_problems("hands", [c for h in hands.values() for c in h], variant, "hands") if not all_hands else []
    if problems:
        raise Illegal(problems)
    current = OpenDay(index=len(days), played=played) if len(days) < variant.days else None
    return TwelveDaysTable(game=game, current=current, hands=hands)
