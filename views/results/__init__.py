"""What the games at a table come to: the game record and CSV in and out, the evening, the table's statistics, its TV and the result picture.

It stands on ``views.table`` (the sheets, their scoreboards and addresses) and knows no game.
"""

from flask import Flask

from views.results import evening, picture, records, statistics, tv


def init_app(app: Flask) -> None:
    """Register the records, the evening, the statistics, the TV and the result picture."""
    app.register_blueprint(records.bp)
    app.register_blueprint(evening.bp)
    app.register_blueprint(statistics.bp)
    app.register_blueprint(tv.bp)
    app.register_blueprint(picture.bp)
