"""Starting a game: the new-game form, its rearranging buttons, refusals, and CSRF on forms."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.test import TestResponse

from models import Game, db
from tests.helpers import EN, HTMX, PhoneClient, csrf_token, event_count, game_count, problems

TOKEN = re.compile(r"[A-Za-z0-9_-]{32,}")


def stored_game(app: Flask, token: str) -> tuple[str, tuple[str, ...], dict[str, object], int, int | None]:
    """Return kind, players, house rules, first dealer and previous game of a stored game."""
    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.token == token))
        assert game is not None
        return game.kind, game.player_names, dict(game.options["house_rules"]), game.options["first_dealer"], game.previous_id


def seat_names(response: TestResponse) -> list[str]:
    """Return the values of the form's player fields, in seat order."""
    page = response.get_data(as_text=True)
    return [html.unescape(value) for value in re.findall(r'name="player" value="([^"]*)"', page)]


def checked_dealer(response: TestResponse) -> int:
    """Return the seat whose "deals first" radio button is checked."""
    page = response.get_data(as_text=True)
    found = re.findall(r'name="dealer" value="(\d+)" checked', page)
    assert len(found) == 1, found
    return int(found[0])


def submit(client: FlaskClient, names: list[str], **fields: str) -> TestResponse:
    """Post the new-game form with its start button, whatever the answer."""
    return client.post("/new/auruxxx", data={"player": names, "action": "start", **fields}, headers=EN)


def token_of(response: TestResponse) -> str:
    """Return the game token a start redirect points at."""
    location = response.headers["Location"]
    assert location.startswith("/g/"), location
    return location.removeprefix("/g/")


# --- The form ------------------------------------------------------------------------------


def test_new_game_form_offers_six_empty_seats_and_the_house_rules(phone: PhoneClient) -> None:
    """The AURUXXX form shows six player fields, the first dealer choice and every house rule."""
    response = phone.get("/new/auruxxx", headers=EN)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "<html" in page and 'id="new-game"' in page
    assert seat_names(response) == [""] * 6
    assert checked_dealer(response) == 0
    for name in ("golden12_in_hand", "two_in_hand", "halving", "rounding"):
        assert f'name="{name}"' in page
    assert 'value="start"' in page


def test_new_twelve_days_form_offers_the_variants(phone: PhoneClient) -> None:
    """The 12 Days form asks for the variant and has no AURUXXX house rules."""
    response = phone.get("/new/12days", headers=EN)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    for variant in ("standard", "8nights", "8players"):
        assert f'name="variant" value="{variant}"' in page
    assert 'name="golden12_in_hand"' not in page


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_unknown_game_kind_is_not_found(plain_app: Flask, phone: PhoneClient, method: str) -> None:
    """Only the two games have a form; anything else is a missing page that creates nothing."""
    response = phone.open("/new/chess", method=method, data={"player": ["A", "B"], "action": "start"})
    assert response.status_code == 404
    assert game_count(plain_app) == 0


def test_move_up_swaps_with_the_seat_above(plain_app: Flask, phone: PhoneClient) -> None:
    """``up:i`` swaps seat i with seat i-1 and shows the form again without starting a game."""
    response = phone.post("/new/auruxxx", data={"player": ["Anna", "Ben", "Cleo"], "action": "up:2"})
    assert response.status_code == 200
    assert seat_names(response)[:3] == ["Anna", "Cleo", "Ben"]
    assert game_count(plain_app) == 0


def test_move_down_swaps_with_the_seat_below_and_the_dealer_moves_along(phone: PhoneClient) -> None:
    """``down:i`` swaps seat i with seat i+1; the first-dealer mark follows its player."""
    response = phone.post("/new/auruxxx", data={"player": ["Anna", "Ben", "Cleo"], "dealer": "0", "action": "down:0"})
    assert response.status_code == 200
    assert seat_names(response)[:3] == ["Ben", "Anna", "Cleo"]
    assert checked_dealer(response) == 1


def test_moves_past_the_ends_change_nothing(phone: PhoneClient) -> None:
    """Moving the first seat up or the last seat down leaves the order as it was."""
    names = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz"]
    for action in ("up:0", "down:5", "up:99", "down:x"):
        response = phone.post("/new/auruxxx", data={"player": names, "action": action})
        assert response.status_code == 200
        assert seat_names(response) == names


def test_clear_empties_one_seat(plain_app: Flask, phone: PhoneClient) -> None:
    """``clear:i`` empties seat i and keeps the others in place."""
    response = phone.post("/new/auruxxx", data={"player": ["Anna", "Ben", "Cleo"], "action": "clear:1"})
    assert response.status_code == 200
    assert seat_names(response)[:3] == ["Anna", "", "Cleo"]
    assert game_count(plain_app) == 0


