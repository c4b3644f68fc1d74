"""AURUXXX: what a game may contain, the one place that decides it: the table, the rounds, a round's passes, hands and deck.

Every way into a game (a tap, an imported record, the CLI) asks these functions; each returns
the problems it finds, worded for the reader (``rules.problems``), and nothing when all is legal.
"""

from __future__ import annotations

from collections.abc import Sequence, Sized

from rules.auruxxx.score import (
    ACTION_AND_TWO_IN_DECK,
    FIFTY_IN_DECK,
    GOLDEN12_IN_DECK,
    HAPPY_MAN_CARDS_IN_DECK,
    MAX_PASSES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUMBER_CARDS_IN_DECK,
    NUMBER_COPIES,
    NUMBER_VALUES,
    ROUNDS,
    Cards,
    CountedHand,
    Game,
    Hand,
    HouseRules,
    Round,
    RoundInProgress,
    holder_after,
    max_hand_points,
)
from rules.problems import N_, Problem, at, problem, quoted


def player_count_problems(players: Sequence[object]) -> list[Problem]:
    """Return a problem unless 2–6 players sit at the table."""
    if MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        return []
    return [
        problem(
            "players",
            N_("AURUXXX is played by {min} to {max} players (got {got})"),
            min=MIN_PLAYERS,
            max=MAX_PLAYERS,
            got=len(players),
        )
    ]


def round_count_problems(rounds: Sized) -> list[Problem]:
    """Return a problem if a game holds more than its 3 rounds (a record's list is refused by its length, unread)."""
    if len(rounds) <= ROUNDS:
        return []
    return [problem("rounds", N_("a game has {rounds} rounds (got {got})"), rounds=ROUNDS, got=len(rounds))]


def number_card_count_problems(place: str, numbers: Sized) -> list[Problem]:
    """Return a problem if a hand holds more number cards than the deck has (refused by the list's length, unread)."""
    if len(numbers) <= NUMBER_CARDS_IN_DECK:
        return []
    return [problem(place, N_("a hand holds at most {limit} number cards (got {got})"), limit=NUMBER_CARDS_IN_DECK, got=len(numbers))]


def pass_problems(place: str, passes: int) -> list[Problem]:
    """Return a problem unless a player's crosses in one round are 0–3."""
    if passes < 0:
        return [problem(place, N_("passes cannot be negative (got {got})"), got=passes)]
    if passes > MAX_PASSES:
        return [problem(place, N_("at most {limit} passes per round (got {got})"), limit=MAX_PASSES, got=passes)]
    return []


def finisher_golden12_problems(place: str, golden12: int) -> list[Problem]:
    """Return a problem unless the finisher laid 1–5 Golden 12."""
    if 1 <= golden12 <= GOLDEN12_IN_DECK:
        return []
    if golden12 < 1:
        return [
            problem(
                place,
                N_("the finisher ends the round with {min} to {max} Golden 12 (got {got})"),
                min=1,
                max=GOLDEN12_IN_DECK,
                got=golden12,
            )
        ]
    return [problem(place, N_("the deck has only {limit} Golden 12 (got {got})"), limit=GOLDEN12_IN_DECK, got=golden12)]


def hand_problems(place: str, hand: Hand, house_rules: HouseRules = HouseRules()) -> list[Problem]:
    """Return what is impossible about one hand on its own (card values, counts, the deck)."""
    problems: list[Problem] = []
    if isinstance(hand, CountedHand):
        limit = max_hand_points(house_rules)
        if hand.points < 0:
            problems.append(problem(at(place, "points"), N_("hand points cannot be negative (got {got})"), got=hand.points))
        elif hand.points > limit:
            problems.append(
                problem(
                    at(place, "points"),
                    N_("no hand can count more than {limit} points (got {got})"),
                    limit=limit,
                    got=hand.points,
                )
            )
        return problems
    for index, number in enumerate(hand.numbers):
        if number not in NUMBER_VALUES:
            problems.append(
                problem(
                    at(at(place, "numbers"), index),
                    N_("number cards go from {min} to {max} (got {got})"),
                    min=NUMBER_VALUES[0],
                    max=NUMBER_VALUES[-1],
                    got=number,
                )
            )
    limits = {
        "fifty": FIFTY_IN_DECK,
        "action": ACTION_AND_TWO_IN_DECK,
        "happy_man": HAPPY_MAN_CARDS_IN_DECK,
        "two": ACTION_AND_TWO_IN_DECK,
        "golden12": GOLDEN12_IN_DECK,
    }
    for kind, limit in limits.items():
        count: int = getattr(hand, kind)
        if count < 0:
            problems.append(problem(at(place, kind), N_("a card count cannot be negative (got {got})"), got=count))
        elif count > limit:
            problems.append(problem(at(place, kind), N_("the deck has only {limit} of these cards (got {got})"), limit=limit, got=count))
    return problems


