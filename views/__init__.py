"""The web pages, in four rooms, each standing only on those below it, and one package per game.

- ``views.pages``: how any page is answered (whole or as a fragment, who is looking, the language, errors);
- ``views.table``: every game's sheet and the flows it plugs into (taps, keypads, corrections, the live
  stream, seats, joining); its ``__init__`` is the one face a game's package imports;
- ``views.results``: what the games come to (records in and out, the evening, the TV, the result picture);
- ``views.site``: the front page, the rules FAQ, the phone app, the security headers and the health check.

The games Tischblock ships register their sheets here, once.
"""

from flask import Flask

from views import pages, results, site, table
from views.auruxxx import AURUXXX_SHEET
from views.plain import PLAIN_SHEET
from views.twelve_days import TWELVE_DAYS_SHEET

table.register(AURUXXX_SHEET)
table.register(TWELVE_DAYS_SHEET)
table.register(PLAIN_SHEET)


def init_app(app: Flask) -> None:
    """Register every room's blueprints and hooks, from the bottom room up."""
    pages.init_app(app)
    table.init_app(app)
    results.init_app(app)
    site.init_app(app)
