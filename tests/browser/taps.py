"""Taps the browser tests share."""

from __future__ import annotations

import re

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
