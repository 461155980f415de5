"""The producers billing picks up through its source adapters (D6, P8, P12, P9, O2): each record
charged once by the nightly pass, on the right kind of invoice with the right dates, its payment
recorded back on the producer's own record, and a cancelled invoice handled as for permit fees."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from fogcontrol.billing import services
from fogcontrol.billing.models import Account, Charge, Invoice, LedgerEntry
from fogcontrol.billing.tests.helpers import clerk, days_ago
from fogcontrol.core.owed import amounts_owed
from fogcontrol.core.roles import Role
from fogcontrol.enforcement.models import PenaltyOrder, ServiceCost, ServiceTermination
from fogcontrol.enforcement.services.penalties import penalty_order_appeal
from fogcontrol.enforcement.tests.helpers_orders import FACTORS, a_case_of_kind, issue_penalty_order
from fogcontrol.inspections.models import ComplianceCharge
from fogcontrol.inspections.services import compliance_charge_cancel, compliance_charge_record
from fogcontrol.permits.models import FeeSchedule
from fogcontrol.program.selectors import ruleset_on, town_calendar, town_today
from fogcontrol.rules.billing import invoice_dates
from fogcontrol.sampling.tests.helpers import schedule_with_rates


def nightly() -> int:
    return services.billing_nightly()["charges_picked_up"]


def bill(town, charge: Charge) -> Invoice:
    (issued,) = services.invoices_issue(acting_user=clerk(town), debtor=charge.debtor, charges=[charge])
    return issued


def pay_in_full(town, invoice: Invoice, reference="TX-9"):
    return services.payment_record(
        acting_user=clerk(town), debtor=invoice.debtor, amount=str(invoice.total), method="transfer",
        reference=reference, allocations={invoice.pk: str(invoice.total)},
    )  # fmt: skip


def d6_charge(town, *, quantity="2", incurred_on=None) -> ComplianceCharge:
    if not FeeSchedule.objects.exists():
        schedule_with_rates()
    return compliance_charge_record(
        establishment=town.own_fse, kind="follow_up_inspection", quantity=quantity,
        incurred_on=incurred_on or days_ago(3), reason="Follow-up of the unpumped interceptor",
        acting_user=town.users[Role.INSPECTOR],
    )  # fmt: skip


def penalty(town, *, amount=750, issued=5) -> PenaltyOrder:
    return issue_penalty_order(
        acting_user=town.users[Role.HEARING_OFFICER], case=a_case_of_kind(town), violation_kind="maintenance",
        days=1, amount=amount, hearing_officer_name="A. Reyes", factors=FACTORS, issued_on=days_ago(issued),
        service_method="personal_delivery", served_on=days_ago(issued),
    )  # fmt: skip


def service_cost(town, *, amount="480.00", kind=ServiceCost.Kind.DISCONNECTION) -> ServiceCost:
    case = a_case_of_kind(town)
    termination = ServiceTermination.objects.create(
        case=case, basis=ServiceTermination.Basis.UNPERMITTED, terminated_on=days_ago(4), how="Plugged."
    )
    return ServiceCost.objects.create(
        termination=termination, kind=kind, amount=Decimal(amount), incurred_on=days_ago(4),
        description="Lateral plugged at the cleanout", owed_by="Blue Plate Diner LLC",
    )  # fmt: skip


def dates(kind: str, notice: dt.date):
    return invoice_dates(kind=kind, notice_date=notice, ruleset=ruleset_on(notice), calendar=town_calendar())


# --- D6: Specialty FOG Compliance Charges ---------------------------------------------------------


@pytest.mark.provision("D6")
def test_d6_compliance_charges_are_picked_up_once_billed_under_q1_and_paid_back_in_inspections(town):
    charge = d6_charge(town)  # 2 hours at $95.00
    cancelled = d6_charge(town, quantity="1")
    compliance_charge_cancel(
        charge=cancelled, reason="Recorded twice", acting_user=town.users[Role.FOG_MANAGER]
    )
    assert nightly() == 1 and nightly() == 0  # once; the cancelled charge is never billed
    picked = Charge.objects.get(source="inspections.compliancecharge", source_id=charge.pk)
    assert (picked.amount, picked.provision, picked.invoice_kind, picked.penalty) == (
        Decimal("190.00"), "D6", "Q1", False,
    )  # fmt: skip
    assert picked.debtor.establishment == town.own_fse and "D6" in picked.description
    assert ComplianceCharge.objects.get(pk=charge.pk).status == ComplianceCharge.Status.INVOICED
    assert not Charge.objects.filter(source="inspections.compliancecharge", source_id=cancelled.pk).exists()
    invoice = bill(town, picked)
    expected = dates("Q1", town_today())
    assert (invoice.kind, invoice.due_on, invoice.last_day_to_pay, invoice.delinquent_from) == (
        "Q1", town_today(), expected.last_day_to_pay, expected.delinquent_from,
    )  # fmt: skip
    payment = pay_in_full(town, invoice, reference="TX-D6")
    paid = ComplianceCharge.objects.get(pk=charge.pk)
    assert (paid.status, paid.paid_on, paid.payment_reference) == (
        ComplianceCharge.Status.PAID, town_today(), payment.receipt_number,
    )  # fmt: skip


@pytest.mark.provision("D6")
def test_d6_a_cancelled_invoice_leaves_the_charge_owed_in_inspections_and_it_is_not_billed_twice(town):
    charge = d6_charge(town)
    nightly()
    invoice = bill(town, Charge.objects.get(source="inspections.compliancecharge", source_id=charge.pk))
    services.invoice_cancel(invoice=invoice, acting_user=clerk(town), reason="Billed to the wrong account")
    assert ComplianceCharge.objects.get(pk=charge.pk).status == ComplianceCharge.Status.OWED
    assert nightly() == 0
    # The FOG Manager may now cancel it in inspections (D6), as for a permit fee waived (B3).
    compliance_charge_cancel(charge=charge, reason="Waived", acting_user=town.users[Role.FOG_MANAGER])


# --- P8, P12, P9: administrative civil penalty orders ----------------------------------------------


@pytest.mark.provision("P8")
def test_p8_a_final_penalty_order_is_billed_once_due_30_days_from_its_final_date_and_paid_back(town):
    order = penalty(town, issued=5)
    assert nightly() == 1 and nightly() == 0
    picked = Charge.objects.get(source="enforcement.penaltyorder", source_id=order.pk)
    assert (picked.amount, picked.provision, picked.invoice_kind, picked.assessed_on) == (
        Decimal("750.00"), "P8", "P8", order.issued_on,
    )  # fmt: skip
    assert order.reference in picked.description and picked.debtor.establishment == order.case.establishment
    invoice = bill(town, picked)
    expected = dates("P8", order.issued_on)
    # P8: the notice is the order's final date, not the day the invoice was printed.
    assert (invoice.notice_date, invoice.due_on, invoice.delinquent_from) == (
        order.issued_on, expected.due_on, expected.delinquent_from,
    )  # fmt: skip
    assert invoice.due_on == order.payment_due_on
    assert invoice.lien_eligible_from == expected.lien_eligible_from is not None  # P9: the lien path
    pay_in_full(town, invoice, reference="CHQ-881")
    assert PenaltyOrder.objects.get(pk=order.pk).paid_on == town_today()


@pytest.mark.provision("P12")
def test_p12_penalty_monies_go_to_the_penalty_account_on_an_invoice_of_their_own(town):
    order = penalty(town, amount=500)
    d6_charge(town)
    nightly()
    picked = Charge.objects.get(source="enforcement.penaltyorder", source_id=order.pk)
    assert picked.penalty is True
    invoices = services.invoices_issue(acting_user=clerk(town), debtor=picked.debtor)
    assert sorted((i.kind, i.penalty) for i in invoices) == [("P8", True), ("Q1", False)]
    posting = LedgerEntry.objects.get(charge=picked)
    assert posting.credit == Account.PENALTY_REVENUE


@pytest.mark.provision("P8")
def test_p8_an_appealed_order_is_not_billed_until_upheld_and_an_overturned_one_never(town):
    manager = town.users[Role.HEARING_OFFICER]
    appealed = penalty(town, issued=3)
    penalty_order_appeal(acting_user=manager, order=appealed, status="appealed", on=days_ago(2))
    overturned = penalty(town, issued=3)
    penalty_order_appeal(acting_user=manager, order=overturned, status="appealed", on=days_ago(2))
    penalty_order_appeal(acting_user=manager, order=overturned, status="overturned", on=days_ago(1))
    assert nightly() == 0
    penalty_order_appeal(acting_user=manager, order=appealed, status="upheld", on=days_ago(1))
    assert nightly() == 1
    picked = Charge.objects.get(source="enforcement.penaltyorder", source_id=appealed.pk)
    assert picked.assessed_on == days_ago(1)  # final when upheld (P8)


# --- O2: costs of disconnection and reinstatement ---------------------------------------------


@pytest.mark.provision("O2")
def test_o2_service_costs_are_billed_once_to_the_discharger_under_q1_and_paid_back(town):
    cost = service_cost(town)
    assert nightly() == 1 and nightly() == 0
    picked = Charge.objects.get(source="enforcement.servicecost", source_id=cost.pk)
    assert (picked.amount, picked.provision, picked.invoice_kind, picked.assessed_on) == (
        Decimal("480.00"), "O2", "Q1", cost.incurred_on,
    )  # fmt: skip
    assert picked.debtor.establishment == town.own_fse and "Blue Plate Diner LLC" in picked.description
    invoice = bill(town, picked)
    assert (invoice.kind, invoice.delinquent_from) == ("Q1", dates("Q1", town_today()).delinquent_from)
    pay_in_full(town, invoice)
    assert ServiceCost.objects.get(pk=cost.pk).paid_on == town_today()


# --- H3: one answer to "is anything owed?", before and after the nightly pass ----------------------


def owed_now(town) -> list[tuple[str, Decimal, str]]:
    return [(o.label, o.amount, o.provision) for o in amounts_owed(town.own_fse.pk, town_today())]


@pytest.mark.provision("H3")
def test_h3_a_penalty_issued_today_is_owed_before_the_nightly_pass_and_counted_once_after_it(town):
    order = penalty(town, issued=0)
    d6_charge(town)
    before = owed_now(town)
    assert sorted(amount for _, amount, _ in before) == [Decimal("190.00"), Decimal("750.00")]
    assert (f"Penalty order {order.reference}", "P8") in [(label.split(",")[0], p) for label, _, p in before]
    assert any("D6" in label for label, _, _ in before)
    nightly()
    assert sorted(amount for _, amount, _ in owed_now(town)) == [Decimal("190.00"), Decimal("750.00")]
    invoices = services.invoices_issue(acting_user=clerk(town), debtor=Charge.objects.first().debtor)
    assert sorted(amount for _, amount, _ in owed_now(town)) == [Decimal("190.00"), Decimal("750.00")]
    pay_in_full(town, next(i for i in invoices if i.kind == "P8"))
    assert [amount for _, amount, _ in owed_now(town)] == [Decimal("190.00")]


@pytest.mark.provision("H3")
def test_h3_a_penalty_invoice_written_off_or_cancelled_is_no_longer_owed_but_a_released_d6_charge_is(town):
    order = penalty(town)
    charge = d6_charge(town)
    nightly()
    for invoice in services.invoices_issue(acting_user=clerk(town), debtor=Charge.objects.first().debtor):
        services.invoice_cancel(invoice=invoice, acting_user=clerk(town), reason="Issued in error")
    # The D6 charge is owed in inspections again (as a permit fee is in permits), to cancel or collect.
    assert [p for _, _, p in owed_now(town)] == ["Q1"]
    assert nightly() == 0 and PenaltyOrder.objects.get(pk=order.pk).paid_on is None
    compliance_charge_cancel(charge=charge, reason="Waived", acting_user=town.users[Role.FOG_MANAGER])
    assert owed_now(town) == []


# --- N1, N2, I2: spills' costs ---------------------------------------------------------------------


@pytest.mark.provision("N1")
def test_n1_n2_spill_costs_are_billed_once_to_whoever_owes_them_n1_within_45_days_n2_under_q1(town):
    from fogcontrol.spills import services as spills
    from fogcontrol.spills.models import SpillCost
    from fogcontrol.spills.tests.helpers import fog_spill

    spill = fog_spill(town, links=[(town.own_fse, "upstream")])
    manager = town.users[Role.FOG_MANAGER]
    clean_up = spills.cost_record(
        spill=spill, kind="contractor", amount=Decimal("1850.00"), debtor="fse", debtor_name="Blue Plate Diner",
        establishment=town.own_fse, invoiced_on=days_ago(2), acting_user=manager,
    )  # fmt: skip
    fine = spills.cost_record(
        spill=spill, kind="agency_fine", amount=Decimal("5000.00"), debtor="property_owner",
        debtor_name="Owner of record", establishment=town.own_fse, invoiced_on=days_ago(2), acting_user=manager,
    )  # fmt: skip
    cancelled = spills.cost_record(
        spill=spill, kind="staff", amount=Decimal("90.00"), debtor="fse", debtor_name="Blue Plate Diner",
        establishment=town.own_fse, invoiced_on=days_ago(2), acting_user=manager,
    )  # fmt: skip
    spills.cost_cancel(cost=cancelled, reason="Recorded twice", acting_user=manager)
    assert sorted(o.amount for o in amounts_owed(town.own_fse.pk, town_today())) == [
        Decimal("1850.00"), Decimal("5000.00"),
    ]  # fmt: skip
    assert nightly() == 2 and nightly() == 0
    n1 = Charge.objects.get(source="spills.spillcost", source_id=clean_up.pk)
    n2 = Charge.objects.get(source="spills.spillcost", source_id=fine.pk)
    assert (n1.provision, n1.invoice_kind, n1.debtor.establishment) == ("N1", "N1", town.own_fse)
    assert (n2.provision, n2.invoice_kind) == ("N2", "Q1")
    # I2: the fine is owed by the property owner of record when the parcel has one.
    owner_id = town.own_fse.parcel.owner_id if town.own_fse.parcel_id else None
    assert n2.debtor.party_id == owner_id if owner_id else n2.debtor.establishment == town.own_fse
    assert not Charge.objects.filter(source="spills.spillcost", source_id=cancelled.pk).exists()
    invoice = bill(town, n1)
    assert (invoice.kind, invoice.due_on) == ("N1", dates("N1", town_today()).due_on)
    assert SpillCost.objects.get(pk=clean_up.pk).status == SpillCost.Status.OWED  # spills keeps no paid state
