"""Tischblock as an app on the phone: installable, never losing a tap offline, keeping the screen on."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import APIResponse, Locator, Page, Route, expect
from sqlalchemy import select

from models import Event, Game, db
from tests.browser.pictures import keep_picture
from tests.browser.taps import eventually, finish_round, install, pass_cross, settled, start_game, table_address, type_hand
from tests.browser.test_twelve_days_phones import reveal
from tests.conftest import PhoneMaker
from tests.waiting import until

pytestmark = pytest.mark.browser


def pass_events(app: Flask, sheet: str) -> list[Event]:
    """Return the pass crosses the server holds for the game behind a sheet's address."""
    token = sheet.rsplit("/", 1)[1]
    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.token == token))
        assert game is not None
        events = list(db.session.scalars(select(Event).where(Event.game_id == game.id, Event.kind == "pass")))
        db.session.remove()
        return events


RETRIES_MS = 20_000
"""How long a tap may take through the outbox's waits between tries (2 s, then 4 s) and the tries themselves."""


def crosses(phone: Page, seat: int) -> Locator:
    """Return the counted (not waiting) crosses in one player's pass boxes."""
    return phone.locator(".pass-boxes").nth(seat).locator(".box.crossed")


def test_offline_round_trip_keeps_every_tap_and_the_server_counts_each_once(
    new_phone: PhoneMaker, live_app: Flask, live_server: str, screenshot_dir: Path
) -> None:
    """Installed, offline, reloaded, three taps waiting, back online: both phones and the server hold each tap once."""
    anna = new_phone()
    ben = new_phone()
    sheet = start_game(anna, live_server, ["Anna", "Ben", "Cleo"])
    install(anna)
    ben.goto(sheet)
    ben.locator(".pass-boxes").nth(2).click()  # Anna's phone sees it live, and keeps that state
    expect(crosses(anna, 2)).to_have_count(1)
    eventually(anna, "(url) => caches.match(url).then((kept) => kept.text()).then((page) => page.includes('box crossed'))", sheet)

    anna.context.set_offline(True)
    anna.reload()
    expect(crosses(anna, 2)).to_have_count(1)
    expect(anna.locator("#connection")).to_have_text(re.compile(r"^offline – Stand von \d\d:\d\d$"))
    keep_picture(anna, str(screenshot_dir / "pwa-1-offline-reload.png"))

    anna.clock.install()
    anna.locator(".pass-boxes").nth(0).click()
    anna.clock.run_for(300)  # a second deliberate tap, not a bouncing thumb
    anna.locator(".pass-boxes").nth(0).click()
    anna.locator(".pass-boxes").nth(1).click()
    expect(anna.locator(".box[data-pending]")).to_have_count(3)
    expect(anna.locator("#connection")).to_contain_text("offline – 3 Änderungen warten")
    keep_picture(anna, str(screenshot_dir / "pwa-2-three-taps-waiting.png"))
    assert len(pass_events(live_app, sheet)) == 1

    anna.context.set_offline(False)
    for phone in (anna, ben):
        expect(crosses(phone, 0)).to_have_count(2)
        expect(crosses(phone, 1)).to_have_count(1)
        expect(phone.locator(".box.crossed")).to_have_count(4)
    expect(anna.locator("#connection")).to_be_empty()
    events = pass_events(live_app, sheet)
    assert sorted(event.payload["player"] for event in events) == ["Anna", "Anna", "Ben", "Cleo"]
    assert len({event.idempotency_key for event in events}) == 4
    keep_picture(anna, str(screenshot_dir / "pwa-3-back-online.png"))

    anna.reload()  # nothing is sent twice after a reload either
    expect(crosses(anna, 0)).to_have_count(2)
    assert len(pass_events(live_app, sheet)) == 4


