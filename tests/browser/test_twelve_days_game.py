"""Whole 12 Days games played by tapping on an emulated Pixel 7, checked against the rules engine.

Every tap is mirrored into a game record built here; after each day the sheet must show what
``rules.record.scored`` makes of that record: every day cell, the day points, the bonus and
the totals. Elements are found by CSS classes, ``name``/``value`` attributes and URLs, never
by (translated) text.

The sheets' live stream is blocked: these tests drive one phone, and a refresh pushed by the
stream would close an open card picker between two taps. Live updates are tested in
``test_join.py`` and ``test_live.py``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from rules import record
from rules.twelve_days import score as twelve_days
from tests.browser.pictures import keep_picture
from tests.browser.taps import WAIT, press_at_once, settled

pytestmark = pytest.mark.browser

S, M = "santa", "mrs_claus"
LABELS = {S: "Santa", M: "Mrs. Claus"}
TIMEOUT = WAIT


def label(card: int | str) -> str:
    """Return a card as the sheet shows it."""
    return LABELS.get(str(card), str(card))


class Table:
    """One phone playing one game, and the record the taps should add up to."""

    def __init__(self, page: Page, base: str, shots: Path, prefix: str, variant: str, names: list[str]) -> None:
        self.page = page
        self.shots = shots
        self.prefix = prefix
        self.shot_number = 0
        self.names = names
        self.raw: dict[str, Any] = {"game": "12days", "variant": variant, "players": names, "days": []}
        page.set_default_timeout(TIMEOUT)
        page.route(re.compile(r"/g/[^/]+/live\?"), lambda route: route.abort())
        page.goto(f"{base}/new/12days")
        page.locator(f"input[name=variant][value='{variant}']").check()
        fields = page.locator("input[name=player]")
        for seat, name in enumerate(names):
            fields.nth(seat).fill(name)
        self.shot("new-game")
        page.locator("button[value=start]").click()
        page.wait_for_url(re.compile(r"/g/[^/]+$"))
        self.sheet = page.url

    # --- Pictures ----------------------------------------------------------------------------

    def shot(self, what: str) -> None:
        """Keep a full-page screenshot of the screen as it is now."""
        self.shot_number += 1
        keep_picture(self.page, str(self.shots / f"{self.prefix}-{self.shot_number:02d}-{what}.png"), full_page=True)

    # --- Taps --------------------------------------------------------------------------------

    def post(self, button: Locator) -> None:
        """Tap a button whose form posts with htmx, and wait for the answer to be swapped in.

        The response alone is not enough: the outbox draws a revealed card on its face while the
        tap waits, and swaps the server's sheet in only after reading the answer. A picker opened
        in between would be replaced, closed, by that sheet.
        """
        with self.page.expect_response(lambda response: response.request.method == "POST") as answer:
            button.click()
        assert answer.value.status < 400, f"tap refused: {answer.value.status}"
        settled(self.page)

    def picker(self, seat: int) -> Locator:
        """Return a player's card picker, opened."""
        reveal = self.page.locator("details.reveal").nth(seat)
        if not reveal.evaluate("details => details.open"):
            reveal.locator("summary").click()
        return reveal

    def pick_button(self, seat: int, card: int | str) -> Locator:
        """Return the button with which a player reveals a card."""
        return self.picker(seat).locator(f"form:has(input[name=card][value='{card}']) button.pick")

    def reveal(self, seat: int, card: int | str) -> None:
        """Tap a player's name, then the card they revealed."""
        self.post(self.pick_button(seat, card))

    def play_day(self, *cards: int | str, gift_to: str | None = None, shot: str = "") -> None:
        """Reveal one card per player; a Claus winner then gives the day away."""
        number = len(self.raw["days"]) + 1
        for seat, card in enumerate(cards):
            self.reveal(seat, card)
            if seat < len(cards) - 1:
                expect(self.page.locator("details.reveal").nth(seat).locator(".card-face")).to_have_text(label(card))
        day: dict[str, Any] = {"played": dict(zip(self.names, cards))}
        if gift_to is not None:
            expect(self.page.locator("button.gift")).to_have_count(len(self.names) - 1)
            if shot:
                self.shot(shot)
            self.give(gift_to)
            day["gift_to"] = gift_to
        self.raw["days"].append(day)
        self.expect_days(number)

    def give(self, name: str) -> None:
        """A Claus winner gives the day (and any pot) to a player."""
        self.post(self.page.locator(f"form:has(input[name=player][value='{name}']) button.gift"))

    def quick(self, taker: str | None) -> None:
        """Note only who took the day (nobody: every card cancelled)."""
        number = len(self.raw["days"]) + 1
        quick = self.page.locator("details.quick")
        if not quick.evaluate("details => details.open"):
            quick.locator("summary").click()
        self.post(quick.locator(f"form:has(input[name=player][value='{taker or ''}']) button"))
        self.raw["days"].append({"taken_by": taker})
        self.expect_days(number)

    def expect_days(self, count: int) -> None:
        """Wait until the sheet lists that many finished days."""
        expect(self.page.locator("table.pad--days tbody tr.round--done")).to_have_count(count)

    def correct(self, number: int, cards: list[int | str], gift_to: str | None) -> None:
        """Correct a finished day on its form: the cards revealed, and whom a Claus winner gave it to."""
        self.page.locator("a.correct-link").nth(number - 1).click()
        self.page.wait_for_url(re.compile(rf"/days/{number}/correct$"))
        self.page.locator("input[name=mode][value=played]").check()
        for seat, card in enumerate(cards):
            self.page.locator(f"select[name=card-{seat}]").select_option(str(card))
        self.page.locator("select[name=gift_to]").select_option(gift_to or "")
        self.shot(f"correct-day-{number}")
        self.page.locator("#correct button[type=submit]").click()
        self.page.wait_for_url(self.sheet)
        day: dict[str, Any] = {"played": dict(zip(self.names, cards))}
        if gift_to:
            day["gift_to"] = gift_to
        self.raw["days"][number - 1] = day

    def enter_hand(self, seat: int, cards: dict[int | str, int], size: int) -> None:
        """Count a final hand on its stepper page, one tap per card, and save it at the full hand size."""
        page = self.page
        page.locator("a.hand-button").nth(seat).click()
        page.wait_for_url(re.compile(rf"/final-hand/{seat}$"))
        save = page.locator("button[value=save]")
        held = 0
        for card, count in cards.items():
            for _ in range(count):
                expect(save).to_be_disabled()
                self.post_hand(page.locator(f"button[value='more:{card}']"))
                held += 1
                expect(page.locator(".hand-total .sum")).to_have_text(str(held))
        assert held == size
        for card, count in cards.items():
            expect(page.locator(f"input[name='count-{card}']")).to_have_value(str(count))
        expect(save).to_be_enabled()
        expect(page.locator("button[value^='more:']:not([disabled])")).to_have_count(0)
        if seat == 0:
            self.shot("hand-full")
        with page.expect_response(lambda response: response.request.method == "POST"):
            save.click()
        page.wait_for_url(self.sheet)
        self.raw["hands"] = {**self.raw.get("hands", {}), self.names[seat]: [c for c, n in cards.items() for _ in range(n)]}

    def post_hand(self, button: Locator) -> None:
        """Tap a stepper button and wait for the hand form to come back."""
        with self.page.expect_response(lambda response: response.request.method == "POST"):
            button.click()

    # --- Checks ------------------------------------------------------------------------------

    def scored(self) -> dict[str, Any]:
        """Return what the rules make of the record built so far."""
        result: dict[str, Any] = record.scored(record.parse(self.raw))["result"]
        return result

    def check(self) -> dict[str, Any]:
        """Compare every day cell, the day points, bonus and totals on screen with the rules' result."""
        result = self.scored()
        rows = self.page.locator("table.pad--days tbody tr.round--done")
        expect(rows).to_have_count(len(self.raw["days"]))
        for index, day in enumerate(self.raw["days"]):
            row = rows.nth(index)
            played = day.get("played", {})
            expect(row.locator("td .played")).to_have_text([label(played[n]) if n in played else "–" for n in self.names])
            points = result["rounds"][index]
            expect(row.locator("td .points")).to_have_text([f"+{points[n]}" if points[n] else "" for n in self.names])
        footer = self.page.locator("table.pad--days tfoot tr")
        expect(footer.first.locator("td")).to_have_text([str(result["day_points"][n]) for n in self.names])
        expect(footer.last.locator("td")).to_have_text([str(result["totals"][n]) for n in self.names])
        if "hands" in self.raw:
            expect(footer.nth(1).locator("td .points")).to_have_text([str(result["bonus"][n]) for n in self.names])
        variant = twelve_days.find_variant(self.raw["variant"])
        if len(self.raw["days"]) == variant.days:
            assert sum(result["day_points"].values()) + result["lost"] == variant.day_points_total
        return result

    def check_majorities(self) -> None:
        """The majority table marks who scores each value, and ties with "="."""
        game = record.parse(self.raw)
        assert isinstance(game, twelve_days.Game)
        majorities = twelve_days.score_game(game).majorities
        rows = self.page.locator("table.majorities tbody tr")
        expect(rows).to_have_count(len(majorities))
        for row, majority in zip(rows.all(), reversed(majorities)):
            expect(row.locator("th")).to_have_text(str(majority.value))
            cells = row.locator("td")
            for seat, name in enumerate(self.names):
                cell = cells.nth(seat)
                classes = (cell.get_attribute("class") or "").split()
                assert ("holds" in classes) == (name in majority.holders), (majority.value, name, classes)
                assert ("tied" in classes) == (name in majority.holders and majority.tied), (majority.value, name, classes)
                text = cell.inner_text().strip()
                assert text.startswith(str(majority.counts[name] or "")), (majority.value, name, text)
                assert text.endswith("=") == (name in majority.holders and majority.tied), (majority.value, name, text)

    def check_winners(self, result: dict[str, Any]) -> None:
        """The winners are named at the top and their totals marked."""
        expect(self.page.locator(".result-names")).to_have_text(" · ".join(result["winners"]))
        winners = self.page.locator("table.pad--days tfoot td.total.winner")
        expect(winners).to_have_count(len(result["winners"]))


