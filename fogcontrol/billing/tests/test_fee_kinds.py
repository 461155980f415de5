"""The one fee schedule (permits') prices what billing bills too: re-inspection, disconnection and
reinstatement (D8, O2), optional until the Town sets them; a fee invoiced by billing is paid there."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from fogcontrol.billing import services
from fogcontrol.billing.models import Charge
from fogcontrol.billing.tests.helpers import clerk
from fogcontrol.core.roles import Role
from fogcontrol.permits.models import FeeCharge, FeeKind
from fogcontrol.permits.services.fees import fee_assess, fee_record_payment, fee_schedule_create
from fogcontrol.permits.states import TransitionNotAllowed
from fogcontrol.program.selectors import town_today

pytestmark = pytest.mark.django_db

PERMIT_FEES = {"new_permit": "350.00", "renewal": "200.00", "reissue": "300.00", "plan_review": "450.00"}


@pytest.mark.provision("O2")
def test_o2_the_schedule_prices_disconnection_and_reinstatement_when_the_town_sets_them(town):
    manager = town.users[Role.FOG_MANAGER]
    fee_schedule_create(
        acting_user=manager, effective_from=dt.date(2024, 1, 1), label="2024", amounts=PERMIT_FEES
    )
    with pytest.raises(ValidationError):  # not priced yet: nothing to assess
        fee_assess(acting_user=manager, kind=FeeKind.DISCONNECTION, establishment=town.own_fse, on=town_today(),
                   description="Disconnection")  # fmt: skip
    fee_schedule_create(
        acting_user=manager, effective_from=dt.date(2025, 1, 1), label="2025",
        amounts={**PERMIT_FEES, "re_inspection": "175.00", "disconnection": "900.00", "reinstatement": "650.00"},
    )  # fmt: skip
    fee = fee_assess(acting_user=manager, kind=FeeKind.REINSTATEMENT, establishment=town.own_fse, on=town_today(),
                     description="Reinstatement of sewer service")  # fmt: skip
    assert fee.amount == Decimal("650.00")
    services.charges_pickup(acting_user=clerk(town))
    assert Charge.objects.get(source_id=fee.pk).provision == "O2"
    fee.refresh_from_db()
    with pytest.raises(TransitionNotAllowed, match="billing"):  # paid in billing, never twice
        fee_record_payment(
            charge=fee, acting_user=manager, amount="650.00", paid_on=town_today(), reference="X"
        )
    assert FeeCharge.objects.get(pk=fee.pk).status == FeeCharge.Status.INVOICED


@pytest.mark.provision("B3")
def test_b3_a_cancelled_fee_invoice_hands_the_fee_back_to_permits_to_waive(town):
    from fogcontrol.permits.services.fees import fee_waive

    manager = town.users[Role.FOG_MANAGER]
    fee_schedule_create(
        acting_user=manager, effective_from=dt.date(2024, 1, 1), label="2024", amounts=PERMIT_FEES
    )
    fee = fee_assess(acting_user=manager, kind=FeeKind.NEW_PERMIT, establishment=town.own_fse, on=town_today(),
                     description="FOG permit application")  # fmt: skip
    services.charges_pickup(acting_user=clerk(town))
    debtor = Charge.objects.get(source_id=fee.pk).debtor
    (issued,) = services.invoices_issue(acting_user=clerk(town), debtor=debtor)
    services.invoice_cancel(invoice=issued, acting_user=clerk(town), reason="Application withdrawn")
    fee.refresh_from_db()
    assert fee.status == FeeCharge.Status.OWED
    assert services.charges_pickup(acting_user=clerk(town)) == 0  # charged once, never again
    fee_waive(charge=fee, acting_user=manager, reason="Application withdrawn")
    assert FeeCharge.objects.get(pk=fee.pk).status == FeeCharge.Status.WAIVED
