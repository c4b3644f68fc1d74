"""AURUXXX – Die Goldene Zwölf: the cards and rounds, round scores and game totals (what a round may contain: ``legal``).

2–6 players, 3 rounds, the lowest total wins. A round ends when one player, the finisher,
lays one or more Golden 12 as their last cards; everyone else counts the cards left in
hand, every pass cross costs 5, and the holder of the Happy-Man figure halves the round.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rules.points import HalfPoints, halve, total, whole

MIN_PLAYERS = 2
MAX_PLAYERS = 6
ROUNDS = 3
MAX_PASSES = 3
PASS_COST = 5
GOLDEN12_BONUS = -5
GOLDEN12_IN_DECK = 5
NUMBER_VALUES = range(13)

NUMBER_COPIES = 10
"""Each number 0–12 comes in five colours, twice."""
NUMBER_CARDS_IN_DECK = NUMBER_COPIES * len(NUMBER_VALUES)
FIFTY_IN_DECK = 5
HAPPY_MAN_CARDS_IN_DECK = 5
ACTION_AND_TWO_IN_DECK = 15
"""The "2" cards and the three action cards share 15 cards; the split is not published."""

FIFTY_POINTS = 50
ACTION_POINTS = 25
HAPPY_MAN_CARD_POINTS = 25


class Halving(enum.Enum):
    """What the Happy-Man holder halves; the two differ only when the holder also finished."""

    NET = "net"
    """Halve the round's points after the Golden-12 bonus (default)."""
    PENALTY = "penalty"
    """Halve hand and crosses, then add the Golden-12 bonus."""


class Rounding(enum.Enum):
    """What happens to half a point after halving."""

    EXACT = "exact"
    """Keep the half point: 17 becomes 8.5 (default)."""
    FLOOR = "floor"
    """Round down: 17 becomes 8."""
    CEIL = "ceil"
    """Round up: 17 becomes 9."""


GOLDEN12_IN_HAND_CHOICES = (12, 0, 25)
TWO_IN_HAND_CHOICES = (2, 25)


@dataclass(frozen=True, kw_only=True)
class HouseRules:
    """Points the rulebook leaves open; the table settles them when it creates a game."""

    golden12_in_hand: int = 12
    """Points of a Golden 12 still in a non-finisher's hand: 12, 0 or 25."""
    two_in_hand: int = 2
    """Points of a "2" (draw two) card left in hand: 2 or 25."""
    halving: Halving = Halving.NET
    rounding: Rounding = Rounding.EXACT


@dataclass(frozen=True, kw_only=True)
class Cards:
    """The cards left in a hand at the end of a round, as the table counts them."""

    numbers: tuple[int, ...] = ()
    fifty: int = 0
    action: int = 0
    happy_man: int = 0
    two: int = 0
    golden12: int = 0


@dataclass(frozen=True)
class CountedHand:
    """A hand whose total the table counted and typed in, instead of entering the cards."""

    points: int


Hand = Cards | CountedHand
EMPTY_HAND = Cards()


@dataclass(frozen=True, kw_only=True)
class Round:
    """One finished round: who ended it, with how many Golden 12, and what everyone else had."""

    finisher: str
    golden12: int
    happy_man: str | None
    """Who held the Happy-Man figure when the round ended; None while nobody has held it."""
    passes: Mapping[str, int] = field(default_factory=dict)
    """Pass crosses per player; a player left out passed 0 times."""
    hands: Mapping[str, Hand] = field(default_factory=dict)
    """Hands of the non-finishers; a player left out had an empty hand."""

    def passes_of(self, player: str) -> int:
        """Return the crosses a player made this round."""
        return self.passes.get(player, 0)

    def hand_of(self, player: str) -> Hand:
        """Return a non-finisher's hand (empty when none was entered)."""
        return self.hands.get(player, EMPTY_HAND)


@dataclass(frozen=True, kw_only=True)
class RoundInProgress:
    """What has been tapped of the round being played; a backup keeps it, and it scores nothing."""

    happy_man: str | None
    """Who holds the Happy-Man figure so far; None while nobody has held it."""
    passes: Mapping[str, int] = field(default_factory=dict)
    """Pass crosses so far; a player left out passed 0 times."""
    finisher: str | None = None
    """Who ended the round, once known."""
    golden12: int | None = None
    """How many Golden 12 the finisher laid, once known."""
    hands: Mapping[str, Hand] = field(default_factory=dict)
    """Hands counted so far (only once the finisher is known); a player left out is not counted yet."""

    def is_blank(self, holder_before: str | None) -> bool:
        """Return whether nothing has happened in the round yet: no cross, no finisher, the figure where it was."""
        return (
            not any(self.passes.values())
            and self.finisher is None
            and self.golden12 is None
            and not self.hands
            and self.happy_man == holder_before
        )


