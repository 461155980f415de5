"""The nightly pass: charges picked up, invoices marked delinquent (Q1, P8), penalties delinquent
60 days put on the lien list (P9; approved, recorded and released in ``liens.py``). Set-based and
idempotent: running it twice changes nothing the second time."""

from __future__ import annotations

import datetime as dt

from django.db import transaction

from fogcontrol.audit.services import audit_records_bulk, snapshot
from fogcontrol.billing.amounts import with_invoice_amounts
from fogcontrol.billing.models import Invoice, Lien
from fogcontrol.billing.services.charges import charges_pickup
from fogcontrol.program.selectors import town_today

NIGHTLY = "billing.nightly"


@transaction.atomic
def delinquency_sweep(*, acting_user=NIGHTLY, on: dt.date | None = None) -> int:
    """Q1, P8: every open invoice past its last day to pay is marked delinquent (one SELECT, one
    UPDATE, one INSERT of audit entries). Returns how many were marked."""
    on = on or town_today()
    due = list(
        Invoice.objects.select_for_update(of=("self",))
        .filter(status=Invoice.Status.OPEN, delinquent_on__isnull=True, delinquent_from__lte=on)
        .order_by("pk")
    )
    if not due:
        return 0
    Invoice.objects.filter(pk__in=[invoice.pk for invoice in due]).update(delinquent_on=on)
    audit_records_bulk(
        acting_user=acting_user,
        action="billing.delinquent",
        changes=[(invoice, {"delinquent_on": None}, {"delinquent_on": on.isoformat()}) for invoice in due],
        note="Unpaid after the last day to pay (Q1, P8): a debt to the Town; the business licence is held (Q2).",
    )
    return len(due)


@transaction.atomic
def lien_sweep(*, acting_user=NIGHTLY, on: dt.date | None = None) -> int:
    """P9: every penalty invoice still unpaid on its lien-eligible day goes on the lien list, with
    the parcel (APN) and its owner of record, ready to record with the County Recorder."""
    on = on or town_today()
    eligible = list(
        with_invoice_amounts(
            Invoice.objects.filter(
                status=Invoice.Status.OPEN, lien_eligible_from__lte=on, lien__isnull=True, penalty=True
            )
        )
        .select_related("establishment__parcel__owner", "debtor__party")
        .order_by("pk")
    )
    liens = []
    for invoice in eligible:
        parcel = invoice.establishment.parcel if invoice.establishment_id else None
        owner = parcel.owner.name if parcel is not None and parcel.owner_id else ""
        liens.append(
            Lien(
                invoice=invoice,
                debtor_id=invoice.debtor_id,
                apn=parcel.apn if parcel is not None else "",
                situs_address=parcel.situs_address if parcel is not None else "",
                owner_of_record=owner or (invoice.debtor.party.name if invoice.debtor.party_id else ""),
                amount=invoice.outstanding,
                eligible_on=invoice.lien_eligible_from,
                listed_on=on,
            )
        )
    if not liens:
        return 0
    Lien.objects.bulk_create(liens)
    audit_records_bulk(
        acting_user=acting_user,
        action="billing.lien_list",
        changes=[(lien, None, snapshot(lien)) for lien in liens],
        note="A penalty delinquent past its lien date (P9: the ruleset's days after delinquency).",
    )
    return len(liens)


def billing_nightly(*, acting_user=NIGHTLY, on: dt.date | None = None) -> dict[str, int]:
    """The nightly pass, in order: pick up new charges, mark delinquent invoices, list liens."""
    return {
        "charges_picked_up": charges_pickup(acting_user=acting_user),
        "invoices_delinquent": delinquency_sweep(acting_user=acting_user, on=on),
        "liens_listed": lien_sweep(acting_user=acting_user, on=on),
    }