def deck_problems(place: str, round_: Round) -> list[Problem]:
    """Return a problem for each kind of card the hands of a round hold more of than the deck has."""
    cards = [hand for hand in round_.hands.values() if isinstance(hand, Cards)]
    problems: list[Problem] = []
    golden12_in_play = round_.golden12 + sum(hand.golden12 for hand in cards)
    if golden12_in_play > GOLDEN12_IN_DECK and round_.golden12 <= GOLDEN12_IN_DECK:
        problems.append(
            problem(
                at(place, "golden12"),
                N_("only {limit} Golden 12 are in the deck, but the finisher's {finisher} and those in hands make {total}"),
                limit=GOLDEN12_IN_DECK,
                finisher=round_.golden12,
                total=golden12_in_play,
            )
        )
    for number in NUMBER_VALUES:
        copies = sum(hand.numbers.count(number) for hand in cards)
        if copies > NUMBER_COPIES:
            problems.append(
                problem(
                    at(place, "hands"),
                    N_("the deck has only {limit} cards of {number} (hands hold {held})"),
                    limit=NUMBER_COPIES,
                    number=number,
                    held=copies,
                )
            )
    for kind, limit, template in (
        ("fifty", FIFTY_IN_DECK, N_('the deck has only {limit} "50" cards (hands hold {held})')),
        ("happy_man", HAPPY_MAN_CARDS_IN_DECK, N_("the deck has only {limit} Happy-Man cards (hands hold {held})")),
    ):
        held = sum(getattr(hand, kind) for hand in cards)
        if held > limit:
            problems.append(problem(at(place, "hands"), template, limit=limit, held=held))
    action_and_two = sum(hand.action + hand.two for hand in cards)
    if action_and_two > ACTION_AND_TWO_IN_DECK:
        problems.append(
            problem(
                at(place, "hands"),
                N_('the deck has only {limit} action and "2" cards together (hands hold {held})'),
                limit=ACTION_AND_TWO_IN_DECK,
                held=action_and_two,
            )
        )
    return problems


def round_problems(
    place: str,
    round_: Round,
    players: Sequence[str],
    *,
    holder_before: str | None,
    house_rules: HouseRules = HouseRules(),
) -> list[Problem]:
    """Return everything that makes a finished round impossible.

    ``holder_before`` is who held the Happy-Man figure when the round began: once somebody
    holds it, it never goes back to nobody.
    """
    problems: list[Problem] = []
    known = set(players)
    if round_.finisher not in known:
        problems.append(problem(at(place, "finisher"), N_("{name} is not a player of this game"), name=quoted(round_.finisher)))
    problems += finisher_golden12_problems(at(place, "golden12"), round_.golden12)
    if round_.happy_man is None:
        if holder_before is not None:
            problems.append(
                problem(
                    at(place, "happy_man"),
                    N_("the Happy-Man figure never goes back to nobody ({holder} holds it)"),
                    holder=holder_before,
                )
            )
    elif round_.happy_man not in known:
        problems.append(problem(at(place, "happy_man"), N_("{name} is not a player of this game"), name=quoted(round_.happy_man)))
    for player, passes in round_.passes.items():
        if player not in known:
            problems.append(problem(at(at(place, "passes"), player), N_("not a player of this game")))
        else:
            problems += pass_problems(at(at(place, "passes"), player), passes)
    for player, hand in round_.hands.items():
        hand_place = at(at(place, "hands"), player)
        if player not in known:
            problems.append(problem(hand_place, N_("not a player of this game")))
        elif player == round_.finisher:
            problems.append(problem(hand_place, N_("the finisher has no hand left to count")))
        else:
            problems += hand_problems(hand_place, hand, house_rules)
    problems += deck_problems(place, round_)
    return problems


