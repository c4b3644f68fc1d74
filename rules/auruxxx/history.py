"""AURUXXX's events folded into finished rounds and the round being played.

Event payloads (``round`` counts from 0): ``pass`` {round, player} · ``happy_man`` {round,
player} · ``finish`` {round, player, golden12} · ``hand`` {round, player, hand} (a record
hand) · ``correct_round`` {round, record} (a record round, replacing a finished round as a
whole). Undo and import are folded away by ``rules.history`` before these are read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from rules.auruxxx.legal import deck_problems, finisher_golden12_problems, game_problems, hand_problems, pass_problems
from rules.auruxxx.record import read_hand, read_round, serialise_hand
from rules.auruxxx.score import ROUNDS, Game, Hand, Round, RoundInProgress, figure_holder
from rules.games import Change, TableEvent
from rules.history import Stages, finished, payload, player, position
from rules.problems import N_, Illegal, at, problem

_PAYLOAD_KEYS = {
    "pass": ("round", "player"),
    "happy_man": ("round", "player"),
    "finish": ("round", "player", "golden12"),
    "hand": ("round", "player", "hand"),
}
ROUNDS_SAY = Stages(
    not_a_number=N_("must be the number of a round"),
    all_finished=N_("all {total} rounds are finished"),
    is_finished=N_("round {number} is finished; round {current} is being played"),
    has_not_begun=N_("round {number} has not begun; round {current} is being played"),
    not_correctable=N_("only a finished round can be corrected"),
)


@dataclass(frozen=True, kw_only=True)
class OpenRound:
    """The AURUXXX round being played: crosses so far, and the finisher and hands once known."""

    index: int
    passes: Mapping[str, int]
    holder: str | None
    """Who holds the Happy-Man figure right now."""
    finisher: str | None = None
    golden12: int | None = None
    hands: Mapping[str, Hand] = field(default_factory=dict)

    def waiting_for(self, players: Sequence[str]) -> tuple[str, ...]:
        """Return the players whose hand is still missing (empty until the finisher is known)."""
        if self.finisher is None:
            return ()
        return tuple(p for p in players if p != self.finisher and p not in self.hands)


@dataclass(frozen=True, kw_only=True)
class AuruxxxTable:
    """An AURUXXX game as the events add up: finished rounds and the round being played."""

    game: Game
    current: OpenRound | None
    """None once all three rounds are finished."""


@dataclass
class _Round:
    """A round while it is folded; its Happy-Man holder is settled at the end."""

    passes: dict[str, int] = field(default_factory=dict)
    finisher: str | None = None
    golden12: int | None = None
    hands: dict[str, Hand] = field(default_factory=dict)
    holder_set: bool = False
    """Whether the figure changed hands in this round (else it stays with last round's holder)."""
    holder: str | None = None

    @classmethod
    def of(cls, round_: Round, players: Sequence[str]) -> _Round:
        """Return a finished round (imported or corrected) in the shape the fold goes on with."""
        return cls(
            passes=dict(round_.passes),
            finisher=round_.finisher,
            golden12=round_.golden12,
            hands={p: round_.hand_of(p) for p in players if p != round_.finisher},
            holder_set=True,
            holder=round_.happy_man,
        )


def _check_deck(state: _Round, index: int) -> None:
    """Refuse a finish or hand that would put more cards in play than the deck holds, before the round closes."""
    assert state.finisher is not None and state.golden12 is not None
    so_far = Round(finisher=state.finisher, golden12=state.golden12, happy_man=None, passes={}, hands=dict(state.hands))
    problems = deck_problems(at("rounds", index), so_far)
    if problems:
        raise Illegal(problems)


def fold(start: Game, events: Sequence[TableEvent]) -> AuruxxxTable:
    """Replay AURUXXX events, on from the rounds of ``start``, into finished rounds and the round being played."""
    players = start.players
    rounds: list[_Round] = [_Round.of(r, players) for r in start.rounds] + [_Round()]
    for event in events:
        place = f"events[{event.seq}]"
        if event.kind == "correct_round":
            content = payload(event, ("round", "record"))
            index = finished(at(place, "round"), content["round"], len(rounds) - 1, ROUNDS_SAY)
            rounds[index] = _Round.of(read_round(content["record"], players, at("rounds", index)), players)
            continue
        current_index = len(rounds) - 1 if len(rounds) <= ROUNDS else None
        if _play(rounds[-1], event, current_index, start):
            rounds.append(_Round())

    done: list[Round] = []
    holder: str | None = None
    for state in rounds[:-1]:
        holder = state.holder if state.holder_set else holder
        assert state.finisher is not None and state.golden12 is not None
        done.append(
            Round(
                finisher=state.finisher,
                golden12=state.golden12,
                happy_man=holder,
                passes=dict(state.passes),
                hands=dict(state.hands),
            )
        )
    return _table(start, done, rounds[-1], holder)


def step(table: AuruxxxTable, event: TableEvent) -> AuruxxxTable | None:
    """Return the table with one more tap played on the round in play, as ``fold`` would; None for a correction.

    A correction can change an earlier round's Happy-Man holder that later rounds inherit, so
    only the whole fold can tell what it leads to.
    """
    if event.kind == "correct_round":
        return None
    game, current = table.game, table.current
    holder = game.rounds[-1].happy_man if game.rounds else None
    if current is None:
        state = _Round()
    else:
        state = _Round(
            passes=dict(current.passes),
            finisher=current.finisher,
            golden12=current.golden12,
            hands=dict(current.hands),
            holder_set=True,
            holder=current.holder,
        )
    done = list(game.rounds)
    if _play(state, event, None if current is None else current.index, game):
        assert state.finisher is not None and state.golden12 is not None
        done.append(
            Round(
                finisher=state.finisher,
                golden12=state.golden12,
                happy_man=state.holder,
                passes=dict(state.passes),
                hands=dict(state.hands),
            )
        )
        holder, state = state.holder, _Round()
    return _table(game, done, state, holder)


def _play(state: _Round, event: TableEvent, index: int | None, game: Game) -> bool:
    """Play one tap on the round in play (number ``index``, None once all are finished); return whether it closed the round."""
    place = f"events[{event.seq}]"
    players = game.players
    if event.kind not in _PAYLOAD_KEYS:
        raise Illegal([problem(place, N_("{kind} is not a change of an AURUXXX game"), kind=repr(event.kind))])
    content = payload(event, _PAYLOAD_KEYS[event.kind])
    index = position(at(place, "round"), content["round"], index, ROUNDS_SAY, ROUNDS)
    who = player(at(place, "player"), content["player"], players)
    round_place = at("rounds", index)
    if event.kind == "pass":
        crosses = state.passes.get(who, 0) + 1
        problems = pass_problems(at(at(round_place, "passes"), who), crosses)
        if problems:
            raise Illegal(problems)
        state.passes[who] = crosses
    elif event.kind == "happy_man":
        state.holder_set, state.holder = True, who
    elif event.kind == "finish":
        golden12 = content["golden12"]
        if isinstance(golden12, bool) or not isinstance(golden12, int):
            raise Illegal([problem(at(round_place, "golden12"), N_("must be a whole number"))])
        problems = finisher_golden12_problems(at(round_place, "golden12"), golden12)
        if who in state.hands:
            problems.append(problem(at(round_place, "finisher"), N_("{player} has already counted a hand this round"), player=who))
        if problems:
            raise Illegal(problems)
        state.finisher, state.golden12 = who, golden12
    else:
        hand_place = at(at(round_place, "hands"), who)
        if state.finisher is None:
            raise Illegal([problem(hand_place, N_("hands are counted once the finisher is known"))])
        if who == state.finisher:
            raise Illegal([problem(hand_place, N_("the finisher has no hand left to count"))])
        hand = read_hand(content["hand"], hand_place)
        problems = hand_problems(hand_place, hand, game.house_rules)
        if problems:
            raise Illegal(problems)
        state.hands[who] = hand
    if event.kind in ("finish", "hand"):
        _check_deck(state, index)
    return state.finisher is not None and all(p in state.hands for p in players if p != state.finisher)


def _table(game: Game, done: list[Round], open_state: _Round, holder: str | None) -> AuruxxxTable:
    """Return the table of the finished rounds and the round in play, checked as a whole; ``holder`` held the figure last."""
    current = None
    so_far = None
    if len(done) < ROUNDS:
        holder_now = open_state.holder if open_state.holder_set else holder
        if holder is not None and holder_now is None:
            raise Illegal([problem(at(at("rounds", len(done)), "happy_man"), N_("the Happy-Man figure never goes back to nobody"))])
        current = OpenRound(
            index=len(done),
            passes=dict(open_state.passes),
            holder=holder_now,
            finisher=open_state.finisher,
            golden12=open_state.golden12,
            hands=dict(open_state.hands),
        )
        so_far = RoundInProgress(
            happy_man=holder_now,
            passes=dict(open_state.passes),
            finisher=open_state.finisher,
            golden12=open_state.golden12,
            hands=dict(open_state.hands),
        )
        so_far = None if so_far.is_blank(holder) else so_far
    finished_game = Game(players=game.players, house_rules=game.house_rules, rounds=tuple(done[:ROUNDS]), open_round=so_far)
    problems = game_problems(finished_game)
    if problems:
        raise Illegal(problems)
    return AuruxxxTable(game=finished_game, current=current)


def stages(game: Game) -> tuple[Round, ...]:
    """Return the finished rounds: AURUXXX is played in rounds."""
    return game.rounds


def split_open(game: Game) -> tuple[Game, list[Change]]:
    """Return the game without the round being played, and the taps that play that round again.

    >>> so_far = RoundInProgress(happy_man="Ben", passes={"Anna": 1}, finisher="Ben", golden12=1)
    >>> finished, taps = split_open(Game(players=("Anna", "Ben"), open_round=so_far))
    >>> finished.open_round, [kind for kind, _ in taps]
    (None, ['happy_man', 'pass', 'finish'])
    """
    finished = replace(game, open_round=None)
    so_far, index = game.open_round, len(game.rounds)
    if so_far is None:
        return finished, []
    taps: list[Change] = []
    if so_far.happy_man is not None and so_far.happy_man != figure_holder(game.rounds):
        taps.append(("happy_man", {"round": index, "player": so_far.happy_man}))
    for who in game.players:
        taps += [("pass", {"round": index, "player": who}) for _ in range(so_far.passes.get(who, 0))]
    if so_far.finisher is not None:
        taps.append(("finish", {"round": index, "player": so_far.finisher, "golden12": so_far.golden12}))
    for who in game.players:
        if who in so_far.hands:
            taps.append(("hand", {"round": index, "player": who, "hand": serialise_hand(so_far.hands[who])}))
    return finished, taps


def may_enter_hand(table: AuruxxxTable, player: str) -> bool:
    """Return whether a player's hand can be entered now: the round being played has ended, by someone else."""
    return table.current is not None and table.current.finisher is not None and table.current.finisher != player


def hand_in(table: AuruxxxTable, player: str, index: int) -> Hand | None:
    """Return a player's hand in round ``index`` as entered so far (the round open or finished), or None.

    What a hand keypad edits, for its version check (``views.table.taps.unmoved_since``).
    """
    if table.current is not None and table.current.index == index:
        return table.current.hands.get(player)
    if 0 <= index < len(table.game.rounds) and table.game.rounds[index].finisher != player:
        return table.game.rounds[index].hand_of(player)
    return None


def holder_in(table: AuruxxxTable, index: int) -> str | None:
    """Return who holds the Happy-Man figure in round ``index`` (open or finished), or None.

    What a Happy-Man tap moves, for its version check (``views.table.taps.unmoved_since``).
    """
    if table.current is not None and table.current.index == index:
        return table.current.holder
    return table.game.rounds[index].happy_man if 0 <= index < len(table.game.rounds) else None


def finisher_in(table: AuruxxxTable, index: int) -> tuple[str, int] | None:
    """Return who ended round ``index`` and with how many Golden 12, or None while nobody has.

    What the round's end moves, for its version check (``views.table.taps.unmoved_since``).
    """
    if table.current is not None and table.current.index == index:
        current = table.current
        return (current.finisher, current.golden12) if current.finisher is not None and current.golden12 is not None else None
    if 0 <= index < len(table.game.rounds):
        round_ = table.game.rounds[index]
        return round_.finisher, round_.golden12
    return None