def test_rearranging_keeps_the_chosen_house_rules(phone: PhoneClient) -> None:
    """A rearranging button shows the form with the house rules the table already picked."""
    response = phone.post("/new/auruxxx", data={"player": ["Anna", "Ben"], "golden12_in_hand": "25", "rounding": "ceil", "action": "up:1"})
    page = response.get_data(as_text=True)
    assert 'name="golden12_in_hand" value="25" checked' in page
    assert 'name="rounding" value="ceil" checked' in page


def test_recent_names_are_offered_after_a_game_was_started(phone: PhoneClient) -> None:
    """Names of a game this phone started come back as "add" buttons on the next form."""
    assert 'value="add:' not in phone.get("/new/auruxxx").get_data(as_text=True)
    assert submit(phone, ["Anna", "Ben"]).status_code == 303
    page = phone.get("/new/auruxxx").get_data(as_text=True)
    assert 'value="add:Anna"' in page and 'value="add:Ben"' in page


def test_add_puts_a_recent_name_into_the_first_empty_seat(phone: PhoneClient) -> None:
    """``add:Name`` fills the first empty seat, and the name is no longer offered."""
    submit(phone, ["Anna", "Ben"])
    response = phone.post("/new/auruxxx", data={"player": ["Cleo", "", "Dora"], "action": "add:Ben"})
    assert response.status_code == 200
    assert seat_names(response)[:3] == ["Cleo", "Ben", "Dora"]
    page = response.get_data(as_text=True)
    assert 'value="add:Ben"' not in page and 'value="add:Anna"' in page


def test_add_does_not_seat_a_name_twice(phone: PhoneClient) -> None:
    """Adding a name already seated, in any letters, in look-alike letters or with an invisible character, changes nothing."""
    for name in ("Anna", "ANNA", "\u0410nna", "Anna\u200b"):
        response = phone.post("/new/auruxxx", data={"player": ["Anna", ""], "action": f"add:{name}"})
        assert seat_names(response)[:2] == ["Anna", ""]


# --- Starting --------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_start_with_two_to_six_players_creates_the_game(plain_app: Flask, phone: PhoneClient, count: int) -> None:
    """A start with 2–6 names answers 303 to the new sheet, behind an unguessable token."""
    names = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz"][:count]
    response = submit(phone, names)
    assert response.status_code == 303
    token = token_of(response)
    assert TOKEN.fullmatch(token), token
    kind, players, _, first_dealer, previous = stored_game(plain_app, token)
    assert (kind, players, first_dealer, previous) == ("auruxxx", tuple(names), 0, None)
    assert event_count(plain_app) == 0
    assert phone.get(f"/g/{token}").status_code == 200


def test_start_skips_empty_seats_and_trims_names(plain_app: Flask, phone: PhoneClient) -> None:
    """Empty seats between players are left out; surrounding blanks are not part of a name."""
    response = submit(phone, ["  Anna ", "", "Ben", ""])
    assert response.status_code == 303
    assert stored_game(plain_app, token_of(response))[1] == ("Anna", "Ben")


def test_start_keeps_joiners_and_refuses_the_same_name_in_other_letters(plain_app: Flask, phone: PhoneClient) -> None:
    """The form follows the record's name rules: emoji with joiners and no-break spaces pass; "Anna", "anna " and a
    Cyrillic "Аnna" are one name, and a zero-width space alone is none."""
    response = submit(phone, ["Anna", " anna\u00a0"])
    assert response.status_code == 422
    assert problems(response) == ["'anna' counts as the same name as 'Anna'; names are unique within a game"]
    assert game_count(plain_app) == 0
    response = submit(phone, ["Anna", "\u0410nna", "\u200b"])
    assert response.status_code == 422
    assert problems(response) == [
        "'\u0410nna' counts as the same name as 'Anna'; names are unique within a game",
        "a player's name needs at least one visible character",
    ]
    assert game_count(plain_app) == 0
    names = ["\U0001f468\u200d\U0001f373", "\u0645\u0647\u0631\u200c\u0646\u0627\u0632", "Jean\u00a0Luc"]
    response = submit(phone, names)
    assert response.status_code == 303
    assert stored_game(plain_app, token_of(response))[1] == tuple(names)


