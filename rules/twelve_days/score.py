"""12 Days: who wins each day, where unwon days go, the hand bonuses and the variants.

All players reveal a gift card at once; values played more than once cancel, and the lowest
value played exactly once takes the day card (and any pot of unwon days). A Claus card
counts 0 and must give its win away. At the end, whoever holds the most cards of a value
scores that value. The highest total wins.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

Claus = Literal["santa", "mrs_claus"]
SANTA: Claus = "santa"
MRS_CLAUS: Claus = "mrs_claus"
Card = int | Claus
"""A gift card: its value 1–12, or one of the two Claus cards worth 0."""
CLAUS_CARDS: tuple[Claus, ...] = (SANTA, MRS_CLAUS)


@dataclass(frozen=True, kw_only=True)
class Variant:
    """A way of playing 12 Days: how many players, days and cards of each kind."""

    name: str
    label: str
    min_players: int
    max_players: int
    days: int
    """Days played, and the highest gift and day card."""
    decks: int = 1
    """How many copies of the gift cards are shuffled together."""
    clauses: bool = True

    @property
    def hand_size(self) -> int:
        """Return the cards each player holds, as many as there are days."""
        return self.days

    @property
    def values(self) -> range:
        """Return the gift values in play."""
        return range(1, self.days + 1)

    def copies(self, card: Card) -> int:
        """Return how many copies of a card the deck holds (0 for a card not in this variant).

        >>> STANDARD.copies(7), EIGHT_PLAYERS.copies(7), EIGHT_NIGHTS.copies(9), EIGHT_NIGHTS.copies(SANTA)
        (7, 14, 0, 0)
        """
        if isinstance(card, str):
            return self.decks if self.clauses and card in CLAUS_CARDS else 0
        return card * self.decks if card in self.values else 0

    @property
    def cards(self) -> tuple[Card, ...]:
        """Return every distinct card of this variant, lowest first."""
        clauses: tuple[Card, ...] = CLAUS_CARDS if self.clauses else ()
        return clauses + tuple(self.values)

    @property
    def day_points_total(self) -> int:
        """Return the points of all day cards together (78, or 36 in 8 Nights)."""
        return sum(range(1, self.days + 1))


STANDARD = Variant(name="standard", label="12 Days", min_players=3, max_players=5, days=12)
EIGHT_NIGHTS = Variant(name="8nights", label="8 Nights", min_players=3, max_players=4, days=8, clauses=False)
EIGHT_PLAYERS = Variant(name="8players", label="8 Players", min_players=6, max_players=8, days=12, decks=2)
VARIANTS: Mapping[str, Variant] = {v.name: v for v in (STANDARD, EIGHT_NIGHTS, EIGHT_PLAYERS)}


def variant_name(game: Game) -> str | None:
    """Return the variant's own name, or None for the standard game.

    >>> variant_name(Game(players=("A", "B", "C"), variant=EIGHT_NIGHTS)), variant_name(Game(players=("A", "B", "C")))
    ('8 Nights', None)
    """
    return None if game.variant is STANDARD else game.variant.label


def find_variant(name: str) -> Variant:
    """Return the variant of that name.

    >>> find_variant("8nights").days
    8
    """
    return VARIANTS[name]


def copies_left(variant: Variant, played: Mapping[str, Card]) -> dict[Card, int]:
    """Return how many copies of each card of the variant are still unrevealed on a day: the deck's, less those revealed.

    >>> copies_left(EIGHT_NIGHTS, {"A": 1, "B": 3})[1], copies_left(STANDARD, {"A": SANTA})[SANTA]
    (0, 0)
    """
    revealed = Counter(played.values())
    return {card: variant.copies(card) - revealed[card] for card in variant.cards}


def passes_to(players: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """Return who passes a card to whom before a day: everyone to the next player in seating order, the last to the first.

    >>> passes_to(["A", "B", "C"])
    (('A', 'B'), ('B', 'C'), ('C', 'A'))
    """
    return tuple((giver, players[(seat + 1) % len(players)]) for seat, giver in enumerate(players))


def card_value(card: Card) -> int:
    """Return what a card counts when the day is decided: its number, 0 for a Claus.

    >>> card_value(7), card_value(SANTA)
    (7, 0)
    """
    return 0 if isinstance(card, str) else card


@dataclass(frozen=True, kw_only=True)
class PlayedDay:
    """A day whose revealed cards were entered, one per player."""

    played: Mapping[str, Card]
    gift_to: str | None = None
    """Who the Claus winner gave the day card(s) to; None unless a Claus won."""


@dataclass(frozen=True, kw_only=True)
class TakenDay:
    """A day entered quickly: only who received the day card(s), or None when nobody won."""

    taken_by: str | None


Day = PlayedDay | TakenDay

Seen = Literal["day", "hands"]
"""Where cards were counted against the deck: on one day's table, or in the final hands."""


