"""Delinquency and its consequences (Q1, P8, Q2, P9, H3, B6), the pick-up of permit fees, and
reports that reconcile to the ledger."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from fogcontrol.billing import services
from fogcontrol.billing.models import Charge, Invoice, Lien
from fogcontrol.billing.reports import aging, billing_report
from fogcontrol.billing.selectors import licence_holds
from fogcontrol.billing.tests.helpers import account, approved_lien, charge, clerk, days_ago, fresh, invoice
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.owed import amounts_owed, delinquent_amounts
from fogcontrol.permits.models import FeeCharge
from fogcontrol.program.selectors import town_today

pytestmark = pytest.mark.django_db


def overdue(town, kind="Q1", amount="120.00", days=100, **kwargs):
    return invoice(
        town, amount, kind=kind, penalty=kind == "P8", provision=kind, notice_date=days_ago(days), **kwargs
    )


@pytest.mark.provision("Q1")
def test_q1_nightly_marks_delinquent_invoices_and_running_twice_changes_nothing(town):
    late = overdue(town)
    on_time = invoice(town, "40.00", establishment=town.other_fse)
    first = services.billing_nightly()
    assert first["invoices_delinquent"] == 1
    assert fresh(late).delinquent_on == town_today() and fresh(on_time).delinquent_on is None
    assert services.billing_nightly() == {"charges_picked_up": 0, "invoices_delinquent": 0, "liens_listed": 0}


@pytest.mark.provision("H3")
def test_h3_core_owed_answers_what_the_establishment_owes_without_importing_billing(town):
    assert amounts_owed(town.own_fse.pk, town_today()) == []
    overdue(town)
    charge(town, "15.00")
    owed = amounts_owed(town.own_fse.pk, town_today())
    assert sorted(item.amount for item in owed) == [Decimal("15.00"), Decimal("120.00")]
    (late,) = delinquent_amounts(town.own_fse.pk, town_today())
    assert late.amount == Decimal("120.00") and late.provision == "Q1"


@pytest.mark.provision("Q2")
def test_q2_a_delinquent_debt_holds_the_business_licence_until_paid(town):
    late = overdue(town)
    (hold,) = licence_holds(town_today(), licence=town.own_fse.licence_number)
    assert (hold.amount, hold.since) == (Decimal("120.00"), late.delinquent_from)
    assert licence_holds(town_today(), licence=town.other_fse.licence_number) == []
    services.payment_record(acting_user=clerk(town), debtor=late.debtor, amount="120.00", method="cash")
    assert licence_holds(town_today()) == []


@pytest.mark.provision("P9")
def test_p9_a_penalty_delinquent_60_days_goes_on_the_lien_list_and_is_released_when_paid(town):
    penalty = overdue(town, kind="P8", amount="500.00", days=120)
    result = services.billing_nightly()
    assert result["liens_listed"] == 1
    lien = Lien.objects.get()
    assert lien.apn == town.own_fse.parcel.apn
    assert lien.owner_of_record == town.own_fse.parcel.owner.name
    assert lien.amount == Decimal("500.00")
    lien = approved_lien(town, lien)  # two-person rule: asked for and approved before it is recorded
    services.lien_record(
        acting_user=clerk(town), lien=lien, recorded_on=days_ago(10), document_number="2026-0012345"
    )
    with pytest.raises(StateConflict, match="not paid"):
        services.lien_release(
            acting_user=clerk(town), lien=lien, released_on=days_ago(0), document_number="R-1"
        )
    services.payment_record(acting_user=clerk(town), debtor=penalty.debtor, amount="500.00", method="cash")
    released = services.lien_release(
        acting_user=clerk(town), lien=lien, released_on=days_ago(0), document_number="2026-0019999"
    )
    assert released.status == Lien.Status.RELEASED and released.release_number == "2026-0019999"
    assert services.billing_nightly()["liens_listed"] == 0


def test_a_fee_invoice_is_not_put_on_the_lien_list(town):
    overdue(town, days=200)
    assert services.billing_nightly()["liens_listed"] == 0


def _fee(town, amount="350.00"):
    from fogcontrol.permits.models import FeeSchedule

    schedule = FeeSchedule.objects.create(effective_from=dt.date(2020, 1, 1), label="Fees")
    return FeeCharge.objects.create(
        kind="new_permit", amount=Decimal(amount), fee_schedule=schedule, establishment=town.own_fse,
        description="FOG permit application", assessed_on=days_ago(2),
    )  # fmt: skip


@pytest.mark.provision("B3")
def test_b3_permit_fees_are_picked_up_once_and_paid_through_billing(town):
    fee = _fee(town)
    assert services.charges_pickup(acting_user=clerk(town)) == 1
    assert services.charges_pickup(acting_user=clerk(town)) == 0
    fee.refresh_from_db()
    assert fee.status == FeeCharge.Status.INVOICED
    picked = Charge.objects.get(source="permits.feecharge", source_id=fee.pk)
    assert (picked.amount, picked.provision, picked.debtor.establishment) == (
        Decimal("350.00"),
        "B3",
        town.own_fse,
    )
    (issued,) = services.invoices_issue(acting_user=clerk(town), debtor=picked.debtor)
    services.payment_record(
        acting_user=clerk(town), debtor=picked.debtor, amount="350.00", method="transfer", reference="TX-1"
    )
    fee.refresh_from_db()
    assert fee.status == FeeCharge.Status.PAID and fee.paid_amount == Decimal("350.00")
    assert fresh(issued).status == Invoice.Status.PAID


def test_an_invoice_dated_in_the_future_is_refused(town):
    debtor = charge(town).debtor
    with pytest.raises(ValidationError) as refused:
        services.invoices_issue(
            acting_user=clerk(town), debtor=debtor, notice_date=town_today() + dt.timedelta(days=1)
        )
    assert "notice_date" in refused.value.message_dict


@pytest.mark.provision("Q1")
def test_q1_reports_reconcile_to_the_ledger_to_the_cent_and_show_the_penalty_account_apart(town):
    start = days_ago(60)
    overdue(town, amount="100.10", days=90)  # before the period: the opening balance
    paid = invoice(town, "33.33", notice_date=days_ago(30))
    penalty = invoice(town, "250.00", kind="P8", penalty=True, provision="P7", notice_date=days_ago(20))
    services.payment_record(acting_user=clerk(town), debtor=paid.debtor, amount="200.00", method="cash")
    services.invoice_cancel(invoice=penalty, acting_user=clerk(town), reason="Appeal upheld")
    report = billing_report(start, town_today())
    assert report.opening == Decimal("100.10")
    assert report.billed == Decimal("283.33")
    assert report.collected == Decimal("200.00")
    assert report.reconciles
    assert report.closing == account(paid.debtor).balance
    assert report.penalty_account_in == Decimal("66.57")  # the rest of the payment went to the penalty
    buckets = dict(aging(town_today()))
    assert sum(buckets.values()) == sum(fresh(i).outstanding for i in Invoice.objects.filter(status="open"))


@pytest.mark.provision("Q1")
def test_q1_the_nightly_command_reports_what_it_did(town):
    from io import StringIO

    from django.core.management import call_command

    overdue(town)
    out = StringIO()
    call_command("billing_nightly", stdout=out)
    assert "invoices delinquent: 1" in out.getvalue()
