"""How often one client address may start, import or join games.

The numbers leave a family table far more than it could ever use (a game a minute is
already a lot of card playing) and stop a script that tries to fill the database. Taps
on a sheet are not limited: a table taps fast, and a tap only ever adds to one game.
"""

from __future__ import annotations

import math
import time

from flask import request
from flask.wrappers import Response

from infra.extensions import limiter

CREATE = "30/minute;300/hour"
"""Games started by one address: through the new-game form or as a rematch."""
IMPORT = "20/minute;200/hour"
"""Uploads or JSON bodies to ``/import`` from one address, counted whether or not they are valid."""
JOIN = "60/minute"
"""Join pages and new edit addresses for one address."""


NEW_GAME_FORMS = ("games.new", "evening.next_game")
"""The new-game forms: for a new table, and for another game at a table."""


def _not_a_start() -> bool:
    """Return whether a request to a new-game form only shows or rearranges it (and creates nothing)."""
    if request.endpoint not in NEW_GAME_FORMS:
        return False
    return request.method != "POST" or request.form.get("action", "start") != "start"


def retry_after() -> int:
    """Return how many seconds a refused client should wait: until the window of the limit it ran into moves on (at least 1)."""
    breached = limiter.current_limit
    if breached is None:
        return 60
    return max(1, math.ceil(breached.reset_at - time.time()))


def _created(response: Response) -> bool:
    """Return whether a start actually created a game: it answers by sending the browser to it."""
    return response.status_code in (201, 204, 303)


creating = limiter.shared_limit(CREATE, scope="create", exempt_when=_not_a_start, deduct_when=_created)
"""For every route that creates a game; a refused form (422) costs nothing."""
importing = limiter.limit(IMPORT, methods=["POST"])
joining = limiter.shared_limit(JOIN, scope="join")
