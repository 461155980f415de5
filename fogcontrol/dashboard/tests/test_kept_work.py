"""Issue 16: every figure of the staff home that counts a table is kept (kept.py), not only the
registry's and the servicing's: the work waiting on staff (flags F4, frequency requests E5,
applications B5), this month's inspections (D8), this week's hearings, open and delinquent invoices
with what they owe (Q1, P8), the payments, inspections trends, and the active haulers.

Each time, the home shows what counting the lists live shows (`_agrees`: tiles, figures, trends), and
a recount from the tables finds nothing to correct; on SQLite and PostgreSQL (the triggers are each
vendor's own SQL).
"""

import datetime as dt
from decimal import Decimal

import pytest

from fogcontrol.billing import services as billing
from fogcontrol.billing.models import Allocation, Invoice
from fogcontrol.billing.tests.helpers import clerk, invoice
from fogcontrol.core.roles import Role
from fogcontrol.dashboard import kept
from fogcontrol.dashboard.figures import dashboard_panels
from fogcontrol.dashboard.models import FigureCount
from fogcontrol.dashboard.tasks import sweep_step
from fogcontrol.dashboard.tests.test_kept_counts import _agrees, _statements
from fogcontrol.dashboard.tests.test_queries import add_rows
from fogcontrol.enforcement.models import Hearing
from fogcontrol.enforcement.tests.helpers import a_case
from fogcontrol.inspections.models import Inspection
from fogcontrol.inspections.tests.helpers import scheduled
from fogcontrol.permits.models import PermitApplication
from fogcontrol.permits.tests.factories import fee_schedule
from fogcontrol.permits.tests.rows import add_permit_rows
from fogcontrol.program.selectors import town_today
from fogcontrol.registry.models import HaulerCompany
from fogcontrol.servicing.models import FrequencyChangeRequest, ManifestFlag
from fogcontrol.testing.factories import DeviceFactory

pytestmark = pytest.mark.django_db


def _figures(user) -> dict:
    user.__dict__.pop("_kept_counts", None)
    panels = dashboard_panels(user, town_today())
    return {f.key: (f.count, f.amount) for panel in panels for f in panel.figures}


# The tables these figures counted: the home's statements name none of them now.
COUNTED_BEFORE = (
    "servicing_manifestflag",
    "servicing_frequencychangerequest",
    "permits_permitapplication",
    "inspections_inspection",
    "enforcement_hearing",
    "billing_invoice",
    "billing_allocation",
    "billing_payment",
    "registry_haulercompany",
)


def test_the_home_reads_none_of_the_tables_it_counted(client, town):
    add_rows(town)(2)
    client.force_login(town.users[Role.FOG_MANAGER])
    statements = _statements(client, "/")
    assert not [sql for sql in statements for table in COUNTED_BEFORE if f'"{table}"' in sql]


def _same(user, monkeypatch) -> bool:
    """`_agrees` (tiles, counts, trends; a recount corrects nothing), and the money's amounts too."""
    kept_view = _figures(user)
    with monkeypatch.context() as patch:
        patch.setattr(kept, "covers", lambda *args: False)
        assert _figures(user) == kept_view
    return _agrees(user, monkeypatch)


def test_the_literals_of_the_kept_families_are_the_models_values():
    """kept.py writes its conditions in SQL: the statuses it names are the models' own."""
    assert Inspection.Status.DRAFT == "draft" and Inspection.Status.COMPLETED == "completed"
    assert Invoice.Status.OPEN == "open"
    assert HaulerCompany._meta.db_table == kept.HAULERS
    assert Invoice._meta.db_table == kept.INVOICES and Allocation._meta.db_table == kept.ALLOCATIONS
    assert Inspection._meta.db_table == kept.INSPECTIONS


@pytest.mark.provision("F4")
@pytest.mark.provision("E5")
@pytest.mark.provision("B5")
@pytest.mark.provision("D8")
@pytest.mark.provision("Q1")
@pytest.mark.provision("P8")
def test_the_work_waiting_is_kept_and_equals_a_recount_after_every_kind_of_write(town, monkeypatch):
    """Flags, frequency requests, applications, inspections, hearings, invoices (their allocations
    and payments), haulers: written by services, by plain saves and by UPDATEs of many rows, and
    deleted; each time the kept figures equal the live ones and a recount corrects nothing."""
    manager = town.users[Role.FOG_MANAGER]
    today = town_today()
    assert _same(manager, monkeypatch)
    fee_schedule()
    add_permit_rows(2, manager=manager)  # draft applications
    first = PermitApplication.objects.order_by("pk").first()
    PermitApplication.objects.filter(pk=first.pk).update(status="submitted")  # waiting on the Town (B5)
    add_rows(town)(2)  # flags, cases, invoices, spills, inspections, permits
    device = DeviceFactory(establishments=[town.own_fse], parcel=town.own_fse.parcel)
    request = FrequencyChangeRequest.objects.create(
        device=device, requested_days=120, current_days=90, justification="Little FOG."
    )
    case = a_case(town)
    hearing = Hearing.objects.create(
        case=case, kind=Hearing.Kind.COMPLAINT, first_scheduled_on=today, scheduled_on=today
    )
    assert _same(manager, monkeypatch)

    # Money: a partial payment, an invoice marked delinquent in bulk (as the nightly pass does),
    # a second invoice paid in full.
    owed = invoice(town, "250.00")
    paid = invoice(town, "80.00")
    billing.payment_record(
        acting_user=clerk(town),
        debtor=owed.debtor,
        amount="100.00",
        method="cash",
        allocations={owed.pk: Decimal("100.00")},
    )
    Invoice.objects.filter(pk=owed.pk).update(delinquent_on=today)
    billing.payment_record(acting_user=clerk(town), debtor=paid.debtor, amount="80.00", method="cash")
    assert _same(manager, monkeypatch)
    shown = _figures(manager)
    assert shown["invoices_delinquent"] == (1, Decimal("150.00"))

    # Plain UPDATEs and deletes of many rows.
    ManifestFlag.objects.update(review=ManifestFlag.Review.CLEARED)
    FrequencyChangeRequest.objects.filter(pk=request.pk).update(status=FrequencyChangeRequest.Status.REFUSED)
    Inspection.objects.filter(status=Inspection.Status.DRAFT).update(
        status=Inspection.Status.COMPLETED, visited_on=today
    )
    scheduled(town.own_fse, town.users[Role.INSPECTOR], scheduled_on=today + dt.timedelta(days=40))
    Hearing.objects.filter(pk=hearing.pk).update(scheduled_on=today + dt.timedelta(days=8))
    PermitApplication.objects.filter(status="submitted").update(status="under_review")
    HaulerCompany.objects.update(active=False)
    Allocation.objects.filter(invoice=owed).delete()
    assert _same(manager, monkeypatch)
    Hearing.objects.all().delete()
    ManifestFlag.objects.all().delete()
    assert _same(manager, monkeypatch)


@pytest.mark.provision("P8")
def test_the_nightly_step_puts_a_wrong_sum_right(town):
    manager = town.users[Role.FOG_MANAGER]
    invoice(town, "40.00")
    before = _figures(manager)["invoices_outstanding"]
    FigureCount.objects.filter(figure="invoice_open_cents").update(n=1)
    assert _figures(manager)["invoices_outstanding"] == (1, Decimal("0.01"))
    assert sweep_step(on=town_today(), acting_user="figures.nightly") == {"counts_corrected": 1}
    assert _figures(manager)["invoices_outstanding"] == before == (1, Decimal("40.00"))