# --- 12 Days, the standard game -----------------------------------------------------------------


def test_a_standard_game_by_taps(live_server: str, phone: Page, screenshot_dir: Path) -> None:
    """Four players, twelve days: ties, Claus wins and gifts, pots, quick days, a correction, an undo, the final hands."""
    names = ["Anna", "Ben", "Cleo", "Dora"]
    table = Table(phone, live_server, screenshot_dir, "12days", "standard", names)
    expect(phone.locator("details.reveal")).to_have_count(4)
    expect(phone.locator("details.reveal[open]")).to_have_count(0)
    table.shot("sheet-empty")

    table.play_day(3, 5, 8, 10)
    table.check()
    table.play_day(3, 3, 5, 10)
    table.check()
    table.shot("after-day-2-threes-cancel")

    table.play_day(2, 2, 4, 4)
    table.check()
    expect(phone.locator(".pot")).to_be_visible()
    table.shot("day-3-nobody-pot")

    table.reveal(0, S)
    expect(table.pick_button(1, S)).to_be_disabled()
    expect(table.pick_button(1, M)).to_be_enabled()
    for seat, card in ((1, 2), (2, 7), (3, 11)):
        table.reveal(seat, card)
    expect(phone.locator("button.gift")).to_have_count(3)
    expect(phone.locator("form:has(input[name=player][value=Anna]) button.gift")).to_have_count(0)
    table.shot("day-4-claus-gift")
    table.give("Dora")
    table.raw["days"].append({"played": dict(zip(names, [S, 2, 7, 11])), "gift_to": "Dora"})
    table.expect_days(4)
    assert table.check()["rounds"][3]["Dora"] == 7

    table.play_day(S, M, 4, 8)
    assert table.check()["rounds"][4]["Cleo"] == 5
    table.quick("Ben")
    table.check()
    table.play_day(6, 6, 9, 9)
    table.quick(None)
    table.check()
    expect(phone.locator(".pot")).to_be_visible()
    table.shot("days-7-8-pot")
    table.play_day(2, 3, 3, 11)
    assert table.check()["rounds"][8]["Anna"] == 24
    table.quick("Dora")
    table.check()

    table.correct(6, [S, 1, 7, 9], gift_to="Cleo")
    assert table.check()["rounds"][5] == {"Anna": 0, "Ben": 0, "Cleo": 6, "Dora": 0}
    table.shot("after-correction")

    table.reveal(0, M)
    table.reveal(1, 2)
    table.reveal(2, 5)
    expect(phone.locator("details.reveal").nth(2).locator(".card-face")).to_have_text("5")
    table.shot("day-11-before-undo")
    table.post(phone.locator("button.undo"))
    expect(phone.locator("details.reveal").nth(2).locator(".card-face")).to_have_text("?")
    expect(phone.locator("details.reveal").nth(1).locator(".card-face")).to_have_text("2")
    table.reveal(2, 2)
    table.reveal(3, 12)
    table.give("Ben")
    table.raw["days"].append({"played": dict(zip(names, [M, 2, 2, 12])), "gift_to": "Ben"})
    table.expect_days(11)
    table.check()

    table.play_day(10, 10, 10, 10)
    result = table.check()
    assert result["lost"] == 12
    expect(phone.locator(".latest")).to_contain_text("Punkte sind verloren")
    expect(phone.locator("details.reveal")).to_have_count(0)
    expect(phone.locator("a.hand-button")).to_have_count(4)
    table.shot("after-day-12-hands-needed")

    hands: list[dict[int | str, int]] = [
        {12: 3, 11: 3, 10: 3, 9: 3},
        {12: 3, 11: 3, 8: 3, 7: 3},
        {12: 3, 10: 3, 8: 3, 6: 3},
        {12: 3, 9: 3, 7: 3, 5: 2, S: 1},
    ]
    for seat, hand in enumerate(hands):
        table.enter_hand(seat, hand, 12)
    result = table.check()
    table.check_majorities()
    table.check_winners(result)
    assert result["complete"]
    phone.locator(".result").scroll_into_view_if_needed()
    table.shot("end-of-game")


