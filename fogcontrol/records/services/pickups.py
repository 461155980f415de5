"""C2 waste cooking oil: a pickup recorded by the FSE, or by the licensed hauler or approved recycler
in the hauler portal (date, gallons, who took it, the receipt)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for, is_job, person
from fogcontrol.core.permissions import require_role
from fogcontrol.core.records import canonical_submission, record_append
from fogcontrol.core.roles import Role
from fogcontrol.permits.uploads import check_upload
from fogcontrol.program.selectors import town_today
from fogcontrol.records.models import OilPickup
from fogcontrol.records.roles import PICKUP_RECORDERS
from fogcontrol.records.services.common import CHAIN_FIELDS, require_bound
from fogcontrol.registry.models import FoodServiceEstablishment, HaulerCompany


def _hauler_for(acting_user, hauler: HaulerCompany | None) -> HaulerCompany | None:
    """A hauler user records pickups only as its own company (the one it works for)."""
    if is_job(acting_user) or acting_user.role != Role.HAULER:
        return hauler
    own = HaulerCompany.objects.filter(users=acting_user)
    if hauler is None:
        hauler = own.first()
    if hauler is None or not own.filter(pk=hauler.pk).exists():
        raise PermissionDenied("A hauler records pickups only as its own company.")
    return hauler


@transaction.atomic
def oil_pickup_record(
    *,
    establishment: FoodServiceEstablishment,
    picked_up_on: dt.date,
    gallons: Decimal,
    acting_user,
    hauler: HaulerCompany | None = None,
    recycler_name: str = "",
    receipt=None,
) -> OilPickup:
    """Record a waste-oil pickup (C2): removed by a licensed hauler or an approved recycler; the
    receipt (PDF or image) is checked by content and stored under a random name. The pickup is a
    copy of record on its chain (F5): a wrong entry is answered by a new one, never edited."""
    require_role(
        acting_user, PICKUP_RECORDERS, "Only the FSE, its hauler or recycler, and staff record pickups."
    )
    require_bound(acting_user, establishment, "record waste-oil pickups")
    hauler = _hauler_for(acting_user, hauler)
    recycler_name = (recycler_name or "").strip()
    if hauler is None and not recycler_name:
        raise ValidationError(
            {"hauler": _("Name the licensed hauler, or the approved recycler, who took the oil.")}
        )
    if gallons is None or Decimal(gallons) <= 0:
        raise ValidationError({"gallons": _("Give the gallons picked up (more than 0).")})
    if picked_up_on > town_today():
        raise ValidationError(
            {"picked_up_on": _("This date is in the future: record a pickup that happened.")}
        )
    pickup = OilPickup(
        establishment=establishment,
        picked_up_on=picked_up_on,
        gallons=gallons,
        hauler=hauler,
        recycler_name=recycler_name[:200],
        recorded_by=person(acting_user),
        recorded_by_label=actor_label_for(acting_user),
    )
    if receipt is not None:
        pickup.receipt_type, pickup.receipt_sha256 = check_upload(receipt, "receipt")
        pickup.receipt = receipt
        pickup.receipt_name = (receipt.name or "receipt")[:255]
    pickup.submission = canonical_submission(
        {
            "establishment": establishment.pk,
            "picked_up_on": picked_up_on,
            "gallons": str(gallons),
            "hauler": hauler.pk if hauler is not None else None,
            "recycler_name": pickup.recycler_name,
            "receipt": {"name": pickup.receipt_name, "sha256": pickup.receipt_sha256} if receipt else None,
        }
    )
    pickup.full_clean(exclude=CHAIN_FIELDS)
    if receipt is not None:
        # Written first (a random name), so the record's hash covers its stored name.
        pickup.receipt.save(receipt.name or "receipt", receipt, save=False)
    record_append(pickup, acting_user=acting_user)
    audit_record(acting_user=acting_user, action="oil_pickup.record", instance=pickup, after=snapshot(pickup))
    return pickup
