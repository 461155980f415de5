"""Under the Content-Security-Policy (issue 15, "Headers"; docs/security.md) the pages still work in
a real browser: live filtering swaps results with htmx, a question before a form is sent is still
asked (fogcontrol/static/fogcontrol/app.js), the API docs render; and the browser reports no CSP
violation on any of them."""

import pytest
from playwright.sync_api import expect

from fogcontrol.core.roles import Role
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.testing.browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Runs before any page script, outside the page's CSP: collects every violation the browser reports.
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI || "inline"}`);
});
"""


def _watch(page) -> list[str]:
    """Console messages about the policy (Chromium writes "Refused to …" for each violation)."""
    seen: list[str] = []
    page.add_init_script(RECORD_VIOLATIONS)
    page.on(
        "console",
        lambda message: (
            seen.append(message.text)
            if "Content Security Policy" in message.text or "Refused to" in message.text
            else None
        ),
    )
    page.on("pageerror", lambda error: seen.append(f"page error: {error}"))
    return seen


def _violations(page, console: list[str]) -> list[str]:
    return console + page.evaluate("window.__cspViolations || []")


def test_live_filtering_and_a_confirm_question_work_with_no_csp_violation(page, town):
    console = _watch(page)
    sign_in(page, town.users[Role.FOG_MANAGER].username)

    page.goto("/registry/establishments/")
    results = page.locator("#results")
    expect(results).to_contain_text("Blue Plate Diner")
    page.evaluate("window.__sameDocument = true")
    page.get_by_role("searchbox").fill("wok")
    expect(results).not_to_contain_text("Blue Plate Diner")  # htmx swapped the results in place
    expect(results).to_contain_text("Golden Wok")
    assert page.evaluate("window.__sameDocument") is True
    assert page.evaluate("htmx.config.includeIndicatorStyles") is False
    assert _violations(page, console) == []

    # The question that was an inline onsubmit handler, now asked by app.js.
    page.goto(f"/registry/establishments/{town.own_fse.pk}/")
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.get_by_role("button", name="Close this FSE").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Active")
    assert asked and asked[0].startswith(f"Close {town.own_fse.business_name}?")
    assert FoodServiceEstablishment.objects.get(pk=town.own_fse.pk).status == "active"
    assert _violations(page, console) == []


def test_the_api_docs_render_with_no_csp_violation(page, town):
    console = _watch(page)
    sign_in(page, town.users[Role.INSPECTOR].username)
    page.goto("/api/v1/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("fogcontrol API")
    expect(page.locator(".opblock").first).to_be_visible()
    assert _violations(page, console) == []