# --- The variants -----------------------------------------------------------------------------


def test_an_eight_nights_game(live_server: str, phone: Page, screenshot_dir: Path) -> None:
    """Three players, eight nights, cards 1–8 only and no Claus; hands of eight (the rules' worked example 11)."""
    names = ["Anna", "Ben", "Cleo"]
    table = Table(phone, live_server, screenshot_dir, "8nights", "8nights", names)
    picks = phone.locator("details.reveal").first.locator("button.pick")
    expect(picks).to_have_text([str(v) for v in range(1, 9)])
    expect(phone.locator("button.pick--claus, input[name=card][value=santa], input[name=card][value=mrs_claus]")).to_have_count(0)
    table.shot("sheet-empty")
    table.play_day(1, 6, 6)
    table.check()
    for taker in ("Ben", None, "Cleo", "Anna", "Ben", "Cleo", None):
        table.quick(taker)
    result = table.check()
    assert result["lost"] == 8
    expect(phone.locator("details.reveal")).to_have_count(0)
    table.shot("after-night-8")

    phone.locator("a.hand-button").first.click()
    phone.wait_for_url(re.compile(r"/final-hand/0$"))
    expect(phone.locator(".stepper-card")).to_have_text([str(v) for v in range(8, 0, -1)])
    phone.go_back()
    phone.wait_for_url(table.sheet)
    for seat, hand in enumerate([{8: 3, 7: 2, 6: 3}, {8: 3, 5: 5}, {7: 4, 6: 2, 4: 2}]):
        table.enter_hand(seat, hand, 8)
    result = table.check()
    assert result["bonus"] == {"Anna": 14, "Ben": 13, "Cleo": 11}
    table.check_majorities()
    table.check_winners(result)
    table.shot("end-of-game")


