"""axe-core (the official npm release, vendored under tests/browser/vendor/axe-core with its
licence and version) run inside a page, and a touch-target check of our own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE_SOURCE = (Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js").read_text()
# WCAG 2.2 A and AA: text contrast of at least 4.5:1 (color-contrast) and targets of at least
# 24 px (target-size) among them
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
ALWAYS = {"color-contrast", "target-size"}  # failed at any impact, not only serious/critical

RUN = """async (tags) => {
  const r = await axe.run(document, {runOnly: {type: "tag", values: tags},
                                     resultTypes: ["violations"]});
  return r.violations.map((v) => ({id: v.id, impact: v.impact,
    nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ") + " — " +
      (n.failureSummary || "").replace(/\\s+/g, " ").slice(0, 240))}));
}"""

# Every button, link and input on screen is at least 24 px each way (a link inside a sentence
# excepted, as WCAG 2.5.8 does).
SMALL_TARGETS = """() => [...document.querySelectorAll("button, a[href], input, select")]
  .filter((el) => el.offsetParent !== null && !el.closest("p, li.log-line"))
  .map((el) => [el, el.getBoundingClientRect()])
  .filter(([, r]) => r.width > 0 && (r.width < 24 || r.height < 24))
  .map(([el, r]) => `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}.${el.className} `
    + `${Math.round(r.width)}x${Math.round(r.height)}`)"""


def violations(page: Any) -> list[str]:
    """The serious and critical violations on the page as it is now, every contrast and
    target-size one, and every target under 24 px."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # a function body, not a script tag: the pages' Content-Security-Policy allows no
        # inline script, and this runs as the test's own code
        page.evaluate("() => {" + AXE_SOURCE + "\n}")
    found = page.evaluate(RUN, TAGS)
    bad = [f"{v['id']} ({v['impact']}): " + " | ".join(v["nodes"]) for v in found
           if v["impact"] in ("serious", "critical") or v["id"] in ALWAYS]
    bad += [f"target under 24 px: {t}" for t in page.evaluate(SMALL_TARGETS)]
    return bad


def check(page: Any, where: str) -> None:
    bad = violations(page)
    assert not bad, f"{where}:\n" + "\n".join(bad)
