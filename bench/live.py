"""Measure how long a tap on one phone takes to show on another: two Chromium phones against gunicorn.

    .venv/bin/python bench/live.py              # 30 taps on SQLite, median and p95 against a floor
    .venv/bin/python bench/live.py --repeat 50

Phone A hands the Happy-Man figure on; phone B has the same sheet open and gets the new
sheet pushed on its live stream (server-sent events), which htmx swaps in. Both pages
timestamp in the page (``performance.timeOrigin + performance.now()``, one clock for both
renderers): A right before the tap, B when a MutationObserver sees the figure in its new place.

The floor, measured in the same run on the same tap, is A's own round trip: from the tap until
A's sheet shows the change from the tap's own answer. The gap between the two is what "live"
costs on top of a tap: the stream is woken (at once when A's tap reached the same worker, at the
next SQLite tick when it reached the other), the sheet rendered once and pushed. The server is the
real thing (the gunicorn command line of ``python -m serving``, two gevent workers) on a throwaway SQLite file,
and it shares the machine's cores with the browser: read the ratio, not a lone absolute figure.
This is a measurement, not a test: nothing is asserted; the goal (the push within 1.5× the
tapper's own round trip) is reported met or missed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from bench.goals import report as report_goal  # noqa: E402
from testbed.phones import Phone, new_auruxxx_game  # noqa: E402
from testbed.servers import GunicornServer, migrate, sqlite_url  # noqa: E402

PUSH_RATIO_GOAL = 1.5

CHROMIUM = "/usr/bin/chromium"
PLAYERS = ["Anna", "Ben", "Cleo"]

HOLDS = """name => !!document.querySelector('.holder')
    && ![...document.querySelectorAll('.give-figure')].some(b => b.form.elements.player.value === name)"""
"""Whether the sheet shows ``name`` holding the figure (no give-button in that column, a holder shown)."""

WATCH = f"""([name, slot]) => {{
    const holds = {HOLDS};
    window[slot] = null;
    const observer = new MutationObserver(() => {{
        if (holds(name)) {{
            window[slot] = performance.timeOrigin + performance.now();
            observer.disconnect();
        }}
    }});
    observer.observe(document.body, {{subtree: true, childList: true, attributes: true}});
}}"""
"""Start watching for ``name`` to hold the figure; the moment it does lands in ``window[slot]``."""

TAP = """name => {
    const button = [...document.querySelectorAll('.give-figure')].find(b => b.form.elements.player.value === name);
    const now = performance.timeOrigin + performance.now();
    button.click();
    return now;
}"""
"""Tap the give-figure button of ``name`` and return the moment just before the tap."""


def percentile(values: list[float], fraction: float) -> float:
    """Return the value below which ``fraction`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def measure(a: Page, b: Page, repeat: int) -> tuple[list[float], list[float]]:
    """Tap on A ``repeat`` times; return (A→B latencies, A's own round trips) in milliseconds."""
    other: list[float] = []
    own: list[float] = []
    for rep in range(repeat):
        name = PLAYERS[(rep + 1) % len(PLAYERS)]
        b.evaluate(WATCH, [name, "__seenAt"])
        a.evaluate(WATCH, [name, "__ownAt"])
        tapped = a.evaluate(TAP, name)
        a.wait_for_function("() => window.__ownAt !== null", timeout=10_000)
        b.wait_for_function("() => window.__seenAt !== null", timeout=10_000)
        own.append(a.evaluate("() => window.__ownAt") - tapped)
        other.append(b.evaluate("() => window.__seenAt") - tapped)
        # Let A's own pushed update settle; a random pause keeps taps from falling into step with the ticks.
        time.sleep(random.uniform(0.3, 0.55))
    return other, own


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=30, help="taps to time (default 30)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="tischblock-bench-") as folder:
        url = sqlite_url(Path(folder) / "tischblock.db")
        migrate(url)
        server = GunicornServer(url, Path(folder) / "gunicorn.log", live_stream_seconds=None).start()
        try:
            token = new_auruxxx_game(Phone(server.base), PLAYERS)
            sheet = f"{server.base}/g/{token}"
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM)
                try:
                    phones = [browser.new_context(**playwright.devices["Pixel 7"]) for _ in range(2)]
                    a, b = (context.new_page() for context in phones)
                    for page in (a, b):
                        page.goto(sheet)
                        page.wait_for_selector(".give-figure")
                    time.sleep(1.0)  # both live streams open
                    measure(a, b, 3)  # warm-up: templates, connections, JIT
                    other, own = measure(a, b, args.repeat)
                finally:
                    browser.close()
        finally:
            server.stop()

    med_other, med_own = statistics.median(other), statistics.median(own)
    print(f"\nTap on phone A → visible on phone B (two Chromium phones; gunicorn, 2 gevent workers, SQLite; {len(other)} taps)")
    print(f"  A → B (pushed on the live stream)  median {med_other:7.1f} ms   p95 {percentile(other, 0.95):7.1f} ms")
    print(f"  floor: A's own tap round trip      median {med_own:7.1f} ms   p95 {percentile(own, 0.95):7.1f} ms")
    print(f"  ratio of medians A→B / floor: {med_other / med_own:.1f}×   (extra: {med_other - med_own:.1f} ms)")
    report_goal(
        "live",
        f"two Chromium phones: tap → the other phone ≤ {PUSH_RATIO_GOAL}× the tapper's round trip (medians)",
        f"{med_other / med_own:.2f}× ({med_other:.1f} ms)",
        f"A's own round trip {med_own:.1f} ms",
        med_other / med_own <= PUSH_RATIO_GOAL,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
