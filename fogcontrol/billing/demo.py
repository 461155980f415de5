"""Demo accounts in every state (Q1, Q2, P8, P9, P12, N1), through the billing services.

The permit fees the permits seeder left owed are picked up; the demo FSE user's establishment gets
an open fee invoice partly paid, a delinquent one (its business licence is held, Q2) and a penalty
delinquent past the lien day (P9), its lien asked for and waiting for a second approval; a dozen
other accounts get one state each: paid, paid with credit left over, cancelled, written off, a
write-off awaiting its second approval, a lien eligible, a lien recorded (asked by the clerk, approved
by the FOG Manager), a lien released after payment, clean-up costs (N1) billed to the property owner.
Then the nightly pass marks what is delinquent and lists the liens.
"""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

from fogcontrol.billing import services
from fogcontrol.billing.models import Lien

ACTING = "seed_demo"


def _invoice(debtor_kwargs, amount, *, days, today, kind="Q1", provision="Q1", what="Permit fee"):
    charge = services.charge_create(
        acting_user=ACTING,
        amount=Decimal(amount),
        description=what,
        provision=provision,
        invoice_kind=kind,
        penalty=kind == "P8",
        assessed_on=today - dt.timedelta(days=days),
        **debtor_kwargs,
    )
    (invoice,) = services.invoices_issue(
        acting_user=ACTING,
        debtor=charge.debtor,
        notice_date=today - dt.timedelta(days=days),
        charges=[charge],
    )
    return invoice


def _pay(invoice, amount, *, today, method="cheque", allocations=None):
    return services.payment_record(
        acting_user=ACTING, debtor=invoice.debtor, amount=Decimal(amount), method=method,
        reference=f"{random.Random(invoice.pk).randint(1000, 9999)}", received_on=today, allocations=allocations,
    )  # fmt: skip


def seed(*, rng: random.Random, town, today: dt.date) -> None:
    services.charges_pickup(acting_user=ACTING)
    clerk, manager = town.users["billing"], town.users["manager"]
    own = town.fse_establishment or town.active_establishments[0]
    others = [fse for fse in town.active_establishments if fse.pk != own.pk]
    rng.shuffle(others)
    others = others[:10]

    # The demo FSE: open and partly paid, delinquent (licence held), a penalty on the lien list.
    open_fee = _invoice(
        {"establishment": own}, "350.00", days=12, today=today, what="Annual permit renewal (B6)"
    )
    _pay(open_fee, "100.00", today=today, allocations={open_fee.pk: "100.00"})
    _invoice(
        {"establishment": own}, "175.00", days=70, today=today, what="Re-inspection (D8)", provision="D8"
    )
    _invoice(
        {"establishment": own}, "2500.00", days=130, today=today, kind="P8", provision="P7",
        what="Administrative civil penalty, order AO-2026-014 (P7)",
    )  # fmt: skip
    if len(others) < 8:
        services.billing_nightly(acting_user=ACTING)
        return
    paid, credit, cancelled, written, pending, recorded, released, cleanup = others[:8]
    invoice = _invoice({"establishment": paid}, "350.00", days=40, today=today)
    _pay(invoice, "350.00", today=today)
    invoice = _invoice({"establishment": credit}, "200.00", days=20, today=today)
    _pay(invoice, "250.00", today=today, method="card")
    invoice = _invoice(
        {"establishment": cancelled}, "450.00", days=15, today=today, what="Plan review (G2)", provision="G2"
    )
    services.invoice_cancel(invoice=invoice, acting_user=ACTING, reason="Plans withdrawn before review")
    invoice = _invoice({"establishment": written}, "90.00", days=80, today=today)
    request = services.write_off_request(
        acting_user=clerk, invoice=invoice, amount="90.00", reason="Business closed; no assets"
    )
    services.write_off_decide(acting_user=manager, write_off=request, approve=True)
    invoice = _invoice({"establishment": pending}, "120.00", days=50, today=today)
    services.write_off_request(acting_user=clerk, invoice=invoice, amount="20.00", reason="Disputed hours")
    lien_penalty = _invoice(
        {"establishment": recorded}, "1000.00", days=140, today=today, kind="P8", provision="P7"
    )
    paid_penalty = _invoice(
        {"establishment": released}, "750.00", days=150, today=today, kind="P8", provision="P7"
    )
    owner = cleanup.parcel.owner if cleanup.parcel_id and cleanup.parcel.owner_id else None
    if owner is not None:
        _invoice({"party": owner}, "4200.00", days=30, today=today, kind="N1", provision="N1",
                 what="Sewer clean-up after the overflow at the lateral (N1, I2)")  # fmt: skip
    _invoice({"establishment": cleanup}, "865.40", days=5, today=today, kind="N1", provision="N2",
             what="Regional Water Board fine passed on (N2)")  # fmt: skip
    if len(others) > 8:  # a penalty lien eligible, not yet asked for
        _invoice({"establishment": others[8]}, "600.00", days=135, today=today, kind="P8", provision="P7")
    services.billing_nightly(acting_user=ACTING)
    # Two-person rule: the clerk asks, the FOG Manager approves, then the recording is noted.
    for invoice, document in ((lien_penalty, "2026-0041177"), (paid_penalty, "2026-0039020")):
        lien = services.lien_request(acting_user=clerk, lien=Lien.objects.get(invoice=invoice))
        services.lien_decide(
            acting_user=manager, lien=lien, approve=True, note="Delinquent over 60 days (P9)."
        )
        services.lien_record(
            acting_user=clerk, lien=lien, recorded_on=today - dt.timedelta(days=3), document_number=document
        )
    # The demo FSE's penalty lien: asked for by the clerk, waiting for a second approval.
    own_lien = Lien.objects.filter(invoice__debtor__establishment=own).first()
    if own_lien is not None:
        services.lien_request(acting_user=clerk, lien=own_lien, note="Penalty unpaid since the spring.")
    _pay(paid_penalty, "750.00", today=today, method="transfer")
    services.lien_release(
        acting_user=ACTING,
        lien=Lien.objects.get(invoice=paid_penalty),
        released_on=today,
        document_number="2026-0041502",
    )
