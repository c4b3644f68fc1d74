"""What AURUXXX's statistics count that the paper pad never added up: rounds ended, Golden 12s, the Happy-Man figure, pass crosses."""

from __future__ import annotations

from collections import Counter

from rules.auruxxx.score import Game, score_game
from rules.games import Figure, Tally
from rules.problems import N_

FIGURES = (
    Figure(key="rounds_played", label=N_("Rounds played")),
    Figure(key="rounds_ended", label=N_("Rounds they ended")),
    Figure(key="golden12", label=N_("Golden 12s laid")),
    Figure(key="happy_man_rounds", label=N_("Rounds held with the Happy-Man figure")),
    Figure(key="happy_man_saved", label=N_("Points the Happy-Man figure saved"), points=True),
    Figure(key="passes", label=N_("Pass crosses per round"), per="rounds_played"),
)
"""AURUXXX's own figures, in the order the page lists them."""


def tally(game: Game) -> Tally:
    """Count a game's own figures per player: every round played, ended, the Golden 12s the finisher laid, the figure's rounds.

    The points the figure saved are the holder's round before halving less the round after, in half-points.

    >>> from rules.auruxxx.score import CountedHand, Round
    >>> hm = Round(finisher="A", golden12=2, happy_man="B", passes={"B": 1}, hands={"B": CountedHand(20)})
    >>> counted = tally(Game(players=("A", "B"), rounds=(hm,)))
    >>> dict(counted.players["A"]), dict(counted.players["B"])
    ({'rounds_ended': 1, 'golden12': 2, 'rounds_played': 1}, {'rounds_played': 1, 'passes': 1, 'happy_man_rounds': 1, 'happy_man_saved': 25})
    """
    counts: dict[str, Counter[str]] = {player: Counter() for player in game.players}
    for round_, scores in zip(game.rounds, score_game(game).rounds, strict=True):
        counts[round_.finisher]["rounds_ended"] += 1
        counts[round_.finisher]["golden12"] += round_.golden12
        for player in game.players:
            counts[player]["rounds_played"] += 1
            if round_.passes_of(player):
                counts[player]["passes"] += round_.passes_of(player)
            score = scores[player]
            if score.happy_man:
                counts[player]["happy_man_rounds"] += 1
                if score.halved:
                    counts[player]["happy_man_saved"] += 2 * score.sub - score.points
    return Tally({player: dict(counted) for player, counted in counts.items()}, {})
