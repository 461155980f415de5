"""Charges: the ledger's debits. Picked up from the producing domains (set-based, once per
record) or entered by staff for a one-off amount (Q1, P8, N1, P12)."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import translation

from fogcontrol.audit.services import audit_record, audit_records_bulk, snapshot
from fogcontrol.billing.models import Account, Charge, Debtor, InvoiceKind, LedgerEntry
from fogcontrol.billing.services.common import debtor_for, entry, money, require_biller, revenue_account
from fogcontrol.billing.sources import DIRECT, ChargeRow, sources
from fogcontrol.core.actors import actor_label_for, person


def _charge(row: ChargeRow, *, key: str, debtor_id: int, acting_user) -> Charge:
    return Charge(
        debtor_id=debtor_id,
        establishment_id=row.establishment_id,
        source=key,
        source_id=row.source_id,
        description=row.description[:300],
        provision=row.provision,
        invoice_kind=row.invoice_kind,
        penalty=row.penalty,
        amount=row.amount,
        assessed_on=row.assessed_on,
        created_by=person(acting_user),
        created_by_label=actor_label_for(acting_user),
    )


def _charge_entry(charge: Charge, acting_user) -> LedgerEntry:
    return entry(
        debtor_id=charge.debtor_id,
        posted_on=charge.assessed_on,
        kind=LedgerEntry.Kind.CHARGE,
        debit=Account.RECEIVABLE,
        credit=revenue_account(charge.penalty),
        amount=charge.amount,
        description=f"{charge.description} ({charge.provision})",
        acting_user=acting_user,
        charge=charge,
    )


@transaction.atomic
def charge_create(
    *,
    acting_user,
    amount,
    description: str,
    provision: str,
    invoice_kind: str = InvoiceKind.Q1,
    assessed_on: dt.date,
    establishment=None,
    party=None,
    penalty: bool = False,
) -> Charge:
    """A charge staff enter directly (a one-off amount), posted to the debtor's account."""
    require_biller(acting_user, "enter charges")
    errors = {}
    if not (description or "").strip():
        errors["description"] = ["Say what the charge is for: it is printed on the invoice."]
    if not (provision or "").strip():
        errors["provision"] = ["Name the provision the charge is billed under (e.g. Q1, D6, O2)."]
    if invoice_kind not in InvoiceKind.values:
        errors["invoice_kind"] = [f"Choose one of {', '.join(InvoiceKind.values)}."]
    if (establishment is None) == (party is None):
        errors["debtor"] = ["Name either the establishment or the party who owes it."]
    if errors:
        raise ValidationError(errors)
    amount = money(amount, "amount")
    debtor = debtor_for(
        establishment_id=getattr(establishment, "pk", None), party_id=getattr(party, "pk", None)
    )
    row = ChargeRow(
        source_id=None,
        amount=amount,
        description=description.strip(),
        provision=provision.strip().upper(),
        invoice_kind=invoice_kind,
        assessed_on=assessed_on,
        establishment_id=getattr(establishment, "pk", None),
        penalty=penalty,
    )
    charge = _charge(row, key=DIRECT, debtor_id=debtor.pk, acting_user=acting_user)
    charge.full_clean()
    charge.save()
    posting = _charge_entry(charge, acting_user)
    posting.save()
    audit_record(acting_user=acting_user, action="billing.charge", instance=charge, after=snapshot(charge))
    return charge


def _debtor_ids(rows: list[ChargeRow]) -> dict[tuple[str, int], int]:
    """The debtor row of each establishment and party named, made in bulk where missing."""
    establishment_ids = {row.establishment_id for row in rows if row.party_id is None}
    party_ids = {row.party_id for row in rows if row.party_id is not None}
    wanted = [Debtor(establishment_id=pk) for pk in establishment_ids] + [
        Debtor(party_id=pk) for pk in party_ids
    ]

    def known():
        found = Debtor.objects.filter(establishment_id__in=establishment_ids) | Debtor.objects.filter(
            party_id__in=party_ids
        )
        return {
            (("e", d.establishment_id) if d.establishment_id else ("p", d.party_id)): d.pk
            for d in found.only("pk", "establishment_id", "party_id")
        }

    ids = known()
    missing = [
        d
        for d in wanted
        if (("e", d.establishment_id) if d.establishment_id else ("p", d.party_id)) not in ids
    ]
    if missing:
        Debtor.objects.bulk_create(missing, ignore_conflicts=True)
        ids = known()
    return ids


@transaction.atomic
def charges_pickup(*, acting_user) -> int:
    """Create a charge for every producer record owed and not yet charged, each once (unique on its
    source), set-based: per source one SELECT, one INSERT of charges, one of ledger entries, one of
    audit entries. Running it twice charges nothing the second time. Returns how many were made."""
    require_biller(acting_user, "pick up charges")
    made = 0
    for adapter in sources():
        charged = Charge.objects.filter(source=adapter.key, source_id__isnull=False).values("source_id")
        # The ledger's descriptions are the English of record, whatever language is active (issue 18:
        # pages show them in the reader's, billing/entry_text.py).
        with translation.override("en"):
            rows = [adapter.to_row(record) for record in adapter.uncharged().exclude(pk__in=charged)]
        if not rows:
            continue
        debtors = _debtor_ids(rows)
        charges = [
            _charge(
                row,
                key=adapter.key,
                debtor_id=debtors[
                    ("p", row.party_id) if row.party_id is not None else ("e", row.establishment_id)
                ],
                acting_user=acting_user,
            )
            for row in rows
        ]
        Charge.objects.bulk_create(charges)
        LedgerEntry.objects.bulk_create([_charge_entry(charge, acting_user) for charge in charges])
        audit_records_bulk(
            acting_user=acting_user,
            action="billing.charge",
            changes=[(charge, None, snapshot(charge)) for charge in charges],
            note=f"Picked up from {adapter.label}.",
        )
        if adapter.on_charged is not None:
            adapter.on_charged(ids=[row.source_id for row in rows], acting_user=acting_user)
        made += len(charges)
    return made