def test_an_eight_players_game(live_server: str, phone: Page, screenshot_dir: Path) -> None:
    """Six players from two decks: two Santas may be revealed on one day, and they cancel each other."""
    names = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Finn"]
    table = Table(phone, live_server, screenshot_dir, "8players", "8players", names)
    table.reveal(0, S)
    expect(table.pick_button(1, S)).to_be_enabled()
    table.reveal(1, S)
    expect(table.pick_button(2, S)).to_be_disabled()
    for seat, card in ((2, 3), (3, 5), (4, 7), (5, 9)):
        table.reveal(seat, card)
    table.raw["days"].append({"played": dict(zip(names, [S, S, 3, 5, 7, 9]))})
    table.expect_days(1)
    assert table.check()["rounds"][0]["Cleo"] == 1
    table.shot("day-1-two-santas")
    table.play_day(M, 1, 1, 4, 4, 12, gift_to="Finn")
    table.check()
    for taker in ("Ben", None, "Dora", "Emil", "Finn", "Anna", None, "Cleo", "Dora", "Emil"):
        table.quick(taker)
    result = table.check()
    assert result["lost"] == 0 and sum(result["day_points"].values()) == 78
    expect(phone.locator("a.hand-button")).to_have_count(6)
    table.shot("after-day-12")


def test_plus_tapped_faster_than_the_server_answers_counts_every_tap(live_server: str, phone: Page, screenshot_dir: Path) -> None:
    """Three 8s counted in a burst on patchy Wi-Fi: all three taps count, however fast they come."""
    table = Table(phone, live_server, screenshot_dir, "burst", "8nights", ["Anna", "Ben", "Cleo"])
    for _ in range(8):
        table.quick(None)
    phone.locator("a.hand-button").first.click()
    phone.wait_for_url(re.compile(r"/final-hand/0$"))
    press_at_once(phone, "button[value='more:8']", 3)
    expect(phone.locator("input[name='count-8']")).to_have_value("3")
    expect(phone.locator(".hand-total .sum")).to_have_text("3")
