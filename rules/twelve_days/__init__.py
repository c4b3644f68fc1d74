"""12 Days (with 8 Nights and 8 Players), one package: its rules (``score``), its part of the record (``record``) and its fold (``history``).

The rules are re-exported, so ``rules.twelve_days.score_game`` reads as the game's; the names
at the end are the game's entry in the registry (``rules.games.GameRules``).
"""

from rules.twelve_days import history, record
from rules.twelve_days.score import *  # noqa: F403

KIND = record.KIND
TITLE = "12 Days"
SETUP_KEYS = record.SETUP_KEYS
parse = record.parse
serialise = record.serialise
result = record.result
problems = game_problems  # noqa: F405
stages = history.stages
split_open = history.split_open
fold = history.fold
step = history.step