def test_undo_while_taps_wait_takes_back_the_last_waiting_tap_on_the_phone(
    new_phone: PhoneMaker, live_app: Flask, live_server: str, screenshot_dir: Path
) -> None:
    """Offline, Anna crosses for herself and by mistake for Ben; Undo names Ben's cross and takes it back at once; online, only hers counts."""
    anna = new_phone()
    sheet = start_game(anna, live_server, ["Anna", "Ben", "Cleo"])
    anna.locator(".pass-boxes").nth(2).click()
    expect(crosses(anna, 2)).to_have_count(1)
    undo = anna.locator("button.undo")
    expect(undo).to_contain_text("Kreuz für Cleo")
    settled(anna)  # the cross can show by the live push before the tap's own answer is in

    anna.context.set_offline(True)
    anna.locator(".pass-boxes").nth(0).click()
    anna.locator(".pass-boxes").nth(1).click()
    expect(anna.locator(".box[data-pending]")).to_have_count(2)
    expect(undo).to_contain_text("Kreuz für Ben")
    undo.click()
    expect(anna.locator(".box[data-pending]")).to_have_count(1)
    expect(anna.locator(".pass-boxes").nth(1).locator(".box[data-pending]")).to_have_count(0)
    expect(anna.locator("#connection")).to_contain_text("offline – 1 Änderung wartet")
    expect(undo).to_contain_text("Kreuz für Anna")
    keep_picture(anna, str(screenshot_dir / "pwa-undo-waiting-tap.png"))

    anna.context.set_offline(False)
    expect(crosses(anna, 0)).to_have_count(1)
    expect(anna.locator(".box[data-pending]")).to_have_count(0)
    expect(crosses(anna, 1)).to_have_count(0)
    expect(crosses(anna, 2)).to_have_count(1)
    expect(anna.locator("#notices .notice")).to_have_count(0)
    expect(undo).to_contain_text("Kreuz für Anna")
    assert sorted(event.payload["player"] for event in pass_events(live_app, sheet)) == ["Anna", "Cleo"]


def test_a_round_played_then_reloaded_offline_shows_the_last_state_the_phone_saw(
    new_phone: PhoneMaker, live_app: Flask, live_server: str, screenshot_dir: Path
) -> None:
    """A crosses Anna, B crosses Ben, A hands Cleo the figure, A leaves the Wi-Fi and reloads: all three are there.

    A tap made offline and reloaded still waits (its key kept on the phone) and counts once when the network is back.
    """
    anna = new_phone()
    ben = new_phone()
    sheet = start_game(anna, live_server, ["Anna", "Ben", "Cleo"])
    install(anna)
    ben.goto(sheet)
    anna.locator(".pass-boxes").nth(0).click()
    expect(crosses(anna, 0)).to_have_count(1)
    ben.locator(".pass-boxes").nth(1).click()  # pushed to Anna's phone
    expect(crosses(anna, 1)).to_have_count(1)
    anna.locator(".give-figure").nth(2).click()  # the tap's answer
    expect(anna.locator(".happy-man-row td").nth(2).locator(".holder")).to_have_count(1)
    settled(anna)
    seen_at = anna.locator("#sheet").get_attribute("data-as-of")

    anna.context.set_offline(True)  # right away: no moment to fetch the sheet once more
    eventually(anna, "(url) => caches.match(url).then((kept) => kept.text()).then((page) => page.includes('class=\"holder\"'))", sheet)
    anna.reload()
    expect(crosses(anna, 0)).to_have_count(1)
    expect(crosses(anna, 1)).to_have_count(1)
    expect(anna.locator(".happy-man-row td").nth(2).locator(".holder")).to_have_count(1)
    assert anna.locator("#sheet").get_attribute("data-as-of") == seen_at
    expect(anna.locator("#connection")).to_have_text(re.compile(r"^offline – Stand von \d\d:\d\d$"))

    anna.locator(".pass-boxes").nth(2).click()
    anna.reload()
    expect(crosses(anna, 0)).to_have_count(1)
    expect(crosses(anna, 1)).to_have_count(1)
    expect(anna.locator(".pass-boxes").nth(2).locator(".box[data-pending]")).to_have_count(1)
    expect(anna.locator("button.undo")).to_contain_text("Cleo")
    expect(anna.locator("#connection > span").first).to_have_text(re.compile(r"^offline – 1 Änderung wartet · Stand von \d\d:\d\d$"))
    keep_picture(anna, str(screenshot_dir / "pwa-4-offline-round-reloaded.png"))
    kept_key = anna.evaluate("() => JSON.parse(Object.values({...localStorage}).find((v) => v.includes('taps'))).taps[0].key")

    anna.context.set_offline(False)
    for phone in (anna, ben):
        expect(crosses(phone, 2)).to_have_count(1)
    expect(anna.locator("#connection")).to_be_empty()
    anna.reload()
    expect(crosses(anna, 2)).to_have_count(1)
    events = pass_events(live_app, sheet)
    assert sorted(event.payload["player"] for event in events) == ["Anna", "Ben", "Cleo"]
    assert [event.idempotency_key for event in events if event.payload["player"] == "Cleo"] == [kept_key]


