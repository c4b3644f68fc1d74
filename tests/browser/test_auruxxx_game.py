"""Whole AURUXXX games played by tapping on emulated phones, checked against the rules engine.

Elements are found by CSS classes, ``name``/``value`` attributes and URLs only: the visible
texts are still being translated. Every score on screen is compared with what
``rules.record.scored`` makes of the same record, built here tap by tap.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect

from rules import record
from tests.browser.pictures import keep_picture
from tests.browser.taps import WAIT, crossed, finish_round, give_figure, open_hand, pass_cross, type_hand

pytestmark = pytest.mark.browser

HOUSE_RULES = {"golden12_in_hand": 12, "two_in_hand": 2, "halving": "net", "rounding": "exact"}
MIN_TARGET = 44
ACTION_TIMEOUT = WAIT
"""Milliseconds a tap may wait for its target: a local server answers in far less, a busy machine may take longer."""


# --- Fixtures ------------------------------------------------------------------------------


def _pixel7(browser: Browser, playwright: Playwright, **overrides: Any) -> BrowserContext:
    """Return a new German Pixel 7 context, with any device setting replaced."""
    context = browser.new_context(**{**playwright.devices["Pixel 7"], "locale": "de-DE", **overrides})
    context.set_default_timeout(ACTION_TIMEOUT)
    return context


@pytest.fixture
def second_phone(browser: Browser, playwright: Playwright) -> Iterator[Page]:
    """A second Pixel 7 at the same table, with its own cookies."""
    context = _pixel7(browser, playwright)
    yield context.new_page()
    context.close()


@pytest.fixture
def small_phone(browser: Browser, playwright: Playwright) -> Iterator[Page]:
    """A Pixel 7 squeezed to a 360×740 viewport, the narrowest common Android size."""
    context = _pixel7(browser, playwright, viewport={"width": 360, "height": 740})
    yield context.new_page()
    context.close()


# --- Expected scores -------------------------------------------------------------------------


def shown(number: int | float) -> str:
    """Return a record's number as the German sheet writes it: 8.5 -> "8,5", -5 -> "−5"."""
    text = f"{abs(number):g}".replace(".", ",")
    return f"−{text}" if number < 0 else text


