"""Blueprints: one per feature, each with a template folder of the same name, and one view module per game.

The games Tischblock ships register their sheet views here, once (``views.sheets``).
"""

from views import auruxxx_sheet, twelve_days_sheet
from views.sheets import register

register(auruxxx_sheet)
register(twelve_days_sheet)
