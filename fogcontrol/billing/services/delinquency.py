"""The nightly pass: charges picked up, invoices marked delinquent (Q1, P8), penalties delinquent
60 days put on the lien list (P9); and the lien's recording and release. Set-based and idempotent:
running it twice changes nothing the second time."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction

from fogcontrol.audit.services import audit_record, audit_records_bulk, snapshot
from fogcontrol.billing.amounts import with_invoice_amounts
from fogcontrol.billing.models import Invoice, Lien
from fogcontrol.billing.services.charges import charges_pickup
from fogcontrol.billing.services.common import require_biller
from fogcontrol.core.errors import StateConflict
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
        note="A penalty delinquent 60 days (P9).",
    )
    return len(liens)


def billing_nightly(*, acting_user=NIGHTLY, on: dt.date | None = None) -> dict[str, int]:
    """The nightly pass, in order: pick up new charges, mark delinquent invoices, list liens."""
    return {
        "charges_picked_up": charges_pickup(acting_user=acting_user),
        "invoices_delinquent": delinquency_sweep(acting_user=acting_user, on=on),
        "liens_listed": lien_sweep(acting_user=acting_user, on=on),
    }


@transaction.atomic
def lien_record(*, acting_user, lien: Lien, recorded_on: dt.date, document_number: str) -> Lien:
    """P9: the lien as recorded by the County Recorder: the date and the document number."""
    require_biller(acting_user, "record liens")
    lien = Lien.objects.select_for_update(of=("self",)).get(pk=lien.pk)
    if lien.status != Lien.Status.LISTED:
        raise StateConflict(f"This lien is already {lien.get_status_display().lower()}.")
    errors = {}
    if not (document_number or "").strip():
        errors["document_number"] = ["Give the County Recorder's document number."]
    if recorded_on is None or recorded_on > town_today():
        errors["recorded_on"] = ["Give the day it was recorded (today or earlier)."]
    if errors:
        raise ValidationError(errors)
    before = snapshot(lien)
    lien.status, lien.recorded_on, lien.recording_number = (
        Lien.Status.RECORDED,
        recorded_on,
        document_number.strip(),
    )
    lien.save()
    audit_record(
        acting_user=acting_user,
        action="billing.lien_record",
        instance=lien,
        before=before,
        after=snapshot(lien),
    )
    return lien


@transaction.atomic
def lien_release(*, acting_user, lien: Lien, released_on: dt.date, document_number: str) -> Lien:
    """P9: once the penalty is paid (or cancelled), the lien is released: the release's date and
    document number are kept and the release letter can be printed."""
    require_biller(acting_user, "release liens")
    lien = Lien.objects.select_for_update(of=("self",)).select_related("invoice").get(pk=lien.pk)
    if lien.status != Lien.Status.RECORDED:
        raise StateConflict("Only a recorded lien is released: one not yet recorded is simply not recorded.")
    if lien.invoice.status == Invoice.Status.OPEN:
        raise StateConflict(f"{lien.invoice.number} is not paid: the lien stays until it is.")
    errors = {}
    if not (document_number or "").strip():
        errors["document_number"] = ["Give the document number of the recorded release."]
    if released_on is None or released_on > town_today() or released_on < lien.recorded_on:
        errors["released_on"] = [
            "Give the day the release was recorded (not before the lien, not in the future)."
        ]
    if errors:
        raise ValidationError(errors)
    before = snapshot(lien)
    lien.status, lien.released_on, lien.release_number = (
        Lien.Status.RELEASED,
        released_on,
        document_number.strip(),
    )
    lien.save()
    audit_record(
        acting_user=acting_user,
        action="billing.lien_release",
        instance=lien,
        before=before,
        after=snapshot(lien),
    )
    return lien
