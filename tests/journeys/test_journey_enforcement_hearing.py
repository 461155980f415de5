"""Journey 4 (issue 18): the FOG Manager follows the dashboard's "open enforcement cases" figure to
the case list, opens the case, and sets a suspension hearing inside the L2 window (15 to 45 calendar
days after the notice is mailed by certified mail): a date outside it is refused naming L2, a date
inside it is recorded and shown on the hearing's page. From login to the visible result, with
axe-core run on every page visited."""

import datetime as dt
import re

import pytest
from playwright.sync_api import expect

from fogcontrol.core.roles import Role
from fogcontrol.enforcement.tests.helpers_orders import a_case_of_kind, a_permit, ago
from fogcontrol.program.selectors import ruleset_on, town_calendar
from fogcontrol.rules.deadlines import revocation_hearing_window
from fogcontrol.rules.explain import fmt_date
from fogcontrol.testing.accessibility import assert_accessible
from fogcontrol.testing.browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.provision("L2")
def test_l2_the_manager_goes_from_a_dashboard_figure_to_a_suspension_hearing_in_the_window(open_tab, town):
    case = a_case_of_kind(town)
    a_permit(town)
    mailed = ago(2)
    window = revocation_hearing_window(mailed, ruleset=ruleset_on(mailed), calendar=town_calendar())
    page = open_tab(name="manager")
    sign_in(page, town.users[Role.FOG_MANAGER].username)
    page.goto("/")
    figure = page.locator('[data-figure="cases_open"]')
    expect(figure.locator(".figure-count")).to_have_text("1")
    assert_accessible(page)

    figure.click()
    expect(page).to_have_url(re.compile(r"/enforcement/\?"))
    assert_accessible(page)
    page.get_by_role("link", name=case.reference).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Case {case.reference}")
    assert_accessible(page)

    page.get_by_role("link", name="Notice of proposed suspension or revocation").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Notice of proposed suspension")
    assert_accessible(page)
    page.get_by_label("Kind").select_option("suspension")
    page.get_by_label("Violated maintenance requirements, a permit condition or the chapter").check()
    page.get_by_label("Facts").fill("Two sanitary sewer overflows traced to the interceptor.")
    page.get_by_label("Mailed on").fill(mailed.isoformat())
    page.get_by_label("Article number").fill("9407 1000 0000 0000 0001")
    page.get_by_label("Hearing place").fill("Council Chamber")
    page.get_by_role("button", name="Show the dates and limits").click()
    window_line = f"L2: hearing from {fmt_date(window.earliest_business_day)} to {fmt_date(window.latest)}"
    expect(page.locator("main")).to_contain_text(window_line)
    assert_accessible(page)

    # A day past the window is refused, beside the field, naming the provision.
    page.get_by_label("Hearing on").fill((window.latest + dt.timedelta(days=1)).isoformat())
    page.get_by_role("button", name=re.compile("^Record notice")).click()
    expect(page.locator("main")).to_contain_text("L2: the hearing must be set between")
    assert_accessible(page)

    page.get_by_label("Hearing on").fill(window.latest.isoformat())
    page.get_by_role("button", name=re.compile("^Record notice")).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Case {case.reference}")
    expect(page.locator(".messages")).to_be_visible()
    assert_accessible(page)

    page.locator("#later-steps").get_by_role("link", name=re.compile("hearing", re.I)).first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("hearing")
    expect(page.locator("main")).to_contain_text(
        f"Set for {window.latest:%A, %B} {window.latest.day}", use_inner_text=True
    )
    assert_accessible(page)
