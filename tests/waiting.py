"""Waiting in tests for something to happen: ask until it is so, within a generous limit, never for a fixed time.

A busy machine makes everything slower but never changes what happens, so a test waits for the
event itself (a line in a log, a listener up, a promise in the page) and fails only when it
has not come long after it should have.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

PATIENCE_SECONDS = 30.0
"""How long a test waits for an event before it calls it missing: far beyond what a busy machine takes."""

ASK_AGAIN_SECONDS = 0.02
"""The pause between two questions: short enough to notice an event at once, long enough to leave the CPU to it."""


def until(condition: Callable[[], T], *, what: str, seconds: float = PATIENCE_SECONDS) -> T:
    """Return the first true answer of ``condition``; fail naming ``what`` was awaited if none comes within ``seconds``."""
    deadline = time.monotonic() + seconds
    while not (answer := condition()):
        assert time.monotonic() < deadline, f"still waiting after {seconds} s for {what}"
        time.sleep(ASK_AGAIN_SECONDS)
    return answer
