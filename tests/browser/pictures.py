"""Pictures of the phones' screens that the browser tests keep in ``tests/screenshots`` for people to look at."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Locator, Page


def keep_picture(target: Page | Locator, path: Path | str, *, full_page: bool = False) -> None:
    """Keep a picture of a screen (or of a part of it), one pixel per CSS pixel.

    A Pixel 7 has 2.6 device pixels per CSS pixel: a picture at that scale takes five times as
    long to draw and encode and shows a person nothing more. A QR code that a test reads from a
    picture is photographed as the phone renders it instead (``scan`` in ``test_join.py``).
    """
    if isinstance(target, Page):
        target.screenshot(path=path, full_page=full_page, scale="css")
    else:
        target.screenshot(path=path, scale="css")