def scored(players: list[str], rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the rules engine's result for the game record built by the test."""
    raw = {"game": "auruxxx", "players": players, "house_rules": HOUSE_RULES, "rounds": copy.deepcopy(rounds)}
    return record.scored(record.parse(raw))


def hand(numbers: tuple[int, ...] = (), **cards: int) -> dict[str, Any]:
    """Return a hand as the record writes it (every card count present)."""
    kinds = ("fifty", "action", "happy_man", "two", "golden12")
    return {"numbers": list(numbers), **{kind: cards.get(kind, 0) for kind in kinds}}


def expect_sheet(page: Page, players: list[str], rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """Check every finished score cell and every total on the sheet against the rules engine."""
    result: dict[str, Any] = scored(players, rounds)["result"]
    done = page.locator("#sheet tr.round--done")
    expect(done).to_have_count(len(rounds))
    for index, row_scores in enumerate(result["rounds"]):
        cells = done.nth(index).locator("details.score summary .points")
        expect(cells).to_have_text([shown(row_scores[p]) for p in players])
    expect(page.locator("#sheet tfoot .total")).to_have_text([shown(result["totals"][p]) for p in players])
    return result


def expect_stored_record(page: Page, token_url: str, players: list[str], rounds: list[dict[str, Any]]) -> None:
    """Check the game's exported record holds exactly the rounds the test entered."""
    exported = json.loads(page.request.get(token_url + "/record.json").text())
    assert exported["rounds"] == scored(players, rounds)["rounds"]


# --- Taps --------------------------------------------------------------------------------


def start_game(page: Page, base: str, players: list[str], *, dealer: int = 0, shot: Path | None = None) -> str:
    """Fill in the new-game form by taps and return the new sheet's URL."""
    page.goto(base + "/new/auruxxx")
    names = page.locator("input[name=player]")
    for seat, name in enumerate(players):
        names.nth(seat).fill(name)
    page.locator("label.dealer-pick").nth(dealer).tap()
    expect(page.locator("input[name=dealer]").nth(dealer)).to_be_checked()
    for option, value in HOUSE_RULES.items():
        page.locator(f"label.choice:has(input[name={option}][value='{value}'])").tap()
        expect(page.locator(f"input[name={option}][value='{value}']")).to_be_checked()
    if shot is not None:
        keep_picture(page, shot, full_page=True)
    page.locator("button[value=start]").tap()
    page.wait_for_url(re.compile(r"/g/[^/]+$"))
    expect(page.locator("#sheet")).to_be_visible()
    return page.url


def key(page: Page, token: str) -> None:
    """Tap one keypad key and wait until the card shows among the entered ones."""
    chips = page.locator("#keypad .entered button[value^='remove:']")
    before = chips.count()
    page.locator(f"#keypad button[value='add:{token}']").tap()
    expect(chips).to_have_count(before + 1)


def save_hand(page: Page) -> None:
    """Save the keypad's cards and wait for the sheet."""
    page.locator("#keypad button[value=save]").tap()
    page.wait_for_url(re.compile(r"/g/[^/]+$"))
    expect(page.locator("#sheet")).to_be_visible()


def enter_hand(page: Page, seat: int, tokens: list[str], total: int) -> None:
    """Enter a whole hand card by card, check the running sum, and save it."""
    open_hand(page, seat)
    for token in tokens:
        key(page, token)
    expect(page.locator("#keypad output.sum")).to_have_text(shown(total))
    save_hand(page)


def sideways_scroll(page: Page, where: str) -> list[str]:
    """Return a problem if the page is wider than the screen, else nothing.

    A mobile browser widens its layout viewport to content that overflows, so
    ``innerWidth`` grows along with it; ``clientWidth`` keeps the device's width.
    """
    widths = page.evaluate(
        "({scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth, inner: window.innerWidth})"
    )
    if widths["scroll"] <= min(widths["inner"], widths["client"]):
        return []
    wide = page.evaluate(
        "width => [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > width + 0.5"
        " || e.getBoundingClientRect().left < -0.5).slice(0, 3).map(e => e.tagName.toLowerCase() +"
        " String(e.className).trim().split(/\\s+/).filter(Boolean).map(c => '.' + c).join(''))",
        widths["client"],
    )
    return [f"{where} scrolls sideways: scrollWidth {widths['scroll']} > {widths['client']} (widest: {', '.join(wide)})"]


SMALL_TARGETS_JS = """
([selector, minimum]) => [...document.querySelectorAll(selector)]
  .filter(e => e.checkVisibility({visibilityProperty: true, opacityProperty: true}))
  .map(e => [e, e.getBoundingClientRect()])
  .filter(([e, box]) => box.width < minimum || box.height < minimum)
  .map(([e, box]) => e.tagName.toLowerCase()
    + (typeof e.className === 'string' && e.className.trim() ? '.' + e.className.trim().split(/\\s+/).join('.') : '')
    + (e.getAttribute('href') ? '[href=' + e.getAttribute('href').replace(/^\\/g\\/[^/]+/, '…') + ']' : '')
    + (e.value ? '[value=' + e.value + ']' : '')
    + ` ${Math.round(box.width)}×${Math.round(box.height)} ` + JSON.stringify(e.innerText.trim().slice(0, 20)))
"""


def small_targets(page: Page, selector: str) -> list[str]:
    """Return the visible tap targets under ``selector`` smaller than 44×44 CSS px, described."""
    return list(page.evaluate(SMALL_TARGETS_JS, [selector, MIN_TARGET]))


# --- 1. A whole game by taps ------------------------------------------------------------------


def test_whole_game_by_taps(live_server: str, phone: Page, screenshot_dir: Path) -> None:
    phone.set_default_timeout(ACTION_TIMEOUT)
    players = ["Anna", "Ben", "Cara", "Dora"]
    shots = screenshot_dir
    url = start_game(phone, live_server, players, dealer=1, shot=shots / "game-01-new-game.png")
    dealer_head = phone.locator("#sheet thead th.player").nth(1)
    expect(dealer_head.locator(".marker:not(.marker--start)")).to_have_count(1)
    expect(phone.locator("#sheet thead th.player").nth(2).locator(".marker--start")).to_have_count(1)
    expect(phone.locator("#sheet tr.round--current .pass-boxes")).to_have_count(4)
    expect(phone.locator("#sheet .happy-man-row .holder")).to_have_count(0)
    keep_picture(phone, shots / "game-02-sheet-empty.png", full_page=True)
    rounds: list[dict[str, Any]] = []

    # Round 1: crosses, the figure goes to Ben and then to Cara, Anna ends with 2 Golden 12.
    pass_cross(phone, 0)
    pass_cross(phone, 1)
    pass_cross(phone, 2, times=2)
    pass_cross(phone, 3)
    give_figure(phone, 1)
    give_figure(phone, 2)
    keep_picture(phone, shots / "game-03-round1-passes-and-figure.png", full_page=True)
    finish_round(phone, "Anna", 2, shot=shots / "game-04-finish-form.png")
    expect(phone.locator("#sheet tr.round--current td").nth(0).locator(".pentagon--live")).to_have_text("2")
    expect(phone.locator("#sheet a.hand-button")).to_have_count(3)
    keep_picture(phone, shots / "game-05-round1-count-hands.png", full_page=True)

    # Ben: every kind of card, and a wrongly tapped 9 taken back out.
    open_hand(phone, 1)
    for token in ("n7", "n9", "fifty", "action", "happy_man", "two", "golden12"):
        key(phone, token)
    expect(phone.locator("#keypad output.sum")).to_have_text("130")
    keep_picture(phone, shots / "game-06-keypad-with-wrong-9.png", full_page=True)
    phone.locator("#keypad button[value='remove:1']").tap()
    expect(phone.locator("#keypad .entered button[value^='remove:']")).to_have_count(6)
    expect(phone.locator("#keypad output.sum")).to_have_text("121")
    expect(phone.locator("#keypad input[name=cards]")).to_have_value("n7 fifty action happy_man two golden12")
    keep_picture(phone, shots / "game-07-keypad-ben.png", full_page=True)
    save_hand(phone)
    expect(phone.locator("#sheet a.hand-button.done[href$='/hand/1']")).to_have_count(1)

    enter_hand(phone, 2, ["n3", "n0", "n12"], 15)
    open_hand(phone, 3)
    phone.locator("#keypad details.typed summary").tap()
    phone.locator("#keypad input[name=points]").fill("30")
    keep_picture(phone, shots / "game-08-keypad-typed-total.png", full_page=True)
    phone.locator("#keypad button[value=save-points]").tap()
    phone.wait_for_url(url)
    rounds.append(
        {
            "finisher": "Anna",
            "golden12": 2,
            "happy_man": "Cara",
            "passes": {"Anna": 1, "Ben": 1, "Cara": 2, "Dora": 1},
            "hands": {
                "Ben": hand((7,), fifty=1, action=1, happy_man=1, two=1, golden12=1),
                "Cara": hand((3, 0, 12)),
                "Dora": {"points": 30},
            },
        }
    )
    expect_sheet(phone, players, rounds)
    expect(phone.locator("#sheet tr.round--done").nth(0).locator("details.score").nth(2)).to_contain_text("12,5")
    # The figure stays with Cara into round 2.
    expect(phone.locator("#sheet .happy-man-row td").nth(2).locator(".holder")).to_be_visible()
    keep_picture(phone, shots / "game-09-after-round1.png", full_page=True)

    # Round 2: Dora takes the figure, Ben ends with 3 Golden 12; one wrong cross is undone.
    pass_cross(phone, 0)
    pass_cross(phone, 2)
    give_figure(phone, 3)
    pass_cross(phone, 2)
    expect(crossed(phone, 2)).to_have_count(2)
    expect(phone.locator("#sheet button.undo")).to_be_visible()
    keep_picture(phone, shots / "game-10-round2-before-undo.png", full_page=True)
    phone.locator("#sheet button.undo").tap()
    expect(crossed(phone, 2)).to_have_count(1)
    expect(crossed(phone, 0)).to_have_count(1)
    expect(phone.locator("#sheet .happy-man-row td").nth(3).locator(".holder")).to_be_visible()
    phone.reload()
    expect(crossed(phone, 2)).to_have_count(1)
    keep_picture(phone, shots / "game-11-round2-after-undo.png", full_page=True)
    finish_round(phone, "Ben", 3)
    enter_hand(phone, 0, ["n5", "n8"], 13)
    enter_hand(phone, 2, ["n11"], 11)
    enter_hand(phone, 3, ["n9", "n8"], 17)
    rounds.append(
        {
            "finisher": "Ben",
            "golden12": 3,
            "happy_man": "Dora",
            "passes": {"Anna": 1, "Ben": 0, "Cara": 1, "Dora": 0},
            "hands": {"Anna": hand((5, 8)), "Cara": hand((11,)), "Dora": hand((9, 8))},
        }
    )
    expect_sheet(phone, players, rounds)
    keep_picture(phone, shots / "game-12-after-round2.png", full_page=True)

    # Round 3: Dora keeps the figure and passes three times; Cara ends; Anna's hand is empty.
    pass_cross(phone, 3, times=3)
    pass_cross(phone, 1)
    finish_round(phone, "Cara", 1)
    open_hand(phone, 0)
    expect(phone.locator("#keypad output.sum")).to_have_text("0")
    save_hand(phone)
    enter_hand(phone, 1, ["n10"], 10)
    enter_hand(phone, 3, ["n4"], 4)
    rounds.append(
        {
            "finisher": "Cara",
            "golden12": 1,
            "happy_man": "Dora",
            "passes": {"Anna": 0, "Ben": 1, "Cara": 0, "Dora": 3},
            "hands": {"Anna": hand(), "Ben": hand((10,)), "Dora": hand((4,))},
        }
    )
    result = expect_sheet(phone, players, rounds)
    expect(phone.locator("#sheet .result-names")).to_have_text(" · ".join(result["winners"]))
    expect(phone.locator("#sheet tr.round--current")).to_have_count(0)
    expect_stored_record(phone, url, players, rounds)
    keep_picture(phone, shots / "game-13-end-of-game.png", full_page=True)

    # A finished cell explains itself when tapped.
    cell = phone.locator("#sheet tr.round--done").nth(1).locator("details.score").nth(3)
    cell.locator("summary").tap()
    explain = cell.locator(".explain")
    expect(explain).to_be_visible()
    expect(explain.locator("strong")).to_have_text(re.compile(r"^Dora\b.*\b2\b"))
    expect(explain).to_contain_text("17")
    expect(explain).to_contain_text("8,5")
    box = explain.bounding_box()
    viewport = phone.viewport_size
    assert box is not None and viewport is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], "the explanation sticks out of the screen"
    keep_picture(phone, shots / "game-14-explanation-open.png", full_page=True)

    # Correct round 1: Dora's hand was 20, not 30, and Ben (not Cara) held the figure.
    phone.locator("#sheet tr.round--done").nth(0).locator("a.correct-link").tap()
    phone.wait_for_url(re.compile(r"/rounds/1/correct$"))
    expect(phone.locator("#correct input[name=finisher][value=Anna]")).to_be_checked()
    expect(phone.locator("#correct input[name=golden12][value='2']")).to_be_checked()
    expect(phone.locator("#correct input[name=happy_man][value=Cara]")).to_be_checked()
    for seat, count in enumerate((1, 1, 2, 1)):
        expect(phone.locator(f"#correct input[name=passes-{seat}][value='{count}']")).to_be_checked()
    for seat, total in ((1, "121"), (2, "15"), (3, "30")):
        expect(phone.locator(f"#correct input[name=hand-{seat}]")).to_have_value(total)
    # The finisher has no hand: their points field is not offered, and follows the finisher chosen.
    expect(phone.locator("#correct input[name=hand-0]")).to_be_hidden()
    phone.locator("#correct label.choice:has(input[name=finisher][value=Ben])").tap()
    expect(phone.locator("#correct input[name=hand-1]")).to_be_hidden()
    expect(phone.locator("#correct input[name=hand-0]")).to_be_visible()
    phone.locator("#correct label.choice:has(input[name=finisher][value=Anna])").tap()
    expect(phone.locator("#correct input[name=hand-0]")).to_be_hidden()
    expect(phone.locator("#correct input[name=hand-1]")).to_be_visible()
    phone.locator("#correct label.choice:has(input[name=happy_man][value=Ben])").tap()
    phone.locator("#correct input[name=hand-3]").fill("20")
    keep_picture(phone, shots / "game-15-correction-form.png", full_page=True)
    phone.locator("#correct button.primary").tap()
    phone.wait_for_url(url)
    rounds[0]["happy_man"] = "Ben"
    rounds[0]["hands"]["Dora"] = {"points": 20}
    result = expect_sheet(phone, players, rounds)
    expect(phone.locator("#sheet tr.round--done").nth(0).locator("details.score summary .points")).to_have_text(["−5", "63", "25", "25"])
    expect(phone.locator("#sheet .result-names")).to_have_text(" · ".join(result["winners"]))
    expect_stored_record(phone, url, players, rounds)
    keep_picture(phone, shots / "game-16-after-correction.png", full_page=True)

    phone.goto(url + "/history")
    expect(phone.locator("ol.history li")).to_have_count(29)
    expect(phone.locator("ol.history li.undone")).to_have_count(1)
    keep_picture(phone, shots / "game-17-history.png", full_page=True)

    phone.goto(url)
    phone.locator("form[action$='/rematch'] button").tap()
    phone.wait_for_url(lambda address: address != url and re.search(r"/g/[^/]+$", address) is not None)
    expect(phone.locator("#sheet tr.round--current .pass-boxes")).to_have_count(4)
    expect(phone.locator("#sheet thead th.player .name")).to_have_text(players)
    expect(phone.locator("#sheet tfoot .total")).to_have_text(["0"] * 4)
    expect(phone.locator("#sheet .earlier a")).to_have_count(1)
    assert phone.locator("#sheet .earlier a").get_attribute("href") != url.removeprefix(live_server), "earlier games are read-only"
    keep_picture(phone, shots / "game-18-rematch.png", full_page=True)


# --- 2. Two phones at one table -------------------------------------------------------------


def test_two_phones_enter_hands_at_once(live_server: str, phone: Page, second_phone: Page, screenshot_dir: Path) -> None:
    phone.set_default_timeout(ACTION_TIMEOUT)
    players = ["Jana", "Kai", "Lea"]
    url = start_game(phone, live_server, players)
    pass_cross(phone, 1)
    finish_round(phone, "Jana", 1)
    second_phone.goto(url)
    expect(second_phone.locator("#sheet a.hand-button")).to_have_count(2)

    open_hand(phone, 1)
    open_hand(second_phone, 2)
    for kai, lea in (("n4", "fifty"), ("action", "n6"), ("n12", "two")):
        key(phone, kai)
        key(second_phone, lea)
    expect(phone.locator("#keypad output.sum")).to_have_text("41")
    expect(second_phone.locator("#keypad output.sum")).to_have_text("58")
    keep_picture(phone, screenshot_dir / "two-phones-1-kai.png", full_page=True)
    keep_picture(second_phone, screenshot_dir / "two-phones-2-lea.png", full_page=True)

    phone.locator("#keypad button[value=save]").tap(no_wait_after=True)
    second_phone.locator("#keypad button[value=save]").tap(no_wait_after=True)
    phone.wait_for_url(url)
    second_phone.wait_for_url(url)

    rounds = [
        {
            "finisher": "Jana",
            "golden12": 1,
            "happy_man": None,
            "passes": {"Jana": 0, "Kai": 1, "Lea": 0},
            "hands": {"Kai": hand((4, 12), action=1), "Lea": hand((6,), fifty=1, two=1)},
        }
    ]
    for page in (phone, second_phone):
        page.reload()
        expect(page.locator("#sheet .problems")).to_have_count(0)
        expect(page.locator("#sheet tr.round--current")).to_have_count(1)
        expect(page.locator("#sheet tr.round--current .pass-boxes .box.crossed")).to_have_count(0)
        expect_sheet(page, players, rounds)
    expect_stored_record(phone, url, players, rounds)
    keep_picture(second_phone, screenshot_dir / "two-phones-3-round-closed.png", full_page=True)


# --- 3. Six players on a small phone ----------------------------------------------------------


def test_six_players_fit_a_small_phone(live_server: str, small_phone: Page, screenshot_dir: Path) -> None:
    page = small_phone
    players = ["Alexandra", "Bartholomäus", "Cem", "Dörte", "Eleonore", "Friedrich-Wilhelm"]
    problems: list[str] = []

    def check(where: str, targets: str, shot: str) -> None:
        """Note what is too wide or too small on this screen; stop once the page overflows.

        An overflowing page makes the phone widen its layout viewport, and taps then land
        beside their targets, so nothing after it could be trusted.
        """
        keep_picture(page, screenshot_dir / shot, full_page=True)
        problems.extend(f"{where}: {target}" for target in small_targets(page, targets))
        overflow = sideways_scroll(page, where)
        if overflow:
            pytest.fail("\n".join(["the page is wider than a 360 px phone:", *overflow, *problems]))

    page.goto(live_server + "/new/auruxxx")
    check("new-game form", "form button, form a, form label.choice", "small-1-new-game.png")
    url = start_game(page, live_server, players)
    expect(page.locator("#sheet tr.round--current .pass-boxes")).to_have_count(6)
    sheet_targets = "#sheet button, #sheet a, #sheet label.choice, #sheet summary"
    check("sheet (round open)", sheet_targets, "small-2-sheet.png")

    page.locator("#sheet a[href$='/finish']").first.tap()
    page.wait_for_url(re.compile(r"/finish$"))
    check("finish form", "#finish label.choice, #finish button, #finish a", "small-3-finish.png")
    page.goto(url)
    finish_round(page, "Friedrich-Wilhelm", 1)
    check("sheet (counting hands)", sheet_targets, "small-4-sheet-hands.png")

    open_hand(page, 1)
    for token in ("n12", "fifty", "golden12", "happy_man", "n10", "action", "two"):
        key(page, token)
    check("keypad", "#keypad button, #keypad a, #keypad summary", "small-5-keypad.png")
    save_hand(page)
    type_hand(page, 0, 10)
    for seat in (2, 3, 4):
        enter_hand(page, seat, [f"n{seat}"], seat)
    expect(page.locator("#sheet tr.round--done")).to_have_count(1)
    check("sheet (round 1 done)", sheet_targets, "small-6-sheet-round1-done.png")
    page.goto(url + "/rounds/1/correct")
    check("correction form", "#correct label.choice, #correct button, #correct a", "small-7-correction.png")

    assert not problems, "tap targets below 44×44 CSS px:\n" + "\n".join(problems)


# --- 4. No 4th pass --------------------------------------------------------------------------


def test_a_fourth_pass_is_refused(live_server: str, phone: Page, screenshot_dir: Path) -> None:
    phone.set_default_timeout(ACTION_TIMEOUT)
    url = start_game(phone, live_server, ["Ute", "Veit"])
    pass_cross(phone, 0, times=3)
    refusal = phone.locator("#notices .notice")
    expect(refusal).to_have_count(0)
    phone.locator("#sheet tr.round--current .pass-boxes").nth(0).tap()
    expect(refusal).to_contain_text("Ute: höchstens 3-mal Passen")
    expect(crossed(phone, 0)).to_have_count(3)
    keep_picture(phone, screenshot_dir / "fourth-pass-refused.png", full_page=True)
    phone.goto(url)
    expect(crossed(phone, 0)).to_have_count(3)
    expect(refusal).to_be_visible()  # the refusal stays until it is read
    refusal.get_by_role("button").click()
    expect(refusal).to_have_count(0)