def game_problems(game: Game) -> list[Problem]:
    """Return everything that makes a game impossible: players, round count, every round and the one being played.

    >>> [str(p) for p in game_problems(Game(players=("A", "B", "C", "D", "E", "F", "G")))]
    ['players: AURUXXX is played by 2 to 6 players (got 7)']
    """
    problems = player_count_problems(game.players) + round_count_problems(game.rounds)
    holder: str | None = None
    for index, round_ in enumerate(game.rounds):
        problems += round_problems(at("rounds", index), round_, game.players, holder_before=holder, house_rules=game.house_rules)
        holder = holder_after(holder, round_)
    if game.open_round is not None:
        problems += open_round_problems(
            "open_round",
            game.open_round,
            game.players,
            finished=len(game.rounds),
            holder_before=holder,
            house_rules=game.house_rules,
        )
    return problems


def open_round_problems(
    place: str,
    so_far: RoundInProgress,
    players: Sequence[str],
    *,
    finished: int,
    holder_before: str | None,
    house_rules: HouseRules = HouseRules(),
) -> list[Problem]:
    """Return everything that makes the round being played impossible: the limits of a finished round, so far.

    ``finished`` counts the rounds before it; after the last round no round is being played.
    A round whose every hand is in has ended, and belongs with the finished rounds.
    """
    if finished >= ROUNDS:
        return [problem(place, N_("all {total} rounds are finished"), total=ROUNDS)]
    problems: list[Problem] = []
    known = set(players)
    if so_far.happy_man is None and holder_before is not None:
        problems.append(
            problem(
                at(place, "happy_man"),
                N_("the Happy-Man figure never goes back to nobody ({holder} holds it)"),
                holder=holder_before,
            )
        )
    elif so_far.happy_man is not None and so_far.happy_man not in known:
        problems.append(problem(at(place, "happy_man"), N_("{name} is not a player of this game"), name=quoted(so_far.happy_man)))
    for player, passes in so_far.passes.items():
        if player not in known:
            problems.append(problem(at(at(place, "passes"), player), N_("not a player of this game")))
        else:
            problems += pass_problems(at(at(place, "passes"), player), passes)
    if so_far.finisher is None:
        if so_far.golden12 is not None:
            problems.append(problem(at(place, "finisher"), N_("is required")))
        if so_far.hands:
            problems.append(problem(at(place, "hands"), N_("hands are counted once the finisher is known")))
        return problems
    if so_far.finisher not in known:
        problems.append(problem(at(place, "finisher"), N_("{name} is not a player of this game"), name=quoted(so_far.finisher)))
    if so_far.golden12 is None:
        problems.append(problem(at(place, "golden12"), N_("is required")))
        return problems
    problems += finisher_golden12_problems(at(place, "golden12"), so_far.golden12)
    for player, hand in so_far.hands.items():
        hand_place = at(at(place, "hands"), player)
        if player not in known:
            problems.append(problem(hand_place, N_("not a player of this game")))
        elif player == so_far.finisher:
            problems.append(problem(hand_place, N_("the finisher has no hand left to count")))
        else:
            problems += hand_problems(hand_place, hand, house_rules)
    so_far_as_round = Round(finisher=so_far.finisher, golden12=so_far.golden12, happy_man=None, hands=so_far.hands)
    problems += deck_problems(place, so_far_as_round)
    if not problems and all(player in so_far.hands for player in players if player != so_far.finisher):
        problems.append(problem(place, N_("every hand is counted, so this round has ended: it belongs in rounds")))
    return problems
