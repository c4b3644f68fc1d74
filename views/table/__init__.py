"""The table: every game's sheet and the flows it plugs into, and the one face a game's views import.

A game's package under ``views/`` (its view model, its forms' values and its routes) imports
what it needs of ``views`` from here and from nowhere else (``tests/web/test_architecture.py``
holds that line): the sheet's registry value (``SheetView``), the scoreboard every game's points
take the shape of, recording a tap, the keypad and the correction flows, reading a form's fields,
and answering with a page. The room also holds what those flows share without a game seeing it:
the game's addresses, the sheet's page and history, starting a game, the seats, joining a table
and the live stream.
"""

from flask import Flask

from views.pages.forms import is_integer, is_whole, posted_index, posted_player, whole_or_text
from views.pages.language import current_language
from views.pages.render import game_page, go_to
from views.pages.viewers import Viewer
from views.table import addresses, games, join, seats, stream, taps
from views.table.addresses import open_to_edit
from views.table.corrections import Correction, correct_finished, refused_fix
from views.table.keypads import Keypad, enter_hand
from views.table.scoreboard import Row, Scoreboard, shown
from views.table.sheets import SHEETS, Choice, Option, Overtaken, SheetView, counted_from_one, register
from views.table.taps import Tapped, after_tap, record_move, record_tap, sent_before

__all__ = [
    "Choice",
    "Correction",
    "Keypad",
    "Option",
    "Overtaken",
    "Row",
    "Scoreboard",
    "SheetView",
    "Tapped",
    "Viewer",
    "after_tap",
    "correct_finished",
    "counted_from_one",
    "current_language",
    "enter_hand",
    "game_page",
    "go_to",
    "init_app",
    "is_integer",
    "is_whole",
    "open_to_edit",
    "posted_index",
    "posted_player",
    "record_move",
    "record_tap",
    "refused_fix",
    "register",
    "sent_before",
    "shown",
    "whole_or_text",
]


def init_app(app: Flask) -> None:
    """Register the sheet's pages, every registered game's own routes, the live stream, the seats and joining, with their hooks."""
    app.add_template_global(addresses.rules_url)
    app.context_processor(addresses.rules_context)
    app.after_request(taps.give_device_an_id)
    app.register_blueprint(games.bp)
    for sheet in SHEETS.values():
        app.register_blueprint(sheet.blueprint)
    app.register_blueprint(stream.bp)
    app.register_blueprint(join.bp)
    app.register_blueprint(seats.bp)
