"""Hand entry is safe: a hand saved on another phone since the keypad opened is never silently replaced, and unsaved cards survive a reload."""

from __future__ import annotations

import json
import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.test import TestResponse

from models import Game, db, folded
from tests.examples import twelve_days
from tests.helpers import EN, phone_of
from tests.web.auruxxx_states import auruxxx_finisher_known


def seen_of(page: TestResponse) -> str:
    """Return the version a keypad page carries."""
    found = re.search(r'name="seen" value="(\d+)"', page.get_data(as_text=True))
    assert found, "the keypad carries no version"
    return found.group(1)


def hand_points(app: Flask, token: str, player: str) -> int | None:
    """Return the points of a player's hand as stored in the open round."""
    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.token == token))
        assert game is not None
        current = folded(game).table.current
        entered = current.hands.get(player) if current is not None else None  # type: ignore[union-attr]
        return entered.points if entered is not None else None  # type: ignore[union-attr]


def save(client: FlaskClient, token: str, seen: str, points: int) -> TestResponse:
    """Save Anna's hand as a typed total from a keypad opened at ``seen``."""
    return client.post(f"/g/{token}/hand/0", data={"round": "0", "seen": seen, "action": "save-points", "points": str(points)}, headers=EN)


def test_a_hand_saved_on_another_phone_meanwhile_asks_keep_theirs_or_replace(plain_app: Flask) -> None:
    anna, ben = phone_of(plain_app), phone_of(plain_app)
    token = auruxxx_finisher_known(anna)
    opened = seen_of(anna.get(f"/g/{token}/hand/0"))
    assert save(ben, token, seen_of(ben.get(f"/g/{token}/hand/0")), 6).status_code == 303
    clash = save(anna, token, opened, 5)
    assert clash.status_code == 409
    page = clash.get_data(as_text=True)
    assert "Another phone saved the hand of Anna meanwhile: 6 points. Yours: 5 points." in page
    assert "Keep theirs" in page and "Replace it with mine" in page
    assert hand_points(plain_app, token, "Anna") == 6, "nothing was overwritten"
    assert 'name="points" value="5"' in page, "the keypad keeps what was typed"
    replaced = save(anna, token, seen_of(clash), 5)
    assert replaced.status_code == 303
    assert hand_points(plain_app, token, "Anna") == 5


def test_keeping_theirs_leaves_the_other_phones_hand(plain_app: Flask) -> None:
    anna, ben = phone_of(plain_app), phone_of(plain_app)
    token = auruxxx_finisher_known(anna)
    opened = seen_of(anna.get(f"/g/{token}/hand/0"))
    save(ben, token, seen_of(ben.get(f"/g/{token}/hand/0")), 6)
    clash = save(anna, token, opened, 5)
    kept = anna.post(f"/g/{token}/hand/0", data={"round": "0", "seen": seen_of(clash), "action": "discard", "points": "5"})
    assert kept.status_code == 303
    assert hand_points(plain_app, token, "Anna") == 6
    assert 'value="6"' in anna.get(f"/g/{token}/hand/0").get_data(as_text=True), "no draft of mine is left"


def test_taps_about_anything_else_leave_the_keypad_valid(plain_app: Flask) -> None:
    anna, ben = phone_of(plain_app), phone_of(plain_app)
    token = auruxxx_finisher_known(anna)
    opened = seen_of(anna.get(f"/g/{token}/hand/0"))
    cleo = ben.post(f"/g/{token}/hand/2", data={"round": "0", "action": "save-points", "points": "9"})
    assert cleo.status_code == 303
    assert save(anna, token, opened, 5).status_code == 303


def test_cards_tapped_but_not_saved_survive_a_reload_on_that_phone_only(plain_app: Flask) -> None:
    anna, ben = phone_of(plain_app), phone_of(plain_app)
    token = auruxxx_finisher_known(anna)
    seen = seen_of(anna.get(f"/g/{token}/hand/0"))
    cards = ""
    for key in ("n7", "n11", "fifty"):
        page = anna.post(f"/g/{token}/hand/0", data={"round": "0", "seen": seen, "cards": cards, "action": f"add:{key}"})
        cards = re.search(r'name="cards" value="([^"]*)"', page.get_data(as_text=True)).group(1)  # type: ignore[union-attr]
    reloaded = anna.get(f"/g/{token}/hand/0", headers=EN).get_data(as_text=True)
    assert 'name="cards" value="n7 n11 fifty"' in reloaded
    assert "Not saved yet" in reloaded and f'name="seen" value="{seen}"' in reloaded
    assert 'name="cards" value=""' in ben.get(f"/g/{token}/hand/0").get_data(as_text=True), "another phone starts empty"
    saved = anna.post(f"/g/{token}/hand/0", data={"round": "0", "seen": seen, "cards": cards, "action": "save"})
    assert saved.status_code == 303
    assert "Not saved yet" not in anna.get(f"/g/{token}/hand/0", headers=EN).get_data(as_text=True)


def counts_form(seen: str, cards: list[int], action: str = "save") -> dict[str, str]:
    """Return the 12 Days final-hand form for these cards."""
    form = {"seen": seen, "action": action}
    for card in set(cards):
        form[f"count-{card}"] = str(cards.count(card))
    return form