@dataclass(frozen=True, kw_only=True)
class DayInProgress:
    """The cards revealed so far on the day being played; a backup keeps them, and they score nothing."""

    played: Mapping[str, Card] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class Game:
    """Players in seating order, the variant, the days so far, the day being played and, at the end, every hand."""

    players: tuple[str, ...]
    variant: Variant = STANDARD
    days: tuple[Day, ...] = ()
    hands: Mapping[str, tuple[Card, ...]] | None = None
    open_day: DayInProgress | None = None
    """The cards revealed so far on the day after the finished ones, if the record carries them."""


@dataclass(frozen=True, kw_only=True)
class Reveal:
    """What the revealed cards of one day decide."""

    cancelled: frozenset[int]
    """Values played by more than one player (a Claus counts 0)."""
    winner: str | None
    winning_card: Card | None
    claus_win: bool


def reveal(played: Mapping[str, Card]) -> Reveal:
    """Decide a day: values played twice or more cancel, the lowest value played once wins.

    >>> reveal({"A": 3, "B": 3, "C": 5, "D": 10}).winner
    'C'
    >>> r = reveal({"A": SANTA, "B": MRS_CLAUS, "C": 4, "D": 8})
    >>> r.winner, sorted(r.cancelled), r.claus_win
    ('C', [0], False)
    >>> reveal({"A": 4, "B": 4, "C": 4}).winner is None
    True
    """
    counts = Counter(card_value(card) for card in played.values())
    cancelled = frozenset(value for value, count in counts.items() if count > 1)
    single = [value for value, count in counts.items() if count == 1]
    if not single:
        return Reveal(cancelled=cancelled, winner=None, winning_card=None, claus_win=False)
    lowest = min(single)
    winner, card = next((p, c) for p, c in played.items() if card_value(c) == lowest)
    return Reveal(cancelled=cancelled, winner=winner, winning_card=card, claus_win=isinstance(card, str))


@dataclass(frozen=True, kw_only=True)
class DayResult:
    """Where one day's card went: to whom, with which earlier days from the pot."""

    day: int
    """The day number, 1 upwards; the day card is worth as many points."""
    reveal: Reveal | None
    """The decision from the cards, or None for a day entered quickly."""
    receiver: str | None
    """Who received the day card(s); None when the day went into the pot (or was lost)."""
    days_taken: tuple[int, ...]
    """Day numbers the receiver took: the pot, then this day."""
    pot_after: tuple[int, ...]
    """Day numbers waiting for the next winner after this day."""

    @property
    def points(self) -> int:
        """Return the points the receiver got this day."""
        return sum(self.days_taken)


@dataclass(frozen=True, kw_only=True)
class Majority:
    """Who holds the most cards of one value at the end, and scores it."""

    value: int
    counts: Mapping[str, int]
    holders: tuple[str, ...]
    """Everyone tied for the most; empty when nobody holds the value."""

    @property
    def tied(self) -> bool:
        """Return whether several players share the most."""
        return len(self.holders) > 1


