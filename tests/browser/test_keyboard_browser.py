"""Issue 18, keyboard-only operation: from the top of a page the first Tab reaches the skip link,
which shows itself; Enter takes the reader to the main content; the next Tab lands on a control
inside it, drawn with a visible focus outline."""

import pytest
from playwright.sync_api import expect

from fogcontrol.core.roles import Role
from fogcontrol.testing.browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOCUSED = """() => {
    const element = document.activeElement, style = getComputedStyle(element);
    const box = element.getBoundingClientRect();
    return {text: element.textContent.trim(), inMain: !!element.closest('main'),
            outline: parseFloat(style.outlineWidth), outlineStyle: style.outlineStyle,
            left: box.left, width: box.width};
}"""


def test_a_keyboard_user_skips_to_the_content_and_sees_where_the_focus_is(page, town):
    sign_in(page, town.users[Role.FOG_MANAGER].username)
    page.goto("/billing/accounts/")
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to the main content")
    expect(skip).to_be_focused()
    shown = page.evaluate(FOCUSED)
    assert shown["left"] >= 0 and shown["width"] > 0  # on screen once focused
    assert shown["outline"] >= 2 and shown["outlineStyle"] != "none"

    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    reached = page.evaluate(FOCUSED)
    assert reached["inMain"], reached
    assert reached["outline"] >= 2 and reached["outlineStyle"] != "none", reached