def test_start_refuses_a_name_without_a_visible_base_character(plain_app: Flask, phone: PhoneClient) -> None:
    """Issue 36, R5: a combining accent alone, a braille blank or marks over a Hangul filler show no character of their
    own: no name, as record-format.md says; an accented name is one."""
    response = submit(phone, ["Anna", "\u0301", "\u2800", "\u3164\u0301"])
    assert response.status_code == 422
    assert problems(response) == ["a player's name needs at least one visible character"] * 3
    assert game_count(plain_app) == 0
    response = submit(phone, ["Anna", "Zoe\u0301"])
    assert response.status_code == 303
    assert stored_game(plain_app, token_of(response))[1] == ("Anna", "Zoe\u0301")


def test_start_stores_the_default_house_rules(plain_app: Flask, phone: PhoneClient) -> None:
    """Without choices the game gets the rulebook's defaults."""
    _, _, rules, _, _ = stored_game(plain_app, token_of(submit(phone, ["Anna", "Ben"])))
    assert rules == {"golden12_in_hand": 12, "two_in_hand": 2, "halving": "net", "rounding": "exact"}


def test_start_stores_the_chosen_house_rules(plain_app: Flask, phone: PhoneClient) -> None:
    """Every house rule the table picks is stored with the game, numbers as numbers."""
    response = submit(phone, ["Anna", "Ben"], golden12_in_hand="25", two_in_hand="25", halving="penalty", rounding="floor")
    _, _, rules, _, _ = stored_game(plain_app, token_of(response))
    assert rules == {"golden12_in_hand": 25, "two_in_hand": 25, "halving": "penalty", "rounding": "floor"}


def test_start_ignores_house_rule_values_the_form_does_not_offer(plain_app: Flask, phone: PhoneClient) -> None:
    """A value that is not one of the choices falls back to the default instead of being stored."""
    response = submit(phone, ["Anna", "Ben"], golden12_in_hand="13", two_in_hand="x", rounding="banker")
    _, _, rules, _, _ = stored_game(plain_app, token_of(response))
    assert rules == {"golden12_in_hand": 12, "two_in_hand": 2, "halving": "net", "rounding": "exact"}


def test_start_stores_the_chosen_first_dealer(plain_app: Flask, phone: PhoneClient) -> None:
    """The seat marked "deals first" is stored as ``first_dealer`` and shown on the sheet."""
    response = submit(phone, ["Anna", "Ben", "Cleo"], dealer="1")
    token = token_of(response)
    assert stored_game(plain_app, token)[3] == 1
    assert "Ben deals, Cleo starts" in phone.get(f"/g/{token}", headers=EN).get_data(as_text=True)


def test_first_dealer_counts_only_filled_seats(plain_app: Flask, phone: PhoneClient) -> None:
    """With an empty seat before the dealer, ``first_dealer`` is the dealer's place among the players."""
    response = submit(phone, ["Anna", "", "Ben", "Cleo"], dealer="2")
    assert stored_game(plain_app, token_of(response))[3] == 1


def test_a_dealer_mark_on_an_empty_seat_falls_back_to_the_first_player(plain_app: Flask, phone: PhoneClient) -> None:
    """A dealer mark on an empty or impossible seat makes the first player deal."""
    for dealer in ("4", "17", "-1", "x"):
        response = submit(phone, ["Anna", "Ben"], dealer=dealer)
        assert response.status_code == 303
        assert stored_game(plain_app, token_of(response))[3] == 0


def test_start_under_htmx_navigates_with_hx_redirect(plain_app: Flask, phone: PhoneClient) -> None:
    """An htmx start answers 204 with ``HX-Redirect`` to the sheet, so the page gets its own address."""
    response = phone.post("/new/auruxxx", data={"player": ["Anna", "Ben"], "action": "start"}, headers=HTMX)
    assert response.status_code == 204
    assert response.get_data() == b""
    target = response.headers["HX-Redirect"]
    assert target.startswith("/g/") and TOKEN.fullmatch(target.removeprefix("/g/"))
    assert game_count(plain_app) == 1


def test_start_twelve_days_stores_the_variant(plain_app: Flask, phone: PhoneClient) -> None:
    """A 12 Days start stores its variant."""
    response = phone.post("/new/12days", data={"player": ["A", "B", "C", "D", "E", "F"], "variant": "8players", "action": "start"})
    assert response.status_code == 303
    with plain_app.app_context():
        game = db.session.scalar(select(Game))
        assert game is not None and (game.kind, game.options) == ("12days", {"variant": "8players"})


