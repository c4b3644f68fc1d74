"""The plain sheet, one package: any other game of the evening, scored on a pad with nothing printed on it.

Its rules (``score``), its part of the record (``record``) and its fold (``history``); the package
exports only ``PLAIN``, its entry in the registry (``rules.games.GameRules``). The game's own name
("Wizard") is what a result calls it, not the sheet's title.
"""

from rules.games import GameRules
from rules.plain import history, record, score
from rules.problems import N_

__all__ = ["PLAIN"]

PLAIN: GameRules[score.Game, history.PlainTable] = GameRules(
    kind=record.KIND,
    title=N_("Plain sheet"),
    setup_keys=record.SETUP_KEYS,
    game_type=score.Game,
    table_type=history.PlainTable,
    parse=record.parse,
    serialise=record.serialise,
    result=record.result,
    problems=score.game_problems,
    first_player=score.first_player,
    stages=history.stages,
    split_open=history.split_open,
    fold=history.fold,
    step=history.step,
    named=lambda game: game.name,
)
"""The plain sheet, as the registry knows it."""
