"""The pushed sheets kept beside the changes on SQLite (``models.shipped``): only what a push can still use, no replaced address.

A pushed sheet is read by the other processes' listeners as they read its change, a tick after
it was stored; a phone that reconnects is sent the sheet as it is then, rendered afresh. So a
game needs the sheet of its newest change at most, the table as a whole only the sheets of the
changes stored lately, and a replaced edit address none at all.
"""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select, text

from live.hub import EVENTS_PER_TICK
from models import Game, Shipped, ShippedSheet, db
from models.shipped import ship_beside
from tests.helpers import PhoneClient, start

SHEETS_KEPT = EVENTS_PER_TICK
"""The sheets of the changes stored lately that the table keeps: as many changes as a listener reads in one tick."""


def kept(app: Flask) -> list[tuple[int, str, str, int]]:
    """Return every pushed sheet the database keeps: game, address, language and version."""
    with app.app_context():
        rows = db.session.execute(
            select(ShippedSheet.game_id, ShippedSheet.address, ShippedSheet.language, ShippedSheet.version).order_by(
                ShippedSheet.game_id, ShippedSheet.version
            )
        )
        return [tuple(row) for row in rows]


def game_id(app: Flask, token: str) -> int:
    """Return the id of the game an edit token opens."""
    with app.app_context():
        found = db.session.scalar(select(Game.id).where(Game.token == token))
    assert found is not None
    return found


def cross(client: FlaskClient, token: str, player: str, language: str) -> None:
    """Tap a pass cross from a sheet in ``language``, as htmx sends it; it must count."""
    answer = client.post(
        f"/g/{token}/pass", data={"round": "0", "player": player}, headers={"HX-Request": "true", "Accept-Language": language}
    )
    assert answer.status_code == 200, answer.get_data(as_text=True)[-500:]


def test_a_game_keeps_the_pushed_sheet_of_its_newest_change_only(plain_app: Flask, phone: PhoneClient) -> None:
    """Issue 36, R6: taps in English, then in German, then in English again: one sheet stays, the newest change's."""
    token = start(phone, "auruxxx")
    game = game_id(plain_app, token)
    for player, language in (("Anna", "en"), ("Ben", "de"), ("Cleo", "en")):
        cross(phone, token, player, language)
    assert kept(plain_app) == [(game, token, "en", 3)]
    other = start(phone, "auruxxx")
    cross(phone, other, "Anna", "de")
    assert kept(plain_app) == [(game, token, "en", 3), (game_id(plain_app, other), other, "de", 1)], "another game's sheet stays"


def test_a_replaced_edit_address_leaves_no_pushed_sheet_behind(plain_app: Flask, phone: PhoneClient) -> None:
    """Issue 36, R6: new addresses for the table: no row holds the edit address that stopped working."""
    token = start(phone, "auruxxx")
    cross(phone, token, "Anna", "en")
    assert [address for _, address, _, _ in kept(plain_app)] == [token]
    renewed = phone.post(f"/g/{token}/new-address")
    assert renewed.status_code == 303
    assert all(address != token for _, address, _, _ in kept(plain_app)), kept(plain_app)
    with plain_app.app_context():
        stored = db.session.scalar(select(func.count()).select_from(ShippedSheet).where(ShippedSheet.address == token))
    assert stored == 0


def test_the_table_keeps_the_sheets_of_the_changes_stored_lately_only(plain_app: Flask, phone: PhoneClient) -> None:
    """Issue 36, R6: a game that is never tapped again does not keep its last sheet forever: of many games' last changes,
    only the newest ``SHEETS_KEPT`` sheets stay, however many games there are."""
    first = game_id(plain_app, start(phone, "auruxxx"))
    games = SHEETS_KEPT + 50
    with plain_app.app_context():
        columns = [column.name for column in Game.__table__.columns if column.name not in ("id", "token", "read_token")]
        listed = ", ".join(columns)
        db.session.execute(
            text(
                f"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < :games) "
                f"INSERT INTO games (token, read_token, {listed}) "
                f"SELECT lower(hex(randomblob(18))), lower(hex(randomblob(18))), {listed} FROM games, n WHERE games.id = :first"
            ),
            {"games": games - 1, "first": first},
        )
        ids = list(db.session.scalars(select(Game.id).order_by(Game.id)))
        assert len(ids) == games
        for number, game in enumerate(ids):
            ship_beside(game, 1, Shipped(f"address-{number}", "en", b"sheet"))
        db.session.commit()
    sheets = kept(plain_app)
    assert len(sheets) == SHEETS_KEPT
    assert {address for _, address, _, _ in sheets} == {f"address-{number}" for number in range(games - SHEETS_KEPT, games)}