KEPT_SHEET = """async ([url, selector]) => {
  const kept = await caches.match(url);
  if (!kept) return null;
  const page = new DOMParser().parseFromString(await kept.text(), "text/html");
  return [...page.querySelectorAll(`#sheet ${selector}`)].map((element) => element.textContent.trim());
}"""
"""What the phone keeps for offline use shows in the elements ``selector`` picks in its kept sheet (None: no copy kept)."""


def first_visit_by_the_table_code(new_phone: PhoneMaker, live_server: str, kind: str) -> tuple[Page, Page, str]:
    """Start a game of Anna, Ben and Cleo on Ben's phone; Anna's phone scans the table code once. Return Anna's, Ben's and the sheet.

    Anna's is a fresh phone: its service worker arrives with this one visit, after the page; nothing is reloaded.
    """
    ben = new_phone()
    sheet = start_game(ben, live_server, ["Anna", "Ben", "Cleo"], kind=kind)
    table = table_address(ben, sheet, live_server)
    ben.goto(sheet)
    anna = new_phone()
    with anna.expect_request(re.compile(r"/live\?")):
        anna.goto(table)
    anna.wait_for_url(sheet)
    eventually(anna, "() => !!navigator.serviceWorker.controller")
    return anna, ben, sheet


def expect_kept(phone: Page, sheet: str, selector: str) -> None:
    """Wait until the kept copy of the sheet shows what the page shows in ``selector``."""
    shown = phone.locator(f"#sheet {selector}").all_text_contents()
    until(lambda: phone.evaluate(KEPT_SHEET, [sheet, selector]) == [text.strip() for text in shown], what=f"the kept sheet to show {shown}")


def test_a_sheet_opened_without_a_network_follows_the_table_once_the_network_is_back(new_phone: PhoneMaker, live_server: str) -> None:
    """Anna opens her kept sheet offline, so its live stream cannot connect; back online, Ben's cross shows on it without a reload."""
    anna = new_phone()
    ben = new_phone()
    sheet = start_game(anna, live_server, ["Anna", "Ben"])
    install(anna)
    settled(anna)
    anna.context.set_offline(True)
    eventually(anna, "(url) => caches.match(url).then((kept) => Boolean(kept))", sheet)
    anna.reload()
    expect(anna.locator("#connection")).to_have_text(re.compile(r"^offline"))

    anna.context.set_offline(False)
    ben.goto(sheet)
    ben.locator(".pass-boxes").nth(1).click()
    expect(crosses(ben, 1)).to_have_count(1)
    expect(crosses(anna, 1)).to_have_count(1)


def test_a_sheet_opened_once_is_kept_offline_with_every_tap_seen_since(
    new_phone: PhoneMaker, live_server: str, screenshot_dir: Path
) -> None:
    """Anna's phone opens the sheet once by its table code, taps a cross for Cleo and sees Ben's cross for Ben live; offline, a reload shows both."""
    anna, ben, sheet = first_visit_by_the_table_code(new_phone, live_server, "auruxxx")
    pass_cross(anna, 2)
    settled(anna)
    pass_cross(ben, 1)
    expect(crosses(anna, 1)).to_have_count(1)
    expect_kept(anna, sheet, ".box.crossed")

    anna.context.set_offline(True)
    anna.reload()
    expect(crosses(anna, 1)).to_have_count(1)
    expect(crosses(anna, 2)).to_have_count(1)
    expect(anna.locator(".box.crossed")).to_have_count(2)
    expect(anna.locator("#connection")).to_have_text(re.compile(r"^offline – Stand von \d\d:\d\d$"))
    keep_picture(anna, str(screenshot_dir / "pwa-first-visit-offline-reload.png"))
    anna.context.set_offline(False)


