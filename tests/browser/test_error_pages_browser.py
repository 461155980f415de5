"""Issue 18, "Custom pages": the 403, 404 and 500 pages, as Chromium lays them out with the product's
own stylesheet at phone and desktop widths, show the product's frame, say what happened, offer the
way back, and pass axe-core's WCAG 2.1 A/AA check. DEBUG is off, as in production. The pages are
rendered by Django and set into the browser (no live server: nothing here is committed)."""

import pytest
from django.contrib.staticfiles import finders
from django.test import Client, RequestFactory
from django.views import defaults
from playwright.sync_api import expect

from fogcontrol.core.roles import Role
from fogcontrol.testing.accessibility import assert_accessible

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


@pytest.fixture(autouse=True)
def _production(settings):
    settings.DEBUG = False


def _pages(town) -> dict[str, tuple[int, str]]:
    client = Client()
    client.force_login(town.users[Role.STAFF_READONLY])
    answers = {
        "Page not found": client.get("/no/such/page/"),
        "Not allowed": client.get("/servicing/manifests/new/"),
        "Something went wrong": defaults.server_error(RequestFactory().get("/")),
    }
    return {heading: (answer.status_code, answer.content.decode()) for heading, answer in answers.items()}


@pytest.mark.parametrize("width", [390, 1280])
def test_the_error_pages_look_like_the_product_and_offer_the_way_back(browser, town, width):
    pages = _pages(town)
    assert [status for status, _html in pages.values()] == [404, 403, 500]
    with open(finders.find("fogcontrol/app.css"), encoding="utf-8") as stylesheet:
        css = stylesheet.read()
    context = browser.new_context(viewport={"width": width, "height": 844})
    page = context.new_page()
    try:
        for heading, (_status, html) in pages.items():
            page.set_content(html)
            page.add_style_tag(content=css)
            expect(page.get_by_role("heading", level=1)).to_have_text(heading)
            expect(page.locator("header.topbar .brand")).to_be_visible()
            expect(page.get_by_role("link", name="Back to your home page")).to_have_attribute("href", "/")
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            assert_accessible(page)
    finally:
        context.close()
