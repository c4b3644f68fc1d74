"""Taps, and a way to wait for the page, that the browser tests share."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page


def start_game(page: Page, base: str, names: list[str], kind: str = "auruxxx") -> str:
    """Start a game by taps on the new-game form and return its sheet's address."""
    page.goto(f"{base}/new/{kind}")
    fields = page.locator("input[name=player]")
    for seat, name in enumerate(names):
        fields.nth(seat).fill(name)
    page.locator("button[value=start]").click()
    page.wait_for_url(re.compile(r"/g/[^/]+$"))
    return page.url


def eventually(phone: Page, script: str, arg: object = None, timeout: float = 10_000) -> None:
    """Wait until an (async) script in the page answers true: ``wait_for_function`` does not wait for promises."""
    deadline = time.monotonic() + timeout / 1000
    while not phone.evaluate(script, arg):
        assert time.monotonic() < deadline, f"still false after {timeout} ms: {script}"
        phone.wait_for_timeout(100)