def test_a_12_days_sheet_opened_once_is_kept_offline_with_every_card_seen_since(new_phone: PhoneMaker, live_server: str) -> None:
    """Anna's phone opens the 12 Days sheet once by its table code, reveals her card and sees Ben's revealed live; offline, a reload shows both."""
    anna, ben, sheet = first_visit_by_the_table_code(new_phone, live_server, "12days")
    faces = anna.locator("details.reveal .card-face")
    reveal(anna, 0, "7")
    expect(faces.nth(0)).to_have_text("7")
    settled(anna)
    reveal(ben, 1, "9")
    expect(faces.nth(1)).to_have_text("9")
    expect_kept(anna, sheet, "details.reveal .card-face")

    anna.context.set_offline(True)
    anna.reload()
    expect(faces).to_have_text(["7", "9", "?"])
    expect(anna.locator("#connection")).to_have_text(re.compile(r"^offline – Stand von \d\d:\d\d$"))
    anna.context.set_offline(False)


def test_a_double_tap_on_the_pass_boxes_is_one_cross_and_two_taps_300_ms_apart_are_two(
    new_phone: PhoneMaker, live_app: Flask, live_server: str
) -> None:
    """A bouncing thumb (the two clicks of a dblclick) makes one cross; taps 300 ms apart make two, even offline.

    The page's clock stands still during the double tap and is moved on by 300 ms between deliberate taps.
    """
    phone = new_phone()
    sheet = start_game(phone, live_server, ["Anna", "Ben"])
    anna, ben = phone.locator(".pass-boxes").nth(0), phone.locator(".pass-boxes").nth(1)
    phone.clock.install()
    phone.clock.pause_at(phone.evaluate("Date.now()") + 1000)
    anna.dblclick()
    phone.clock.resume()
    expect(crosses(phone, 0)).to_have_count(1)
    expect(phone.locator(".box[data-pending]")).to_have_count(0)
    anna.click()  # a deliberate tap once the first cross shows
    expect(crosses(phone, 0)).to_have_count(2)

    phone.context.set_offline(True)  # no answer replaces the sheet between these two: only their time tells them apart
    ben.click()
    phone.clock.run_for(300)
    ben.click()
    expect(ben.locator(".box[data-pending]")).to_have_count(2)
    phone.context.set_offline(False)
    expect(crosses(phone, 1)).to_have_count(2)
    expect(phone.locator(".box[data-pending]")).to_have_count(0)
    assert sorted(event.payload["player"] for event in pass_events(live_app, sheet)) == ["Anna", "Anna", "Ben", "Ben"]


def test_a_page_never_opened_shows_the_offline_page_without_a_network(
    new_phone: PhoneMaker, live_server: str, screenshot_dir: Path
) -> None:
    phone = new_phone()
    sheet = start_game(phone, live_server, ["Anna", "Ben"])
    install(phone)
    phone.context.set_offline(True)
    phone.goto(f"{sheet}/history")
    expect(phone.locator("h1")).to_have_text("Keine Verbindung")
    keep_picture(phone, str(screenshot_dir / "pwa-offline-page.png"))
    phone.goto(f"{live_server}/faq/auruxxx")  # warmed at install, never opened
    expect(phone.locator("h1")).to_contain_text("AURUXXX")

    phone.context.set_offline(False)
    phone.goto(f"{sheet}/join")
    phone.context.set_offline(True)
    phone.locator("details.renew summary").click()
    phone.locator("details.renew button[type=submit]").click()  # a form sent as a page
    expect(phone.locator("h1")).to_have_text("Keine Verbindung")
    phone.context.set_offline(False)


def cross_for_cleo_offline(new_phone: PhoneMaker, live_server: str) -> tuple[Page, Page, str]:
    """Open a game of Anna, Ben and Cleo on two phones; Anna's goes offline and taps a cross for Cleo. Return both and the sheet."""
    anna = new_phone()
    ben = new_phone()
    sheet = start_game(anna, live_server, ["Anna", "Ben", "Cleo"])
    ben.goto(sheet)
    anna.context.set_offline(True)
    anna.locator(".pass-boxes").nth(2).click()
    return anna, ben, sheet


