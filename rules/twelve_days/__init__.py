"""12 Days (with 8 Nights and 8 Players), one package: its scoring (``score``), what a game may contain (``legal``), its part of the record (``record``) and its fold (``history``).

Its modules are imported by name (``from rules.twelve_days.score import ...``); the package itself
exports only ``TWELVE_DAYS``, the game's entry in the registry (``rules.games.GameRules``).
"""

from rules.games import GameRules
from rules.twelve_days import history, legal, record, score, statistics

__all__ = ["TWELVE_DAYS"]

TWELVE_DAYS: GameRules[score.Game, history.TwelveDaysTable] = GameRules(
    kind=record.KIND,
    title="12 Days",
    setup_keys=record.SETUP_KEYS,
    game_type=score.Game,
    table_type=history.TwelveDaysTable,
    parse=record.parse,
    serialise=record.serialise,
    result=record.result,
    problems=legal.game_problems,
    first_player=score.first_player,
    stages=history.stages,
    split_open=history.split_open,
    fold=history.fold,
    step=history.step,
    figures=statistics.FIGURES,
    tally=statistics.tally,
    variant=score.variant_name,
)
"""12 Days, as the registry knows it."""