@dataclass(frozen=True, kw_only=True)
class Game:
    """The players in seating order, the table's house rules, the finished rounds and the round being played."""

    players: tuple[str, ...]
    house_rules: HouseRules = HouseRules()
    rounds: tuple[Round, ...] = ()
    open_round: RoundInProgress | None = None
    """What has been tapped of the round after the finished ones, if the record carries it."""


def holder_after(holder: str | None, round_: Round) -> str | None:
    """Return who holds the Happy-Man figure after a round, given who held it before: once held, it never goes back to nobody.

    >>> holder_after("B", Round(finisher="B", golden12=1, happy_man=None)), holder_after("B", Round(finisher="B", golden12=1, happy_man="A"))
    ('B', 'A')
    """
    return round_.happy_man or holder


def figure_holder(rounds: Sequence[Round]) -> str | None:
    """Return who holds the Happy-Man figure after these rounds (None while nobody has held it).

    >>> figure_holder([Round(finisher="A", golden12=1, happy_man="B"), Round(finisher="B", golden12=1, happy_man=None)])
    'B'
    """
    holder: str | None = None
    for round_ in rounds:
        holder = holder_after(holder, round_)
    return holder


def nobody_may_hold_after(rounds: Sequence[Round]) -> bool:
    """Return whether the round after ``rounds`` may end with nobody holding the Happy-Man figure: only while nobody has held it.

    >>> nobody_may_hold_after([]), nobody_may_hold_after([Round(finisher="A", golden12=1, happy_man="B")])
    (True, False)
    """
    return figure_holder(rounds) is None


@dataclass(frozen=True, kw_only=True)
class RoundScore:
    """A player's round score together with every step that led to it, for the sheet to explain."""

    hand: int | None
    """Points in hand; None for the finisher, who has no hand."""
    passes: int
    penalty: int
    """Hand points plus 5 per cross."""
    golden12: int
    """Golden 12 the finisher laid; 0 for everyone else."""
    bonus: int
    """−5 per Golden 12 for the finisher, else 0."""
    happy_man: bool
    """Whether this player held the figure when the round ended."""
    halved: bool
    """Whether the holder's round was halved: in the net order a sub above 0, in the penalty order a penalty above 0."""
    points: HalfPoints

    @property
    def sub(self) -> int:
        """Return penalty plus bonus, the points before any halving."""
        return self.penalty + self.bonus


@dataclass(frozen=True, kw_only=True)
class Result:
    """Points per round and in total, and who wins (or leads, while rounds are missing)."""

    rounds: tuple[Mapping[str, RoundScore], ...]
    totals: Mapping[str, HalfPoints]
    winners: tuple[str, ...]
    complete: bool


def hand_points(hand: Hand, house_rules: HouseRules = HouseRules()) -> int:
    """Return the points of the cards left in a hand.

    >>> hand_points(Cards(numbers=(7, 0, 12)))
    19
    >>> hand_points(Cards(numbers=(7,), fifty=1, action=1, happy_man=1))
    107
    >>> hand_points(Cards(two=1, golden12=1), HouseRules(two_in_hand=25, golden12_in_hand=0))
    25
    >>> hand_points(CountedHand(31))
    31
    """
    if isinstance(hand, CountedHand):
        return hand.points
    return (
        sum(hand.numbers)
        + FIFTY_POINTS * hand.fifty
        + ACTION_POINTS * hand.action
        + HAPPY_MAN_CARD_POINTS * hand.happy_man
        + house_rules.two_in_hand * hand.two
        + house_rules.golden12_in_hand * hand.golden12
    )


