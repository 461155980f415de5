"""The automated accessibility check of the browser tests (issue 18, WCAG 2.1 AA): axe-core, as
bundled by the `axe-playwright-python` dev dependency (no CDN, nothing fetched at test time), is
injected into the page Playwright shows and run there; any serious or critical violation fails the
test with the rule, the element and the page.

    from fogcontrol.testing.accessibility import assert_accessible
    page.goto("/billing/")
    assert_accessible(page)

Only the WCAG 2.0/2.1 A and AA rules run: the product's promise is WCAG 2.1 AA, not axe's
best-practice advice. Minor and moderate findings are not failures here (axe reports them as
advice, and some are false alarms on server-drawn SVG); they are left to review.
"""

from __future__ import annotations

import functools
from importlib import resources

WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
FAILING_IMPACTS = ("serious", "critical")


@functools.cache
def axe_source() -> str:
    """axe.min.js as the installed package ships it."""
    return resources.files("axe_playwright_python").joinpath("axe.min.js").read_text(encoding="utf-8")


def axe_violations(page) -> list[dict]:
    """axe-core's WCAG 2.1 A/AA violations on the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # Evaluated through the DevTools protocol: the product's Content-Security-Policy (no inline
        # or foreign scripts) does not apply to it, and is not loosened for the test.
        page.evaluate(axe_source())
    options = {"runOnly": {"type": "tag", "values": WCAG_TAGS}, "resultTypes": ["violations"]}
    results = page.evaluate("options => axe.run(document, options)", options)
    return results["violations"]


def describe(violations: list[dict], url: str) -> list[str]:
    """One line per failing element: the rule, its impact, the element and the page."""
    lines = []
    for violation in violations:
        if violation.get("impact") not in FAILING_IMPACTS:
            continue
        for node in violation["nodes"]:
            target = " ".join(str(part) for part in node["target"])
            lines.append(
                f"{url}: {violation['id']} ({violation['impact']}) on {target}: "
                f"{violation['help']} — {node['html'][:160]}"
            )
    return lines


def assert_accessible(page) -> None:
    """Fail on any serious or critical WCAG 2.1 A/AA violation of the page Playwright shows."""
    problems = describe(axe_violations(page), page.url)
    assert not problems, "axe-core found accessibility violations:\n" + "\n".join(problems)
