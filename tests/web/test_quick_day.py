"""12 Days quick mode explains itself: revealed cards are cleared in one tap, recorded as undos, then the taker is noted."""

from __future__ import annotations

from tests.web.driver import TableDriver


def kinds(driver: TableDriver, token: str) -> list[str]:
    """Return the kinds of a game's events, in order."""
    return [kind for kind, _ in driver.events(token)]


def test_revealed_cards_are_cleared_in_one_tap_then_the_taker_is_noted(driver: TableDriver) -> None:
    token = driver.start("12days", variant="standard")
    driver.tap(token, "card", day="0", player="Anna", card="3")
    driver.tap(token, "card", day="0", player="Ben", card="5")
    page = driver.get(token).get_data(as_text=True)
    assert "2 cards are already revealed today" in page and "Clear today's cards" in page
    assert "/taken" not in page, "the taker buttons wait until the cards are cleared"
    driver.tap(token, "clear-day", day="0", key="clear-1")
    assert kinds(driver, token) == ["card", "card", "undo", "undo"]
    driver.tap(token, "clear-day", day="0", key="clear-1")
    assert kinds(driver, token) == ["card", "card", "undo", "undo"], "a resent tap counts once"
    page = driver.get(token).get_data(as_text=True)
    assert "/taken" in page and "already revealed" not in page
    driver.tap(token, "taken", day="0", player="Cleo")
    assert driver.table(token).game.days[0].taken_by == "Cleo"


def test_only_the_open_days_cards_can_be_cleared(driver: TableDriver) -> None:
    token = driver.start("12days", variant="standard")
    driver.tap(token, "taken", day="0", player="Anna")
    response = driver.post(token, "clear-day", day="0")
    assert response.status_code == 422
    assert driver.problems() == ["Only the cards of the day being played can be cleared."]
    assert kinds(driver, token) == ["taken"]
