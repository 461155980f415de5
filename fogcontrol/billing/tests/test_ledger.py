"""The ledger, invoices and payments: Decimal money, balances from entries, invoice dates (Q1,
P8, N1), partial payments and allocation, credit, refunds, cancellation, write-offs (two people)."""

from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from fogcontrol.billing import services
from fogcontrol.billing.models import Account, Allocation, Invoice, LedgerEntry
from fogcontrol.billing.tests.helpers import (
    account,
    charge,
    clerk,
    days_ago,
    fresh,
    invoice,
    sum_of_entries,
)
from fogcontrol.core.errors import RecordImmutable, StateConflict
from fogcontrol.core.roles import Role
from fogcontrol.program.selectors import ruleset_on, town_calendar
from fogcontrol.rules.billing import invoice_dates

pytestmark = pytest.mark.django_db


def test_a_charge_posts_a_balanced_entry_and_the_balance_is_the_sum_of_entries(town):
    made = charge(town, "350.00")
    (posting,) = LedgerEntry.objects.filter(debtor=made.debtor)
    assert (posting.debit, posting.credit, posting.amount) == (
        Account.RECEIVABLE,
        Account.REVENUE,
        Decimal("350.00"),
    )
    assert account(made.debtor).balance == Decimal("350.00") == sum_of_entries(made.debtor)


def test_a_ledger_entry_is_never_changed_nor_deleted(town):
    posting = LedgerEntry.objects.get(charge=charge(town))
    posting.amount = Decimal("1.00")
    with pytest.raises(RecordImmutable):
        posting.save()
    with pytest.raises(RecordImmutable):
        posting.delete()


def test_an_amount_with_fractions_of_a_cent_is_refused_naming_the_field(town):
    with pytest.raises(ValidationError) as refused:
        charge(town, "10.005")
    assert "amount" in refused.value.message_dict


@pytest.mark.provision("Q1")
@pytest.mark.parametrize("kind", ["Q1", "P8", "N1"])
def test_q1_p8_n1_each_invoice_kind_carries_the_dates_of_its_rule(town, kind):
    notice = days_ago(3)
    issued = invoice(town, "80.00", kind=kind, penalty=kind == "P8", provision=kind, notice_date=notice)
    expected = invoice_dates(
        kind=kind, notice_date=notice, ruleset=ruleset_on(notice), calendar=town_calendar()
    )
    assert (issued.due_on, issued.delinquent_from) == (expected.due_on, expected.delinquent_from)
    assert issued.lien_eligible_from == expected.lien_eligible_from
    assert issued.lines.get().provision == kind
    assert kind in issued.explanation["provisions"]


def test_q1_an_invoice_groups_charges_by_kind_and_keeps_penalties_apart_p12(town):
    charge(town, "100.00")
    charge(town, "50.00")
    charge(town, "500.00", kind="P8", penalty=True, provision="P7")
    debtor = charge(town, "20.00").debtor
    invoices = services.invoices_issue(acting_user=clerk(town), debtor=debtor)
    totals = sorted((i.kind, i.penalty, i.total) for i in invoices)
    assert totals == [("P8", True, Decimal("500.00")), ("Q1", False, Decimal("170.00"))]


@pytest.mark.provision("Q1")
def test_q1_partial_payments_allocate_oldest_first_and_the_rest_is_credit(town):
    old = invoice(town, "100.00", notice_date=days_ago(20))
    new = invoice(town, "60.00", notice_date=days_ago(5))
    services.payment_record(acting_user=clerk(town), debtor=old.debtor, amount="70.00", method="cash")
    assert fresh(old).outstanding == Decimal("30.00") and fresh(new).outstanding == Decimal("60.00")
    services.payment_record(
        acting_user=clerk(town), debtor=old.debtor, amount="100.00", method="cheque", reference="1042"
    )
    assert fresh(old).status == Invoice.Status.PAID and fresh(new).status == Invoice.Status.PAID
    debtor = account(old.debtor)
    assert debtor.credit == Decimal("10.00")
    assert debtor.balance == Decimal("-10.00") == sum_of_entries(old.debtor)


@pytest.mark.provision("Q1")
def test_q1_allocation_as_chosen_and_never_more_than_an_invoice_owes(town):
    old = invoice(town, "100.00", notice_date=days_ago(20))
    new = invoice(town, "60.00", notice_date=days_ago(5))
    services.payment_record(
        acting_user=clerk(town), debtor=old.debtor, amount="60.00", method="card", reference="AUTH-9",
        allocations={new.pk: "60.00"},
    )  # fmt: skip
    assert fresh(new).status == Invoice.Status.PAID and fresh(old).outstanding == Decimal("100.00")
    with pytest.raises(ValidationError) as refused:
        services.payment_record(
            acting_user=clerk(town), debtor=old.debtor, amount="500.00", method="cash",
            allocations={old.pk: "150.00"},
        )  # fmt: skip
    assert "allocations" in refused.value.message_dict


