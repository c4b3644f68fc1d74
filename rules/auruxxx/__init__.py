"""AURUXXX – Die Goldene Zwölf, one package: its scoring (``score``), what a game may contain (``legal``), its part of the record (``record``) and its fold (``history``).

Its modules are imported by name (``from rules.auruxxx.score import ...``); the package itself
exports only ``AURUXXX``, the game's entry in the registry (``rules.games.GameRules``).
"""

from rules.auruxxx import history, legal, record, score, statistics
from rules.games import GameRules

__all__ = ["AURUXXX"]

AURUXXX: GameRules[score.Game, history.AuruxxxTable] = GameRules(
    kind=record.KIND,
    title="AURUXXX – Die Goldene Zwölf",
    setup_keys=record.SETUP_KEYS,
    game_type=score.Game,
    table_type=history.AuruxxxTable,
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
)
"""AURUXXX – Die Goldene Zwölf, as the registry knows it."""
