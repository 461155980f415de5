"""Journey 5 (issue 18): a billing clerk records a partial payment on a delinquent account, and the
account's statement and the business licence hold list (Q2) change: from login to the visible
result, with axe-core run on every page visited."""

import re

import pytest
from playwright.sync_api import expect

from fogcontrol.billing import services
from fogcontrol.billing.tests.helpers import days_ago, invoice
from fogcontrol.core.roles import Role
from fogcontrol.testing.accessibility import assert_accessible
from fogcontrol.testing.browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.provision("Q1")
@pytest.mark.provision("Q2")
def test_a_clerk_records_a_partial_payment_and_the_statement_and_hold_list_change(
    open_tab, town, live_server
):
    invoice(town, "120.00", notice_date=days_ago(100))
    services.billing_nightly()  # the invoice is delinquent: the licence is held (Q2)
    licence = town.own_fse.licence_number
    page = open_tab(name="clerk")
    sign_in(page, town.users[Role.BILLING_CLERK].username)
    assert_accessible(page)

    page.goto("/billing/licence-holds/")
    held = page.get_by_role("row").filter(has_text=licence)
    expect(held).to_contain_text("$120.00")
    assert_accessible(page)

    page.goto("/billing/accounts/")
    assert_accessible(page)
    page.get_by_role("link", name="Blue Plate Diner").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Blue Plate Diner")
    statement = page.get_by_role("table", name="Statement of account")
    expect(statement.get_by_role("row").last).to_contain_text("$120.00")
    assert_accessible(page)

    pay = page.locator("#pay")
    pay.get_by_label("Amount ($)").fill("20.00")
    pay.get_by_label("Method").select_option("cheque")
    pay.get_by_label("Received on").fill(days_ago(0).isoformat())
    pay.get_by_role("button", name="Record payment").click()
    # A cheque needs its number: the page comes back with the error beside the field, announced
    # with it (aria-describedby), and with what was typed.
    reference = page.locator("#pay").get_by_label("Reference")
    expect(reference).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#id_pay_reference_error")).to_contain_text("cheque")
    expect(reference).to_have_attribute("aria-describedby", re.compile("id_pay_reference_error"))
    expect(page.locator("#pay").get_by_label("Amount ($)")).to_have_value("20.00")
    assert_accessible(page)
    reference.fill("1001")
    page.locator("#pay").get_by_role("button", name="Record payment").click()

    expect(page.locator(".messages")).to_contain_text("Payment recorded")
    statement = page.get_by_role("table", name="Statement of account")
    expect(statement).to_contain_text("$20.00")
    expect(statement.get_by_role("row").last).to_contain_text("$100.00")
    assert_accessible(page)

    page.goto("/billing/licence-holds/")
    expect(page.get_by_role("row").filter(has_text=licence)).to_contain_text("$100.00")
    assert_accessible(page)

    # A mistyped address is the product's own 404, in its frame, with the way back.
    page.goto("/billing/accounts/999999/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Page not found")
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
    assert_accessible(page)
    page.get_by_role("link", name="Back to your home page").click()
    expect(page).to_have_url(f"{live_server.url}/")