def test_a_cheque_needs_its_number(town):
    debtor = charge(town).debtor
    with pytest.raises(ValidationError) as refused:
        services.payment_record(acting_user=clerk(town), debtor=debtor, amount="10.00", method="cheque")
    assert "reference" in refused.value.message_dict


def test_credit_is_applied_to_a_later_invoice_and_refunded_only_up_to_the_credit(town):
    debtor = charge(town, "10.00").debtor
    services.payment_record(acting_user=clerk(town), debtor=debtor, amount="50.00", method="cash")
    assert account(debtor).credit == Decimal("50.00")
    later = invoice(town, "30.00")  # bills both charges: $40.00
    services.credit_apply(acting_user=clerk(town), debtor=debtor)
    assert fresh(later).status == Invoice.Status.PAID
    assert account(debtor).credit == Decimal("10.00")
    with pytest.raises(ValidationError):
        services.refund_record(
            acting_user=clerk(town), debtor=debtor, amount="15.00", method="cash", reason="Closed"
        )
    services.refund_record(
        acting_user=clerk(town), debtor=debtor, amount="10.00", method="cash", reason="Closed"
    )
    settled = account(debtor)
    assert settled.credit == Decimal("0.00")
    assert settled.balance == sum_of_entries(debtor) == Decimal("0.00")


def test_cancelling_an_invoice_is_an_entry_with_its_reason(town):
    issued = invoice(town, "75.00")
    with pytest.raises(ValidationError):
        services.invoice_cancel(invoice=issued, acting_user=clerk(town), reason=" ")
    services.invoice_cancel(invoice=issued, acting_user=clerk(town), reason="Billed to the wrong FSE")
    cancelled = fresh(issued)
    assert cancelled.status == Invoice.Status.CANCELLED and cancelled.outstanding == 0
    reversal = LedgerEntry.objects.get(kind=LedgerEntry.Kind.CANCELLATION)
    assert reversal.reason == "Billed to the wrong FSE" and reversal.amount == Decimal("75.00")
    assert account(issued.debtor).balance == 0 == sum_of_entries(issued.debtor)
    with pytest.raises(StateConflict):
        services.invoice_cancel(invoice=issued, acting_user=clerk(town), reason="again")


def test_a_write_off_needs_a_second_different_staff_member(town):
    issued = invoice(town, "90.00")
    request = services.write_off_request(
        acting_user=clerk(town), invoice=issued, amount="40.00", reason="Hardship"
    )
    assert fresh(issued).outstanding == Decimal("90.00")  # nothing moves before approval
    with pytest.raises(PermissionDenied, match="second"):
        services.write_off_decide(acting_user=clerk(town), write_off=request, approve=True)
    with pytest.raises(PermissionDenied):
        services.write_off_decide(acting_user=town.users[Role.INSPECTOR], write_off=request, approve=True)
    services.write_off_decide(acting_user=town.users[Role.FOG_MANAGER], write_off=request, approve=True)
    assert fresh(issued).outstanding == Decimal("50.00")
    assert account(issued.debtor).balance == Decimal("50.00") == sum_of_entries(issued.debtor)
    assert Allocation.objects.get(kind=Allocation.Kind.WRITE_OFF).amount == Decimal("40.00")


def test_only_billing_staff_take_payments(town):
    debtor = charge(town).debtor
    with pytest.raises(PermissionDenied):
        services.payment_record(
            acting_user=town.users[Role.INSPECTOR], debtor=debtor, amount="1.00", method="cash"
        )


@pytest.mark.provision("P12")
def test_p12_penalty_monies_go_to_the_penalty_account(town):
    penalty = invoice(town, "500.00", kind="P8", penalty=True, provision="P7")
    services.payment_record(acting_user=clerk(town), debtor=penalty.debtor, amount="200.00", method="cash")
    fund = LedgerEntry.objects.get(kind=LedgerEntry.Kind.FUND)
    assert (fund.debit, fund.credit, fund.amount) == (Account.PENALTY_CASH, Account.CASH, Decimal("200.00"))


@pytest.mark.provision("Q1")
def test_q1_an_invoice_delivery_is_recorded_by_email_or_post_and_a_cancelled_invoice_is_not_sent(town):
    issued = invoice(town, "75.00")
    with pytest.raises(ValidationError) as refused:
        services.invoice_deliver(invoice=issued, acting_user=clerk(town), method="pigeon", sent_to="")
    assert {"method", "sent_to"} <= set(refused.value.message_dict)
    delivery = services.invoice_deliver(
        invoice=issued, acting_user=clerk(town), method="email", sent_to="owner@example.org"
    )
    assert (delivery.method, delivery.sent_on) == ("email", days_ago(0))
    services.invoice_cancel(invoice=issued, acting_user=clerk(town), reason="Duplicate")
    with pytest.raises(StateConflict):
        services.invoice_deliver(invoice=issued, acting_user=clerk(town), method="post", sent_to="1 Main St")