# --- Refusals ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["Anna"], "AURUXXX is played by 2 to 6 players (got 1)"),
        ([], "AURUXXX is played by 2 to 6 players (got 0)"),
        (["Anna", "Anna"], "'Anna' is already a player; names are unique within a game"),
        (["Anna", "B" * 41], "a player's name has at most 40 characters (got 41)"),
    ],
    ids=["one player", "nobody", "duplicate names", "41-char name"],
)
def test_start_refuses_an_impossible_table(plain_app: Flask, phone: PhoneClient, names: list[str], message: str) -> None:
    """An impossible table answers 422 with the reason on the form, and no game is stored."""
    response = submit(phone, names)
    assert response.status_code == 422
    assert message in problems(response)
    assert game_count(plain_app) == 0
    assert seat_names(response)[: len(names)] == names


def test_refused_start_under_htmx_shows_the_form_again(plain_app: Flask, phone: PhoneClient) -> None:
    """Under htmx a refused start answers 422 with the form and its message, not a redirect."""
    response = phone.post("/new/auruxxx", data={"player": ["Anna"], "action": "start"}, headers={**HTMX, **EN})
    assert response.status_code == 422
    assert "HX-Redirect" not in response.headers
    assert 'id="new-game"' in response.get_data(as_text=True)
    assert problems(response) == ["AURUXXX is played by 2 to 6 players (got 1)"]
    assert game_count(plain_app) == 0


def test_the_form_has_no_room_for_a_seventh_player(phone: PhoneClient) -> None:
    """Six seats and ``maxlength=40`` on every name: the form itself cannot ask for a 7th player."""
    page = phone.get("/new/auruxxx").get_data(as_text=True)
    assert page.count('name="player"') == 6
    assert page.count('maxlength="40"') == 6


def test_a_forged_seventh_name_never_seats_a_seventh_player(plain_app: Flask, phone: PhoneClient) -> None:
    """A hand-made post with seven names never stores a game with seven players."""
    submit(phone, ["A", "B", "C", "D", "E", "F", "G"])
    with plain_app.app_context():
        assert all(len(game.players) <= 6 for game in db.session.scalars(select(Game)))


# --- CSRF ------------------------------------------------------------------------------------


def test_start_without_csrf_token_is_refused(strict_app: Flask, strict_phone: PhoneClient) -> None:
    """With CSRF on, a start without the token answers 400 and stores no game."""
    response = strict_phone.post("/new/auruxxx", data={"player": ["Anna", "Ben"], "action": "start"})
    assert response.status_code == 400
    assert game_count(strict_app) == 0


def test_start_with_the_forms_csrf_token_works(strict_app: Flask, strict_phone: PhoneClient) -> None:
    """The token the form carries lets the start through."""
    token = csrf_token(strict_phone.get("/new/auruxxx"))
    response = strict_phone.post("/new/auruxxx", data={"player": ["Anna", "Ben"], "action": "start", "csrf_token": token})
    assert response.status_code == 303
    assert game_count(strict_app) == 1


def test_tap_without_csrf_token_is_refused_and_writes_nothing(strict_app: Flask, strict_phone: PhoneClient) -> None:
    """A pass cross without the sheet's token answers 400; with it, the cross counts."""
    form = strict_phone.get("/new/auruxxx")
    started = strict_phone.post("/new/auruxxx", data={"player": ["Anna", "Ben"], "action": "start", "csrf_token": csrf_token(form)})
    token = token_of(started)
    tap = {"player": "Anna", "round": "0"}
    assert strict_phone.post(f"/g/{token}/pass", data=tap).status_code == 400
    assert event_count(strict_app) == 0
    sheet = strict_phone.get(f"/g/{token}")
    assert strict_phone.post(f"/g/{token}/pass", data={**tap, "csrf_token": csrf_token(sheet)}).status_code == 303
    assert event_count(strict_app) == 1


@pytest.mark.parametrize("route", ["undo", "rematch", "happy-man", "finish", "hand/0", "rounds/1/correct"])
def test_every_game_form_needs_the_csrf_token(strict_app: Flask, strict_phone: PhoneClient, route: str) -> None:
    """Every POST on a game answers 400 without the token and neither writes events nor games."""
    started = strict_phone.post(
        "/new/auruxxx",
        data={"player": ["Anna", "Ben"], "action": "start", "csrf_token": csrf_token(strict_phone.get("/new/auruxxx"))},
    )
    token = token_of(started)
    response = strict_phone.post(f"/g/{token}/{route}", data={"player": "Anna", "round": "0", "golden12": "1", "action": "save"})
    assert response.status_code == 400
    assert event_count(strict_app) == 0
    assert game_count(strict_app) == 1
