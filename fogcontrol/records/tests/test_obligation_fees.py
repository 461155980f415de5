"""Fees, charges and penalties in the FSE's obligations list (Q1, Q2), as ``fogcontrol.core.owed``
answers them (billing: its invoices, its charges not yet invoiced, the records owed not yet picked
up; enforcement: the citations): each unpaid, unwaived amount, due on the notice, late once
delinquent; the page and API keep an exact number of queries whatever the number of fees (one that
asks which of billing's invoices, charges and sources hold anything, one for each that does (here
the fees), the citations, and the rules once)."""

import datetime as dt
from decimal import Decimal

import pytest
from django.test import Client

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.permits.models import FeeCharge, FeeKind
from fogcontrol.permits.tests.factories import fee_schedule
from fogcontrol.records.obligations import obligations_for
from fogcontrol.records.tests.helpers import days_ago
from fogcontrol.testing.queries import assert_queries_do_not_grow


def _charge(establishment, schedule, *, assessed_on, status=FeeCharge.Status.OWED, amount="350.00"):
    return FeeCharge.objects.create(
        kind=FeeKind.RENEWAL, amount=Decimal(amount), fee_schedule=schedule, establishment=establishment,
        description="FOG permit annual renewal (B6)", assessed_on=assessed_on, status=status,
    )  # fmt: skip


@pytest.mark.provision("Q1")
def test_q1_fees_owed_are_in_the_list_late_once_delinquent_and_paid_or_waived_ones_are_not(town):
    schedule = fee_schedule()
    fse = town.own_fse
    _charge(fse, schedule, assessed_on=dt.date(2026, 1, 5))  # delinquent by May
    _charge(fse, schedule, assessed_on=dt.date(2026, 5, 11), amount="120.00")  # just noticed
    _charge(fse, schedule, assessed_on=dt.date(2026, 1, 5), status=FeeCharge.Status.PAID)
    _charge(fse, schedule, assessed_on=dt.date(2026, 1, 5), status=FeeCharge.Status.WAIVED)
    fees = [item for item in obligations_for(fse, on=dt.date(2026, 5, 20)) if item.kind == "fees"]
    assert [(item.title, item.status) for item in fees] == [
        ("Pay $350.00: FOG permit annual renewal (B6)", "late"),
        ("Pay $120.00: FOG permit annual renewal (B6)", "due"),
    ]
    late, due = fees
    assert late.provision == "Q1" and "Delinquent" in late.explanation and "(Q2)" in late.how_to_fix
    # Q1: due on receipt of the notice, delinquent after the ruleset's days (45 by default).
    assert due.due_on > dt.date(2026, 5, 20) and "Q1" in due.explanation


@pytest.mark.provision("Q1")
def test_q1_the_obligations_page_and_api_take_the_same_queries_whatever_the_number_of_fees(town):
    schedule = fee_schedule()
    fse_user, fse = town.users[Role.FSE], town.own_fse

    def add_fees(count):
        for _ in range(count):
            _charge(fse, schedule, assessed_on=days_ago(60))

    page = Client()
    page.force_login(fse_user)
    assert_queries_do_not_grow(
        page, add_fees, {f"/records/establishments/{fse.pk}/obligations/": 17}, grows=False
    )
    assert_queries_do_not_grow(
        api_as(fse_user), add_fees, {f"/api/v1/establishments/{fse.pk}/obligations/": 15}
    )


@pytest.mark.provision("Q1")
def test_q1_d6_charges_and_penalty_orders_owed_are_in_the_list_as_core_owed_answers_them(town):
    from fogcontrol.inspections.services import compliance_charge_record
    from fogcontrol.sampling.tests.helpers import schedule_with_rates

    schedule_with_rates()
    fse = town.own_fse
    compliance_charge_record(
        establishment=fse, kind="staff_time", quantity="2", incurred_on=days_ago(2),
        reason="Follow-up of the unpumped interceptor", acting_user=town.users[Role.INSPECTOR],
    )  # fmt: skip
    fees = [item for item in obligations_for(fse, on=days_ago(0)) if item.kind == "fees"]
    assert [(item.title.split(":")[0], item.status, item.provision) for item in fees] == [
        ("Pay $150.00", "due", "Q1")
    ]
    assert "D6" in fees[0].title and "Q1" in fees[0].explanation and fees[0].due_on > days_ago(0)