def test_a_queued_tap_the_server_refuses_is_reported_and_the_others_still_go(
    new_phone: PhoneMaker, live_app: Flask, live_server: str, screenshot_dir: Path
) -> None:
    """Anna's phone is offline while Ben's gives Cleo her third pass: Anna's fourth for Cleo is refused, her own goes."""
    anna, ben, sheet = cross_for_cleo_offline(new_phone, live_server)
    anna.locator(".pass-boxes").nth(0).click()
    expect(anna.locator("#connection")).to_contain_text("offline – 2 Änderungen warten")
    for count in range(1, 4):
        ben.locator(".pass-boxes").nth(2).click()
        expect(crosses(ben, 2)).to_have_count(count)
    settled(ben)  # the last cross can show by the live push before its own answer replaces the sheet

    anna.context.set_offline(False)
    notice = anna.locator("#notices .notice")
    expect(notice).to_have_count(1)
    expect(notice).to_contain_text("Nicht gezählt: Runde 1: Kreuz für Cleo")
    expect(notice).to_contain_text("höchstens 3-mal Passen")
    expect(crosses(anna, 0)).to_have_count(1)
    expect(crosses(anna, 2)).to_have_count(3)
    keep_picture(anna, str(screenshot_dir / "pwa-refused-tap.png"))

    ben.locator(".give-figure").nth(1).click()  # a live update replaces Anna's sheet: the notice stays
    expect(anna.locator(".holder")).to_have_count(1)
    expect(notice).to_have_count(1)
    anna.reload()  # and it stays until it is read
    expect(notice).to_contain_text("Kreuz für Cleo")
    notice.get_by_role("button", name="Verstanden").click()
    expect(notice).to_have_count(0)
    anna.reload()
    expect(anna.locator("#notices .notice")).to_have_count(0)
    assert sorted(event.payload["player"] for event in pass_events(live_app, sheet)) == ["Anna", "Cleo", "Cleo", "Cleo"]


def test_a_tap_refused_because_its_round_is_over_links_the_correction_filled_in_with_it(
    new_phone: PhoneMaker, live_app: Flask, live_server: str, screenshot_dir: Path
) -> None:
    """Anna's cross for Cleo waits offline while Ben's phone ends round 1: the refusal leads to round 1's correction with the cross."""
    anna, ben, sheet = cross_for_cleo_offline(new_phone, live_server)
    expect(anna.locator("#connection")).to_contain_text("offline – 1 Änderung wartet")
    finish_round(ben, "Ben", 1)
    type_hand(ben, 0, 4)
    type_hand(ben, 2, 6)

    anna.context.set_offline(False)
    notice = anna.locator("#notices .notice")
    expect(notice).to_contain_text("Runde 1 ist schon vorbei")
    keep_picture(anna, str(screenshot_dir / "pwa-refused-tap-correction-link.png"), full_page=True)
    notice.get_by_role("link", name="Runde 1 damit korrigieren").click()
    anna.wait_for_url(re.compile(r"/rounds/1/correct\?passes-2=1$"))
    expect(anna.locator("input[name=passes-2][value='1']")).to_be_checked()
    expect(anna.locator("#correct .note")).to_contain_text("nicht gezählt")
    keep_picture(anna, str(screenshot_dir / "pwa-refused-tap-correction-form.png"), full_page=True)
    anna.locator("#correct button[type=submit].primary").click()
    anna.wait_for_url(sheet)
    expect(anna.locator("#sheet tr.round--done").first.locator("td").nth(2).locator(".crosses")).to_have_text("✕")
    expect(anna.locator("#notices .notice")).to_have_count(0)


