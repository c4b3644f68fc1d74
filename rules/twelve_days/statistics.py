"""What 12 Days' statistics count that the paper pad never added up: days won, Claus wins, gifts, pots, lost points, hand bonuses."""

from __future__ import annotations

from collections import Counter

from rules.games import Figure, Tally
from rules.problems import N_
from rules.twelve_days.score import Game, score_game

FIGURES = (
    Figure(key="days_won", label=N_("Days won")),
    Figure(key="claus_wins", label=N_("Days won with a Claus")),
    Figure(key="gifts_given", label=N_("Day cards given away")),
    Figure(key="gifts_received", label=N_("Day cards received as a gift")),
    Figure(key="pots_taken", label=N_("Pots taken")),
    Figure(key="bonus", label=N_("Hand bonus points"), points=True),
    Figure(key="lost", label=N_("Day points nobody got"), points=True, of_table=True),
)
"""12 Days' own figures, in the order the page lists them."""


def tally(game: Game) -> Tally:
    """Count a game's own figures: who won each day (by the cards, or who took it), Claus wins and their gifts, pots, bonuses.

    A pot is taken when the receiver gets more than the day's own card; points count in half-points.

    >>> from rules.twelve_days.score import SANTA, PlayedDay, TakenDay
    >>> days = (TakenDay(taken_by=None), PlayedDay(played={"A": SANTA, "B": 2, "C": 7}, gift_to="C"))
    >>> counted = tally(Game(players=("A", "B", "C"), days=days))
    >>> dict(counted.players["A"]), dict(counted.players["C"]), dict(counted.table)
    ({'days_won': 1, 'claus_wins': 1, 'gifts_given': 1}, {'gifts_received': 1, 'pots_taken': 1}, {})
    """
    result = score_game(game)
    counts: dict[str, Counter[str]] = {player: Counter() for player in game.players}
    for day in result.days:
        winner = day.receiver if day.reveal is None else day.reveal.winner
        if winner is not None:
            counts[winner]["days_won"] += 1
        if day.reveal is not None and day.reveal.claus_win and winner is not None and day.receiver is not None:
            counts[winner]["claus_wins"] += 1
            counts[winner]["gifts_given"] += 1
            counts[day.receiver]["gifts_received"] += 1
        if day.receiver is not None and len(day.days_taken) > 1:
            counts[day.receiver]["pots_taken"] += 1
    for player in game.players:
        if result.bonus[player]:
            counts[player]["bonus"] += 2 * result.bonus[player]
    table = {"lost": 2 * result.lost} if result.lost else {}
    return Tally({player: dict(counted) for player, counted in counts.items()}, table)