@dataclass(frozen=True, kw_only=True)
class Result:
    """Day-by-day points, the hand bonuses, totals and the winners."""

    days: tuple[DayResult, ...]
    rounds: tuple[Mapping[str, int], ...]
    """Points each player received on each day."""
    day_points: Mapping[str, int]
    majorities: tuple[Majority, ...]
    """One per value, once the hands are in; empty before."""
    bonus: Mapping[str, int]
    totals: Mapping[str, int]
    pot: tuple[int, ...]
    """Days still waiting for a winner (in a running game)."""
    lost: int
    """Day points nobody can get any more: an unwon last day and the pot it carried."""
    winners: tuple[str, ...]
    complete: bool


def resolve_days(days: Sequence[Day], variant: Variant = STANDARD) -> tuple[DayResult, ...]:
    """Follow the day cards through the days: winners take the pot, unwon days join it.

    >>> results = resolve_days([PlayedDay(played={"A": 5, "B": 2, "C": 9}),
    ...                         PlayedDay(played={"A": 4, "B": 4, "C": 4}),
    ...                         PlayedDay(played={"A": 1, "B": 6, "C": 9})])
    >>> results[2].receiver, results[2].days_taken, results[2].points
    ('A', (2, 3), 5)
    """
    results: list[DayResult] = []
    pot: tuple[int, ...] = ()
    for index, day in enumerate(days):
        number = index + 1
        decision: Reveal | None = None
        if isinstance(day, PlayedDay):
            decision = reveal(day.played)
            receiver = day.gift_to if decision.claus_win else decision.winner
        else:
            receiver = day.taken_by
        if receiver is None:
            pot = pot + (number,)
            results.append(DayResult(day=number, reveal=decision, receiver=None, days_taken=(), pot_after=pot))
        else:
            results.append(DayResult(day=number, reveal=decision, receiver=receiver, days_taken=pot + (number,), pot_after=()))
            pot = ()
    return tuple(results)


def majorities(hands: Mapping[str, Sequence[Card]], players: Sequence[str], variant: Variant = STANDARD) -> tuple[Majority, ...]:
    """Return, value by value, who holds the most cards of it (ties all score).

    >>> m = majorities({"A": [5, 5, 3], "B": [5, 5, 1], "C": [3, 3]}, ["A", "B", "C"])
    >>> m[4].holders, m[2].holders, m[0].holders, m[1].holders
    (('A', 'B'), ('C',), ('B',), ())
    """
    result = []
    for value in variant.values:
        counts = {player: sum(1 for card in hands.get(player, ()) if card == value) for player in players}
        most = max(counts.values(), default=0)
        holders = tuple(p for p in players if most > 0 and counts[p] == most)
        result.append(Majority(value=value, counts=counts, holders=holders))
    return tuple(result)


def score_game(game: Game) -> Result:
    """Return day points, hand bonuses, totals and the winners (highest total; ties share).

    >>> g = Game(players=("A", "B", "C"), days=(PlayedDay(played={"A": SANTA, "B": 2, "C": 7}, gift_to="C"),))
    >>> r = score_game(g)
    >>> r.day_points, r.complete
    ({'A': 0, 'B': 0, 'C': 1}, False)
    """
    days = resolve_days(game.days, game.variant)
    rounds = tuple({player: (day.points if day.receiver == player else 0) for player in game.players} for day in days)
    day_points = {player: sum(r[player] for r in rounds) for player in game.players}
    pot = days[-1].pot_after if days else ()
    all_days_in = len(days) == game.variant.days
    lost = sum(pot) if all_days_in else 0
    found = majorities(game.hands, game.players, game.variant) if game.hands is not None else ()
    bonus = {player: sum(m.value for m in found if player in m.holders) for player in game.players}
    totals = {player: day_points[player] + bonus[player] for player in game.players}
    best = max(totals.values())
    winners = tuple(player for player in game.players if totals[player] == best)
    return Result(
        days=days,
        rounds=rounds,
        day_points=day_points,
        majorities=found,
        bonus=bonus,
        totals=totals,
        pot=() if all_days_in else pot,
        lost=lost,
        winners=winners,
        complete=all_days_in and game.hands is not None,
    )


def first_player(first_dealer: int, players: int) -> None:
    """Return nobody: every day, all players reveal their cards at once.

    >>> first_player(0, 3) is None
    True
    """
    return