def test_a_refusal_made_online_stays_after_the_live_update(new_phone: PhoneMaker, live_server: str) -> None:
    phone = new_phone()
    other = new_phone()
    sheet = start_game(phone, live_server, ["Anna", "Ben"])
    other.goto(sheet)
    boxes = phone.locator(".pass-boxes").nth(0)
    for count in range(1, 4):
        boxes.click()
        expect(crosses(phone, 0)).to_have_count(count)
        settled(phone)
    boxes.click()
    notice = phone.locator("#notices .notice")
    expect(notice).to_contain_text("Nicht gezählt: Runde 1: Kreuz für Anna")
    other.locator(".pass-boxes").nth(1).click()
    expect(crosses(phone, 1)).to_have_count(1)
    expect(notice).to_have_count(1)


def test_taps_made_offline_after_an_answer_that_was_on_its_way_show_the_offline_banner(
    new_phone: PhoneMaker, live_app: Flask, live_server: str, screenshot_dir: Path
) -> None:
    """The Wi-Fi drops while the answer to Anna's cross is on its way; it arrives, and the three taps after it wait, and say so.

    The answer is held until the phone is offline, as a slow network holds it: the server counted
    the cross, the phone is told so, and the phone is still offline.
    """
    phone = new_phone(service_workers="block")
    sheet = start_game(phone, live_server, ["Anna", "Ben", "Cleo"])
    answers: list[tuple[Route, APIResponse]] = []

    def slow_wifi(route: Route) -> None:
        """Let the server count the first cross, and hold its answer until the test lets it go; later taps go as they come."""
        if answers:
            route.continue_()
        else:
            answers.append((route, route.fetch()))

    phone.route(re.compile(r"/g/[^/]+/pass$"), slow_wifi)
    phone.locator(".pass-boxes").nth(0).click()
    until(lambda: answers or phone.evaluate("false"), what="the answer to Anna's cross held on its way")
    phone.context.set_offline(True)
    expect(phone.locator("#connection")).to_contain_text("offline – 1 Änderung wartet")
    route, answer = answers[0]
    route.fulfill(response=answer)
    expect(crosses(phone, 0)).to_have_count(1)
    expect(phone.locator(".box[data-pending]")).to_have_count(0)

    for seat in (0, 1, 2):
        phone.locator(".pass-boxes").nth(seat).click()
    expect(phone.locator(".box[data-pending]")).to_have_count(3)
    expect(phone.locator("#connection")).to_contain_text("offline – 3 Änderungen warten")
    keep_picture(phone, str(screenshot_dir / "pwa-offline-after-a-late-answer.png"))

    phone.context.set_offline(False)
    expect(phone.locator(".box.crossed:not([data-pending])")).to_have_count(4)
    expect(phone.locator("#connection")).to_be_empty()
    assert sorted(event.payload["player"] for event in pass_events(live_app, sheet)) == ["Anna", "Anna", "Ben", "Cleo"]


def test_a_tap_that_meets_a_timeout_or_a_server_error_is_sent_again_and_counted_once(
    new_phone: PhoneMaker, live_app: Flask, live_server: str
) -> None:
    """The first try times out; the second is stored but its answer is lost in a 502; the third counts as the same tap."""
    phone = new_phone(service_workers="block")
    sheet = start_game(phone, live_server, ["Anna", "Ben"])
    tries: list[str] = []

    def flaky_network(route: Route) -> None:
        tries.append(route.request.post_data_json["key"] if route.request.post_data_json else "")
        if len(tries) == 1:
            route.abort("timedout")
        elif len(tries) == 2:
            route.fetch()  # the server records the tap ...
            route.fulfill(status=502, body="Bad Gateway")  # ... but the phone only sees a proxy's error
        else:
            route.continue_()

    phone.route(re.compile(r"/g/[^/]+/pass$"), flaky_network)
    phone.locator(".pass-boxes").nth(0).click()
    expect(phone.locator("#connection")).to_contain_text("offline – 1 Änderung wartet")
    expect(phone.locator(".box[data-pending]")).to_have_count(1)
    expect(phone.locator("#connection")).to_contain_text("Serverfehler – 1 Änderung wartet", timeout=RETRIES_MS)
    expect(phone.locator(".box[data-pending]")).to_have_count(1)
    expect(crosses(phone, 0)).to_have_count(1)  # sent again on its own a moment later
    expect(phone.locator("#connection")).to_be_empty(timeout=RETRIES_MS)
    assert len(tries) == 3 and len(set(tries)) == 1 and all(tries)  # one key for every try
    assert len(pass_events(live_app, sheet)) == 1


