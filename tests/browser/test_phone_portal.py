"""Issue 18, phone first: the menu folds behind a button, and the permit application's fixtures
fill in at 390 px."""

import pytest
from playwright.sync_api import expect

from fogcontrol.core.roles import Role
from fogcontrol.testing.browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE_WIDTH = 390


def test_on_a_phone_the_menu_folds_behind_a_button_that_opens_it(phone_page, town):
    page = phone_page
    sign_in(page, town.users[Role.FOG_MANAGER].username)
    page.goto("/registry/establishments/")
    toggle = page.get_by_role("button", name="Menu")
    expect(toggle).to_be_visible()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    menu = page.locator("#main-menu")
    expect(menu).to_be_hidden()
    toggle.click()
    expect(menu).to_be_visible()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH


def test_on_a_desktop_the_menu_is_open_and_there_is_no_menu_button(page, town):
    sign_in(page, town.users[Role.FOG_MANAGER].username)
    page.goto("/registry/establishments/")
    expect(page.locator("#main-menu")).to_be_visible()
    expect(page.get_by_role("button", name="Menu")).to_be_hidden()


@pytest.mark.provision("B3")
def test_b3_a_restaurant_owner_fills_the_fixtures_on_a_phone(phone_page, town):
    page = phone_page
    sign_in(page, town.users[Role.FSE].username)
    page.goto("/permits/applications/new/")
    page.get_by_role("button", name="Open the draft").click()
    first = page.locator("fieldset.fixture-card").first
    expect(first.locator("legend")).to_have_text("Fixture 1")
    kind = first.get_by_label("Kind", exact=False).first
    expect(kind).to_be_visible()
    box = kind.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE_WIDTH
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH
    page.screenshot(path="/tmp/fixture_cards_phone.png", full_page=True)
