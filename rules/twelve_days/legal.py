"""12 Days: what a game may contain, the one place that decides it: the table, the days, the cards played and the hands.

Every way into a game (a tap, an imported record, the CLI) asks these functions; each returns
the problems it finds, worded for the reader (``rules.problems``), and nothing when all is legal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence, Sized

from rules.problems import N_, Problem, at, problem, quoted
from rules.twelve_days.score import (
    MRS_CLAUS,
    SANTA,
    Card,
    Day,
    DayInProgress,
    Game,
    Seen,
    TakenDay,
    Variant,
    reveal,
)


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

    >>> from rules.twelve_days.score import STANDARD
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

    >>> from rules.twelve_days.score import EIGHT_NIGHTS
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