def test_a_final_hand_saved_on_another_phone_meanwhile_is_a_choice_too(plain_app: Flask) -> None:
    anna, ben = phone_of(plain_app), phone_of(plain_app)
    answer = anna.post("/import", data=json.dumps(twelve_days(hands=False)), content_type="application/json")
    token = str(answer.json["location"]).rsplit("/", 1)[-1]  # type: ignore[index]
    opened = seen_of(anna.get(f"/g/{token}/final-hand/0"))
    theirs = [12, 12, 12, 12, 11, 11, 9, 9, 7, 7, 6, 5]
    mine = [12, 12, 12, 12, 11, 11, 9, 9, 7, 7, 6, 4]
    assert ben.post(f"/g/{token}/final-hand/0", data=counts_form(seen_of(ben.get(f"/g/{token}/final-hand/0")), theirs)).status_code == 303
    clash = anna.post(f"/g/{token}/final-hand/0", data=counts_form(opened, mine), headers=EN)
    assert clash.status_code == 409
    assert "Another phone saved the hand of Anna meanwhile: 4 × 12, 2 × 11, 2 × 9, 2 × 7, 6, 5." in clash.get_data(as_text=True)
    assert anna.post(f"/g/{token}/final-hand/0", data=counts_form(seen_of(clash), mine)).status_code == 303
    with plain_app.app_context():
        game = db.session.scalar(select(Game).where(Game.token == token))
        assert game is not None
        assert sorted(folded(game).table.hands["Anna"]) == sorted(mine)  # type: ignore[union-attr]


def test_a_hand_saved_after_another_phone_closed_the_round_says_so_and_stores_nothing(plain_app: Flask) -> None:
    """Ben's keypad for Anna stayed open while Anna's phone saved the round's last hands: his save is told, not dropped silently."""
    anna, ben = phone_of(plain_app), phone_of(plain_app)
    token = auruxxx_finisher_known(anna)
    opened = seen_of(ben.get(f"/g/{token}/hand/0"))
    finisher = folded_finisher(plain_app, token)
    for seat, name in enumerate(["Anna", "Ben", "Cleo"]):
        if name != finisher:
            assert save_seat(anna, token, seat, 4).status_code == 303
    before = version_of(plain_app, token)

    for headers in (EN, {**EN, "HX-Request": "true"}):
        late = ben.post(f"/g/{token}/hand/0", data={"round": "0", "seen": opened, "action": "save-points", "points": "9"}, headers=headers)
        assert late.status_code == 409
        page = late.get_data(as_text=True)
        assert "Not stored: meanwhile another phone moved the game on, so Anna's hand can no longer be entered here." in page
        assert "Tapped on this phone and not stored: 9" in page
        assert f'href="/g/{token}"' in page
        assert 'name="action"' not in page, "no keypad to tap on"
    assert version_of(plain_app, token) == before, "nothing was stored"


def test_a_closed_keypad_says_what_the_game_holds_for_the_hand_instead(plain_app: Flask) -> None:
    """Ben's keypads stayed open while Anna's phone saved the last hand (10): his page names it; a hand stored before they opened is named as stored."""
    anna, ben = phone_of(plain_app), phone_of(plain_app)
    token = auruxxx_finisher_known(anna)
    finisher = folded_finisher(plain_app, token)
    (early, early_name), (last, last_name) = [(seat, name) for seat, name in enumerate(["Anna", "Ben", "Cleo"]) if name != finisher]
    assert save_seat(anna, token, early, 4).status_code == 303
    opened = seen_of(ben.get(f"/g/{token}/hand/{last}"))
    assert save_seat(anna, token, last, 10).status_code == 303

    overtaken = ben.post(f"/g/{token}/hand/{last}", data={"round": "0", "seen": opened, "action": "save-points", "points": "9"}, headers=EN)
    assert overtaken.status_code == 409
    assert f"Another phone saved {last_name}'s hand as 10 points." in overtaken.get_data(as_text=True)
    stored = ben.post(f"/g/{token}/hand/{early}", data={"round": "0", "seen": opened, "action": "add:n7", "cards": ""}, headers=EN)
    assert stored.status_code == 409
    page = stored.get_data(as_text=True)
    assert f"{early_name}'s hand as stored: 4 points." in page
    assert "Another phone saved" not in page


def version_of(app: Flask, token: str) -> int:
    """Return the number of the game's newest change."""
    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.token == token))
        assert game is not None
        return folded(game).version


def folded_finisher(app: Flask, token: str) -> str:
    """Return who ended the open round."""
    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.token == token))
        assert game is not None
        finisher: str = folded(game).table.current.finisher  # type: ignore[union-attr]
        return finisher


def save_seat(client: FlaskClient, token: str, seat: int, points: int) -> TestResponse:
    """Save a player's hand as a typed total from a freshly opened keypad."""
    seen = seen_of(client.get(f"/g/{token}/hand/{seat}"))
    return client.post(
        f"/g/{token}/hand/{seat}", data={"round": "0", "seen": seen, "action": "save-points", "points": str(points)}, headers=EN
    )
