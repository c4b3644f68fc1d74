"""The rules of the games Tischblock scores: pure, typed, and free of any web or database code.

Everything that decides what is legal or how many points a player gets lives here, so the
command line, the import and the web forms all give the same answers and the same messages.
Each game is a package of its own; the registry (``rules.games``) is how everything else
finds it. The games Tischblock ships are registered here, once.
"""

from rules.auruxxx import AURUXXX
from rules.games import register
from rules.plain import PLAIN
from rules.twelve_days import TWELVE_DAYS

register(AURUXXX)
register(TWELVE_DAYS)
register(PLAIN)
