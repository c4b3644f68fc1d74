"""AURUXXX – Die Goldene Zwölf, one package: its rules (``score``), its part of the record (``record``) and its fold (``history``).

The rules are re-exported, so ``rules.auruxxx.score_game`` reads as the game's; the names
at the end are the game's entry in the registry (``rules.games.GameRules``).
"""

from rules.auruxxx import history, record
from rules.auruxxx.score import *  # noqa: F403

KIND = record.KIND
TITLE = "AURUXXX – Die Goldene Zwölf"
SETUP_KEYS = record.SETUP_KEYS
parse = record.parse
serialise = record.serialise
result = record.result
problems = game_problems  # noqa: F405
stages = history.stages
split_open = history.split_open
fold = history.fold
step = history.step
