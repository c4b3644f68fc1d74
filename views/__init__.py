"""Blueprints: one per feature, each with a template folder of the same name, and one package per game.

The games Tischblock ships register their sheets here, once (``views.sheets``).
"""

from views.auruxxx import AURUXXX_SHEET
from views.sheets import register
from views.twelve_days import TWELVE_DAYS_SHEET

register(AURUXXX_SHEET)
register(TWELVE_DAYS_SHEET)