def _halve(points: int, rounding: Rounding) -> HalfPoints:
    """Return half of whole points, as half-points, rounded as the table chose."""
    if rounding is Rounding.FLOOR:
        return whole(points // 2)
    if rounding is Rounding.CEIL:
        return whole(-(-points // 2))
    return halve(points)


def score_player(round_: Round, player: str, house_rules: HouseRules = HouseRules()) -> RoundScore:
    """Return one player's score for a finished round.

    >>> score_player(Round(finisher="A", golden12=3, happy_man=None, passes={"A": 1}), "A").points
    -20
    >>> hm = Round(finisher="A", golden12=1, happy_man="B", hands={"B": Cards(numbers=(9, 8))})
    >>> score_player(hm, "B").points, score_player(hm, "B", HouseRules(rounding=Rounding.FLOOR)).points
    (17, 16)

    Halving is a benefit: the net order leaves a sub of 0 or less whole, the penalty order
    always halves the penalty (never negative), whatever the bonus:

    >>> own = Round(finisher="A", golden12=2, happy_man="A", passes={"A": 1})
    >>> score_player(own, "A").points / 2, score_player(own, "A", HouseRules(halving=Halving.PENALTY)).points / 2
    (-5.0, -7.5)
    """
    is_finisher = player == round_.finisher
    hand = None if is_finisher else hand_points(round_.hand_of(player), house_rules)
    passes = round_.passes_of(player)
    penalty = (hand or 0) + PASS_COST * passes
    golden12 = round_.golden12 if is_finisher else 0
    bonus = GOLDEN12_BONUS * golden12
    holds_figure = round_.happy_man == player
    points = whole(penalty + bonus)
    halved = False
    if holds_figure and house_rules.halving is Halving.NET and penalty + bonus > 0:
        halved = True
        points = _halve(penalty + bonus, house_rules.rounding)
    elif holds_figure and house_rules.halving is Halving.PENALTY and penalty > 0:
        halved = True
        points = total((_halve(penalty, house_rules.rounding), whole(bonus)))
    return RoundScore(
        hand=hand,
        passes=passes,
        penalty=penalty,
        golden12=golden12,
        bonus=bonus,
        happy_man=holds_figure,
        halved=halved,
        points=points,
    )


def score_round(round_: Round, players: Sequence[str], house_rules: HouseRules = HouseRules()) -> dict[str, RoundScore]:
    """Return every player's score for a finished round, in seating order.

    >>> r = Round(finisher="P1", golden12=1, happy_man=None, passes={"P2": 1},
    ...           hands={"P2": Cards(numbers=(7, 0, 12)), "P3": Cards(numbers=(3,), fifty=1)})
    >>> {p: s.points // 2 for p, s in score_round(r, ["P1", "P2", "P3"]).items()}
    {'P1': -5, 'P2': 24, 'P3': 53}
    """
    return {player: score_player(round_, player, house_rules) for player in players}


def score_game(game: Game) -> Result:
    """Return round scores, totals and the winners (lowest total; ties share the win).

    >>> g = Game(players=("A", "B"), rounds=(
    ...     Round(finisher="B", golden12=1, happy_man=None, hands={"A": CountedHand(20)}),
    ...     Round(finisher="A", golden12=1, happy_man=None, hands={"B": CountedHand(25)}),
    ...     Round(finisher="B", golden12=1, happy_man=None, hands={"A": CountedHand(30)})))
    >>> r = score_game(g)
    >>> r.totals, r.winners, r.complete
    ({'A': 90, 'B': 30}, ('B',), True)
    """
    rounds = tuple(score_round(r, game.players, game.house_rules) for r in game.rounds)
    totals = {player: total(r[player].points for r in rounds) for player in game.players}
    best = min(totals.values())
    winners = tuple(player for player in game.players if totals[player] == best)
    return Result(rounds=rounds, totals=totals, winners=winners, complete=len(rounds) == ROUNDS)


def max_hand_points(house_rules: HouseRules = HouseRules()) -> int:
    """Return the most a single hand could count with the whole deck in it (a sanity bound).

    >>> max_hand_points(), max_hand_points(HouseRules(golden12_in_hand=25))
    (1578, 1630)
    """
    return (
        NUMBER_COPIES * sum(NUMBER_VALUES)
        + FIFTY_POINTS * FIFTY_IN_DECK
        + max(ACTION_POINTS, house_rules.two_in_hand) * ACTION_AND_TWO_IN_DECK
        + HAPPY_MAN_CARD_POINTS * HAPPY_MAN_CARDS_IN_DECK
        + house_rules.golden12_in_hand * (GOLDEN12_IN_DECK - 1)
    )


# --- Round the table ---------------------------------------------------------------------


def dealer(first_dealer: int, round_index: int, players: int) -> int:
    """Return the seat that deals a round: the deal moves one seat on with every round.

    A rematch goes on where the last game stopped, so its first dealer is ``dealer(first, ROUNDS, n)``.

    >>> dealer(0, 0, 3), dealer(0, 2, 3), dealer(2, 1, 3), dealer(1, ROUNDS, 4)
    (0, 2, 0, 0)
    """
    return (first_dealer + round_index) % players


def starter(first_dealer: int, round_index: int, players: int) -> int:
    """Return the seat that plays first in a round: the one after the dealer.

    >>> starter(0, 0, 3), starter(0, 2, 3)
    (1, 0)
    """
    return (dealer(first_dealer, round_index, players) + 1) % players


def first_player(first_dealer: int, players: int) -> int:
    """Return the seat that plays first in the game: the one after the first dealer.

    >>> first_player(2, 3)
    0
    """
    return starter(first_dealer, 0, players)


def retyped_hand(round_: Round, player: str, points: int, house_rules: HouseRules = HouseRules()) -> Hand:
    """Return the hand a correction means when it shows a player's hand as a typed total.

    Typing the same total again keeps the cards entered before, so correcting something else
    does not reduce them to a number; a new total replaces them (so does any total for the
    player who ended the round, who had no hand).

    >>> r = Round(finisher="A", golden12=1, happy_man=None, hands={"B": Cards(numbers=(3, 4))})
    >>> retyped_hand(r, "B", 7), retyped_hand(r, "B", 8)
    (Cards(numbers=(3, 4), fifty=0, action=0, happy_man=0, two=0, golden12=0), CountedHand(points=8))
    """
    before = round_.hand_of(player)
    if player != round_.finisher and hand_points(before, house_rules) == points:
        return before
    return CountedHand(points)