def test_a_tap_whose_form_token_ran_out_is_sent_again_with_a_fresh_one(new_phone: PhoneMaker, live_app: Flask, live_server: str) -> None:
    """A sheet left standing for hours holds CSRF tokens the server no longer takes: the tap still counts, once."""
    phone = new_phone()
    sheet = start_game(phone, live_server, ["Anna", "Ben"])
    phone.evaluate("document.querySelectorAll('#sheet input[name=csrf_token]').forEach((field) => { field.value = 'stale'; })")
    phone.locator(".pass-boxes").nth(1).click()
    expect(crosses(phone, 1)).to_have_count(1)
    expect(phone.locator("#notices .notice")).to_have_count(0)
    assert [event.payload["player"] for event in pass_events(live_app, sheet)] == ["Ben"]


def test_a_card_revealed_offline_shows_on_its_face_until_it_is_counted(
    new_phone: PhoneMaker, live_server: str, screenshot_dir: Path
) -> None:
    phone = new_phone()
    start_game(phone, live_server, ["Anna", "Ben", "Cleo"], kind="12days")
    phone.context.set_offline(True)
    picker = phone.locator("details.reveal").nth(1)
    picker.locator("summary").click()
    picker.locator('input[name=card][value="7"] + button').click()
    face = picker.locator(".card-face")
    expect(face).to_have_text("7")
    expect(face).to_have_attribute("data-pending", "")
    expect(picker).not_to_have_attribute("open", "")
    expect(phone.locator("#connection")).to_contain_text("offline – 1 Änderung wartet")
    keep_picture(phone, str(screenshot_dir / "pwa-12days-card-waiting.png"))
    phone.context.set_offline(False)
    expect(face).not_to_have_attribute("data-pending", re.compile(".*"))
    expect(face).to_have_text("7")
    expect(phone.locator("#connection")).to_be_empty()


def test_a_picker_opened_while_a_tap_is_on_its_way_stays_open_when_the_answer_arrives(
    new_phone: PhoneMaker, live_server: str, screenshot_dir: Path
) -> None:
    """On slow Wi-Fi Ben's card is tapped and Cleo's picker opened before the answer is back: the answer leaves it open."""
    phone = new_phone(service_workers="block")
    start_game(phone, live_server, ["Anna", "Ben", "Cleo"], kind="12days")
    held: list[Route] = []

    def slow_wifi(route: Route) -> None:
        """Hold the first card on its way until the test lets it go; the later ones go at once."""
        if held:
            route.continue_()
        else:
            held.append(route)

    phone.route(re.compile(r"/g/[^/]+/card$"), slow_wifi)
    ben, cleo = (phone.locator("details.reveal").nth(seat) for seat in (1, 2))
    ben.locator("summary").click()
    with phone.expect_request(re.compile(r"/g/[^/]+/card$")):
        ben.locator('input[name=card][value="7"] + button').click()
    cleo.locator("summary").click()
    expect(cleo.locator('input[name=card][value="9"] + button')).to_be_visible()
    until(lambda: held or phone.evaluate("false"), what="Ben's card held on its way")
    held[0].continue_()
    expect(ben.locator(".card-face")).not_to_have_attribute("data-pending", re.compile(".*"))
    expect(ben.locator(".card-face")).to_have_text("7")
    expect(cleo).to_have_attribute("open", "")
    keep_picture(phone, str(screenshot_dir / "pwa-12days-picker-stays-open.png"))
    cleo.locator('input[name=card][value="9"] + button').click()
    expect(cleo.locator(".card-face")).to_have_text("9")
    expect(cleo.locator(".card-face")).not_to_have_attribute("data-pending", re.compile(".*"))


