"""The FOG Manager's morning in a real browser: a figure of the "today" dashboard leads to the list
it counts, showing the same number, and back; the header's search shows results as one types."""

import re

import pytest
from playwright.sync_api import expect

from fogcontrol.core.roles import Role
from fogcontrol.program.selectors import town_today
from fogcontrol.spills.tests.helpers import fog_spill
from fogcontrol.testing.browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# Manifests are copies of record a test database cannot flush (F5), so the figure followed here is
# the year's spills; every figure's link is followed for every role in
# fogcontrol/dashboard/tests/test_figures_match_lists.py.
def test_a_figure_leads_to_its_list_with_the_same_count_and_back(page, town):
    for _ in range(3):
        fog_spill(town, day=town_today())
    sign_in(page, town.users[Role.FOG_MANAGER].username)
    page.goto("/")
    figure = page.locator('[data-figure="spills_this_year"]')
    expect(figure).to_contain_text(f"spills in {town_today().year}")
    count = int(figure.locator(".figure-count").inner_text())
    assert count == 3

    figure.click()
    expect(page).to_have_url(re.compile(r"/spills/\?started_from="))
    expect(page.locator("#results .count")).to_have_text(f"{count} spills")

    page.go_back()
    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.locator('[data-figure="spills_this_year"] .figure-count')).to_have_text(str(count))


def test_the_header_search_shows_results_as_one_types(page, town):
    sign_in(page, town.users[Role.INSPECTOR].username)
    page.goto("/")
    page.get_by_label("Search the program").fill("Golden")
    live = page.locator("#global-search-live")
    expect(live).to_contain_text("Establishments")
    live.get_by_role("link", name="Golden Wok").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Golden Wok")


def test_the_trend_charts_month_letters_are_readable_and_apart_on_a_phone(phone_page, town):
    """Issue 18: chart labels were unreadable on a phone (9 px letters, scaled down). At 390 px each
    month letter is drawn at least 12 px tall, and no two letters of a chart overlap."""
    page = phone_page
    sign_in(page, town.users[Role.FOG_MANAGER].username)
    page.goto("/")
    charts = page.locator("svg.trend-svg")
    expect(charts.first).to_be_visible()
    assert charts.count() == 4
    measured = page.evaluate(
        """() => [...document.querySelectorAll('svg.trend-svg')].map(svg => {
            const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
            return [...svg.querySelectorAll('text')].map(text => {
                const box = text.getBoundingClientRect();
                const size = parseFloat(getComputedStyle(text).fontSize) * scale;
                return {size, left: box.left, right: box.right};
            });
        })"""
    )
    for letters in measured:
        assert len(letters) == 12
        assert min(letter["size"] for letter in letters) >= 12, letters
        for before, after in zip(letters, letters[1:], strict=False):
            assert before["right"] <= after["left"], (before, after)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
