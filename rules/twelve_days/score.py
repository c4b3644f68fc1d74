"""12 Days: who wins each day, where unwon days go, the hand bonuses and the variants.

All players reveal a gift card at once; values played more than once cancel, and the lowest
value played exactly once takes the day card (and any pot of unwon days). A Claus card
counts 0 and must give its win away. At the end, whoever holds the most cards of a value
scores that value. The highest total wins.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence, Sized
from dataclasses import dataclass, field
from typing import Literal

from rules.problems import N_, Problem, at, problem, quoted

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


# --- What is legal -----------------------------------------------------------------------


def first_player(first_dealer: int, players: int) -> None:
    """Return nobody: every day, all players reveal their cards at once.

    >>> first_player(0, 3) is None
    True
    """
    return


def card_problems(place: str, card: Card, variant: Variant) -> list[Problem]:
    """Return a problem unless the card exists in this variant."""
    if variant.copies(card) > 0:
        return []
    if isinstance(card, str):
        return [problem(place, N_("{variant} is played without the Claus cards"), variant=variant.label)]
    return [
        problem(
            place,
            N_("gift cards in {variant} go from {min} to {max} (got {got})"),
            variant=variant.label,
            min=variant.values[0],
            max=variant.values[-1],
            got=card,
        )
    ]


def _card_name(card: Card) -> str:
    """Return a card as a message names it."""
    return {SANTA: "Santa", MRS_CLAUS: "Mrs. Claus"}.get(card, str(card)) if isinstance(card, str) else f"{card}"


_DECK_COUNT_TEMPLATES: Mapping[Seen, str] = {
    "day": N_("the deck has {copies} of card {card}, but this day shows {got}"),
    "hands": N_("the deck has {copies} of card {card}, but the hands hold {got}"),
}


def deck_count_problems(place: str, cards: Sequence[Card], variant: Variant, seen: Seen) -> list[Problem]:
    """Return a problem for each card that appears more often than the deck holds it.

    ``seen`` says where the cards were counted: on one day's table, or in the hands.

    >>> [p.message for p in deck_count_problems("hands", [SANTA, SANTA], STANDARD, "hands")]
    ['the deck has 1 of card Santa, but the hands hold 2']
    """
    problems = []
    counts = Counter(cards)
    for card in variant.cards:
        if counts[card] > variant.copies(card):
            problems.append(
                problem(
                    place,
                    _DECK_COUNT_TEMPLATES[seen],
                    copies=variant.copies(card),
                    card=_card_name(card),
                    got=counts[card],
                )
            )
    return problems


def day_problems(place: str, day: Day, players: Sequence[str], variant: Variant) -> list[Problem]:
    """Return everything that makes one day impossible."""
    known = set(players)
    problems: list[Problem] = []
    if isinstance(day, TakenDay):
        if day.taken_by is not None and day.taken_by not in known:
            problems.append(problem(at(place, "taken_by"), N_("{name} is not a player of this game"), name=quoted(day.taken_by)))
        return problems
    played_place = at(place, "played")
    for player, card in day.played.items():
        if player not in known:
            problems.append(problem(at(played_place, player), N_("not a player of this game")))
        else:
            problems += card_problems(at(played_place, player), card, variant)
    missing = [player for player in players if player not in day.played]
    if missing:
        problems.append(problem(played_place, N_("every player reveals a card; missing: {players}"), players=", ".join(missing)))
    problems += deck_count_problems(played_place, list(day.played.values()), variant, "day")
    if problems:
        return problems
    decision = reveal(day.played)
    gift_place = at(place, "gift_to")
    if decision.claus_win:
        if day.gift_to is None:
            problems.append(
                problem(
                    gift_place,
                    N_("{winner} won with a Claus card and must give the day away"),
                    winner=str(decision.winner),
                )
            )
        elif day.gift_to not in known:
            problems.append(problem(gift_place, N_("{name} is not a player of this game"), name=quoted(day.gift_to)))
        elif day.gift_to == decision.winner:
            problems.append(
                problem(
                    gift_place,
                    N_("{winner} won with a Claus card and must give the day to another player"),
                    winner=str(decision.winner),
                )
            )
    elif day.gift_to is not None:
        problems.append(problem(gift_place, N_("only a player who wins with a Claus card gives the day away")))
    return problems


def hand_size_problems(place: str, hand: Sized, variant: Variant) -> list[Problem]:
    """Return a problem unless a final hand holds exactly the variant's number of cards."""
    if len(hand) == variant.hand_size:
        return []
    return [problem(place, N_("a hand holds exactly {size} cards at the end (got {got})"), size=variant.hand_size, got=len(hand))]