def test_a_form_that_cannot_be_sent_says_so(new_phone: PhoneMaker, live_server: str, screenshot_dir: Path) -> None:
    """Forms away from the sheet (a round's end, a hand, a correction) are not kept; they say that nothing was saved."""
    phone = new_phone()
    sheet = start_game(phone, live_server, ["Anna", "Ben"])
    phone.goto(f"{sheet}/finish")
    phone.locator("label.choice", has_text="Ben").click()
    phone.context.set_offline(True)
    phone.locator("button[type=submit]").click()
    expect(phone.get_by_role("alert")).to_contain_text("Keine Verbindung – nichts gespeichert")
    keep_picture(phone, str(screenshot_dir / "pwa-form-not-sent.png"))
    phone.context.set_offline(False)
    phone.locator("button[type=submit]").click()
    phone.wait_for_url(sheet)
    expect(phone.locator(".finisher-line")).to_contain_text("Ben")


WAKE_LOCK_STUB = """
window.wakeLockRequests = [];
Object.defineProperty(navigator, "wakeLock", {
  configurable: true,
  value: {
    request: async (type) => {
      const sentinel = new EventTarget();
      sentinel.type = type;
      sentinel.released = false;
      sentinel.release = async () => {
        sentinel.released = true;
        sentinel.dispatchEvent(new Event("release"));
      };
      window.wakeLockRequests.push(sentinel);
      return sentinel;
    },
  },
});
"""


def test_the_sheet_keeps_the_screen_on_until_switched_off(new_phone: PhoneMaker, live_server: str, screenshot_dir: Path) -> None:
    phone = new_phone()
    phone.context.add_init_script(WAKE_LOCK_STUB)
    start_game(phone, live_server, ["Anna", "Ben"])
    phone.wait_for_function("wakeLockRequests.length === 1 && wakeLockRequests[0].type === 'screen'")
    switch = phone.get_by_role("switch", name="Bildschirm während des Spiels anlassen")
    expect(switch).to_be_checked()

    # The browser lets go of the lock when the page is hidden; coming back takes it again.
    phone.evaluate("wakeLockRequests[0].release()")
    phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    phone.wait_for_function("wakeLockRequests.length === 2 && !wakeLockRequests[1].released")

    switch.scroll_into_view_if_needed()
    keep_picture(phone, str(screenshot_dir / "pwa-keep-awake-switch.png"))
    switch.uncheck()
    phone.wait_for_function("wakeLockRequests[1].released")
    phone.reload()  # the phone remembers the choice
    expect(phone.get_by_role("switch")).not_to_be_checked()
    phone.locator(".pass-boxes").first.click()
    expect(phone.locator(".box.crossed")).to_have_count(1)
    assert phone.evaluate("wakeLockRequests.length") == 0


def test_without_a_wake_lock_the_switch_stays_hidden(new_phone: PhoneMaker, live_server: str) -> None:
    phone = new_phone()
    phone.context.add_init_script("delete Navigator.prototype.wakeLock")
    start_game(phone, live_server, ["Anna", "Ben"])
    expect(phone.locator(".pass-boxes").first).to_be_visible()
    expect(phone.locator(".keep-awake")).to_be_hidden()


def test_the_manifest_parses_and_every_icon_loads_in_its_stated_size(new_phone: PhoneMaker, live_server: str) -> None:
    phone = new_phone()
    phone.goto(live_server)
    cdp = phone.context.new_cdp_session(phone)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest["errors"]
    icons = phone.evaluate(
        """async () => {
          const href = document.querySelector("link[rel=manifest]").href;
          const manifest = await (await fetch(href)).json();
          return Promise.all(manifest.icons.map((icon) => new Promise((resolve) => {
            const image = new Image();
            image.onload = () => resolve({ ...icon, loaded: `${image.naturalWidth}x${image.naturalHeight}` });
            image.onerror = () => resolve({ ...icon, loaded: null });
            image.src = new URL(icon.src, href);
          })));
        }"""
    )
    assert len(icons) == 4
    for icon in icons:
        assert icon["loaded"], icon
        if icon["sizes"] != "any":
            assert icon["loaded"] == icon["sizes"], icon
    assert {icon["purpose"] for icon in icons} == {"any", "maskable"}

    phone.evaluate("navigator.serviceWorker.ready.then(() => true)")
    phone.reload()
    phone.wait_for_function("!!navigator.serviceWorker.controller")
    errors = {error["errorId"] for error in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]}
    assert errors <= {"in-incognito"}  # a test browser's profiles are private; nothing else stands in the way
