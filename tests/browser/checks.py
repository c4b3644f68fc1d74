"""What every page must pass on a phone: axe, no sideways scrolling, big tap targets, one h1, 200 % text.

Each check returns the problems it found as readable lines, so one test can visit many pages
and report every problem at once.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core, installed by ``npm ci`` from package.json; the page's CSP is bypassed to inject it."""
TAP = 44
"""The smallest width and height of anything a thumb taps, in CSS pixels."""
SERIOUS = ("serious", "critical")

SMALL_TARGETS = """
(tap) => {
  const problems = [];
  const controls = document.querySelectorAll(
    "a[href], button, summary, select, textarea, input:not([type=hidden])");
  for (const control of controls) {
    const style = getComputedStyle(control);
    if (style.visibility === "hidden" || control.closest("[hidden], .visually-hidden")) continue;
    const target = control.tagName === "INPUT" && control.closest("label") ? control.closest("label") : control;
    const box = target.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (box.width < tap - 0.5 || box.height < tap - 0.5) {
      const name = (control.getAttribute("aria-label") || control.textContent || control.name || "").trim().slice(0, 40);
      problems.push(`${control.tagName.toLowerCase()} "${name}" is ${Math.round(box.width)}×${Math.round(box.height)} px`);
    }
  }
  return problems;
}
"""


def axe_problems(page: Page, *, rules: tuple[str, ...] = ()) -> list[str]:
    """Return axe's serious and critical findings on the page as it stands (only ``rules`` if given)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    options = {"resultTypes": ["violations"], **({"runOnly": list(rules)} if rules else {})}
    result = page.evaluate("options => axe.run(document, options)", options)
    return [
        f"axe {violation['id']} ({violation['impact']}): {node['target']} – {violation['help']}"
        for violation in result["violations"]
        if violation["impact"] in SERIOUS
        for node in violation["nodes"]
    ]


def sideways_scroll(page: Page) -> list[str]:
    """Return a problem if the page is wider than the screen."""
    width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    return [f"scrolls sideways: {width[0]} px content in {width[1]} px"] if width[0] > width[1] else []


def small_targets(page: Page) -> list[str]:
    """Return every visible control smaller than 44×44 px (an input counts with the label round it)."""
    found: list[str] = page.evaluate(SMALL_TARGETS, TAP)
    return found


def headings(page: Page) -> list[str]:
    """Return a problem unless the page has exactly one h1."""
    count = page.locator("h1").count()
    return [] if count == 1 else [f"{count} h1 headings"]


def redrawn(page: Page) -> None:
    """Wait until the page has drawn two more frames: a script that observes a size change (static/js/fit.js) has answered it."""
    page.evaluate("() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)))")


def enlarge_text(page: Page) -> None:
    """Set the page's text to 200 %, as a phone's accessibility setting does (the page must still work)."""
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    redrawn(page)
