"""Old games and old addresses: a game over and followed is read-only on every address, and a replaced address hands out nothing new.

A table's games follow one another; once a rematch (or another game) runs, the one before is
over for good: undo, corrections and taps on it are refused with the way to the running game.
"Make a new address" replaces the running game's edit address and the table's; an older
game's edit address from before still shows its own game, read-only, and leads nowhere newer.
"""

from __future__ import annotations

import re

from tests.web.auruxxx_states import auruxxx_over
from tests.web.driver import TableDriver

HTMX = {"Accept-Language": "en", "HX-Request": "true"}


def test_a_long_table_name_sent_by_htmx_is_refused_with_the_form(driver: TableDriver) -> None:
    """Issue 18, defect 7: a name over 40 characters from the htmx form answers 422 with the form, not 500."""
    token = driver.start("auruxxx")
    refused = driver.post(token, "table-card", headers=HTMX, name="K" * 41)
    assert refused.status_code == 422
    fragment = refused.get_data(as_text=True)
    assert fragment.lstrip().startswith('<section id="card"') and "name has at most 40 characters." in fragment
    with driver.app.app_context():
        assert driver.game(token).card_table.name is None
