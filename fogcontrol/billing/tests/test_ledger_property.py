"""A property of the books (Q1, P8, P12): any sequence of charges, invoices, payments (oldest first
or chosen), credit applied, cancellations and write-offs leaves every balance exactly the sum of
its entries, equal to what its invoices and charges still owe less its credit, and no invoice with
more allocated to it than its total."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fogcontrol.billing import services
from fogcontrol.billing.amounts import with_invoice_amounts
from fogcontrol.billing.models import Allocation, Invoice
from fogcontrol.billing.tests.helpers import account, charge, clerk, sum_of_entries
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.roles import Role

pytestmark = pytest.mark.django_db

money = st.decimals(min_value=Decimal("0.01"), max_value=Decimal("999.99"), places=2)
step = st.one_of(
    st.tuples(st.just("charge"), money, st.sampled_from(["Q1", "P8", "N1"])),
    st.tuples(st.just("invoice")),
    st.tuples(st.just("pay"), money, st.booleans()),
    st.tuples(st.just("credit")),
    st.tuples(st.just("cancel"), st.integers(min_value=0, max_value=5)),
    st.tuples(st.just("write_off"), st.integers(min_value=0, max_value=5)),
)


def _run(town, op, debtor):
    user = clerk(town)
    kind = op[0]
    invoices = list(with_invoice_amounts(Invoice.objects.filter(debtor=debtor, status="open")).order_by("pk"))
    if kind == "charge":
        charge(town, str(op[1]), kind=op[2], penalty=op[2] == "P8", provision=op[2])
    elif kind == "invoice":
        services.invoices_issue(acting_user=user, debtor=debtor)
    elif kind == "pay":
        chosen = {invoices[-1].pk: str(min(op[1], invoices[-1].outstanding))} if op[2] and invoices else None
        services.payment_record(
            acting_user=user, debtor=debtor, amount=str(op[1]), method="cash", allocations=chosen
        )
    elif kind == "credit":
        services.credit_apply(acting_user=user, debtor=debtor)
    elif kind == "cancel" and invoices:
        services.invoice_cancel(invoice=invoices[op[1] % len(invoices)], acting_user=user, reason="test")
    elif kind == "write_off" and invoices:
        target = invoices[op[1] % len(invoices)]
        request = services.write_off_request(
            acting_user=user, invoice=target, amount=str(target.outstanding), reason="t"
        )
        services.write_off_decide(acting_user=town.users[Role.FOG_MANAGER], write_off=request, approve=True)


def _check(debtor):
    books = account(debtor)
    assert books.balance == sum_of_entries(debtor)
    open_owed = sum(
        (i.outstanding for i in with_invoice_amounts(Invoice.objects.filter(debtor=debtor, status="open"))),
        Decimal("0.00"),
    )
    assert books.balance == open_owed + books.uninvoiced - books.credit
    assert books.credit >= 0
    for invoice in Invoice.objects.filter(debtor=debtor):
        allocated = Allocation.objects.filter(invoice=invoice).aggregate(total=Sum("amount"))["total"] or 0
        assert allocated <= invoice.total
        if invoice.status == "open":
            assert allocated < invoice.total


@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(step, min_size=1, max_size=10))
def test_q1_p12_every_balance_is_the_sum_of_its_entries_and_no_allocation_exceeds_its_invoice(town, steps):
    with transaction.atomic():
        debtor = charge(town, "1.00").debtor
        for op in steps:
            try:
                with transaction.atomic():
                    _run(town, op, debtor)
            except (ValidationError, StateConflict):
                pass  # a refused step changes nothing
            _check(debtor)
        transaction.set_rollback(True)