def hand_problems(place: str, hand: Sequence[Card], variant: Variant) -> list[Problem]:
    """Return what is impossible about one final hand on its own."""
    problems = hand_size_problems(place, hand, variant)
    for index, card in enumerate(hand):
        problems += card_problems(at(place, index), card, variant)
    return problems


def hands_problems(hands: Mapping[str, Sequence[Card]], players: Sequence[str], variant: Variant) -> list[Problem]:
    """Return everything that makes the final hands impossible: sizes, cards, deck limits."""
    problems: list[Problem] = []
    known = set(players)
    for player, hand in hands.items():
        if player not in known:
            problems.append(problem(at("hands", player), N_("not a player of this game")))
        else:
            problems += hand_problems(at("hands", player), hand, variant)
    missing = [player for player in players if player not in hands]
    if missing:
        problems.append(problem("hands", N_("every player's final hand is needed; missing: {players}"), players=", ".join(missing)))
    every_card = [card for hand in hands.values() for card in hand]
    problems += deck_count_problems("hands", every_card, variant, "hands")
    return problems


def playerdeck_count_problems(players: Sequence[object], variant: Variant) -> list[Problem]:
    """Return a problem unless the variant can be played by this many players."""
    if variant.min_players <= len(players) <= variant.max_players:
        return []
    return [
        problem(
            "players",
            N_("{variant} is played by {min} to {max} players (got {got})"),
            variant=variant.label,
            min=variant.min_players,
            max=variant.max_players,
            got=len(players),
        )
    ]


def day_count_problems(days: Sized, variant: Variant) -> list[Problem]:
    """Return a problem if a game holds more days than the variant has (a record's list is refused by its length, unread)."""
    if len(days) <= variant.days:
        return []
    return [problem("days", N_("{variant} has {days} days (got {got})"), variant=variant.label, days=variant.days, got=len(days))]


def game_problems(game: Game) -> list[Problem]:
    """Return everything that makes a game impossible.

    >>> [str(p) for p in game_problems(Game(players=("A", "B", "C", "D", "E"), variant=EIGHT_NIGHTS))]
    ['players: 8 Nights is played by 3 to 4 players (got 5)']
    """
    variant = game.variant
    problems = playerdeck_count_problems(game.players, variant) + day_count_problems(game.days, variant)
    for index, day in enumerate(game.days):
        problems += day_problems(at("days", index), day, game.players, variant)
    if game.open_day is not None:
        problems += open_day_problems("open_day", game.open_day, game.players, variant, finished=len(game.days))
    if game.hands is not None:
        problems += hands_problems(game.hands, game.players, variant)
    return problems


def open_day_problems(place: str, so_far: DayInProgress, players: Sequence[str], variant: Variant, *, finished: int) -> list[Problem]:
    """Return everything that makes the day being played impossible: the limits of a finished day, so far.

    ``finished`` counts the days before it; after the last day no day is being played. Once
    every player has revealed a card the day has ended, unless a Claus won and the gift is
    still to be given.
    """
    if finished >= variant.days:
        return [problem(place, N_("all {total} days are finished"), total=variant.days)]
    known = set(players)
    problems: list[Problem] = []
    played_place = at(place, "played")
    for player, card in so_far.played.items():
        if player not in known:
            problems.append(problem(at(played_place, player), N_("not a player of this game")))
        else:
            problems += card_problems(at(played_place, player), card, variant)
    problems += deck_count_problems(played_place, list(so_far.played.values()), variant, "day")
    if not problems and len(so_far.played) == len(players) and not reveal(so_far.played).claus_win:
        problems.append(problem(place, N_("every player has revealed a card, so this day has ended: it belongs in days")))
    return problems
