"""Every write to the registry: keyword-only arguments, an acting user, one transaction, an audit entry.

Validation is the model's (`full_clean`): a bad value raises django's ValidationError naming
the field, which pages show beside the field and the API answers with 400.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import models, transaction

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.concurrency import Versioned, check_fresh, save_versioned
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.core.roles import REGISTRY_EDITORS
from fogcontrol.program.selectors import ruleset_on, town_today
from fogcontrol.registry.actions import establishment_close_verdict
from fogcontrol.registry.models import (
    FoodServiceEstablishment,
    GreaseControlDevice,
    HaulerCompany,
    HaulerVehicle,
    Parcel,
    Party,
    ReceivingFacility,
)
from fogcontrol.registry.signals import licence_expiry_changed
from fogcontrol.rules.sizing import a4_flags


def _require_registry_editor(acting_user) -> None:
    require_role(
        acting_user, REGISTRY_EDITORS, "Only the FOG Manager and inspectors may change the registry."
    )


def _save(
    instance: models.Model,
    *,
    acting_user,
    fields: dict[str, Any],
    many: dict[str, Iterable] | None = None,
    action: str,
    expected_version: int | None = None,
) -> models.Model:
    """Apply `fields` and `many` (many-to-many sets), validate, save and audit the difference.

    An editable record is saved only if it still has the `expected_version` its editor read
    (fogcontrol/core/concurrency.py); else `StaleRecord` (409) and nothing is written."""
    creating = instance.pk is None
    before = None if creating else snapshot(instance)
    for name, value in fields.items():
        setattr(instance, name, value)
    instance.full_clean()
    many = many or {}
    versioned = not creating and isinstance(instance, Versioned)
    if not creating and _unchanged(instance, before, many):
        # Saving would only move `updated_at`: leave the record and the trail as they are (a
        # stale copy is still refused: its editor should see what changed meanwhile).
        if versioned:
            check_fresh(instance, expected_version)
        return instance
    if versioned:
        save_versioned(instance, expected_version=expected_version)
    else:
        instance.save()
    for name, values in many.items():
        getattr(instance, name).set(values)
    after = snapshot(instance)
    audit_record(acting_user=acting_user, action=action, instance=instance, before=before, after=after)
    return instance


def _unchanged(instance: models.Model, before: dict[str, Any], many: dict[str, Iterable]) -> bool:
    current = snapshot(instance)
    for field in instance._meta.concrete_fields:
        if getattr(field, "auto_now", False) or field.attname not in before:
            continue  # `updated_at`, and the `version` the audit leaves out
        if current[field.attname] != before[field.attname]:
            return False
    for name, values in many.items():
        wanted = sorted(value.pk if hasattr(value, "pk") else value for value in values)
        if wanted != before[name]:
            return False
    return True


@transaction.atomic
def party_create(*, acting_user, **fields) -> Party:
    _require_registry_editor(acting_user)
    return _save(Party(), acting_user=acting_user, fields=fields, action="party.create")


@transaction.atomic
def party_update(*, party: Party, acting_user, expected_version: int | None = None, **fields) -> Party:
    _require_registry_editor(acting_user)
    return _save(
        party,
        acting_user=acting_user,
        fields=fields,
        action="party.update",
        expected_version=expected_version,
    )


@transaction.atomic
def parcel_create(*, acting_user, owner_users: Iterable = (), **fields) -> Parcel:
    _require_registry_editor(acting_user)
    return _save(
        Parcel(),
        acting_user=acting_user,
        fields=fields,
        many={"owner_users": owner_users},
        action="parcel.create",
    )


@transaction.atomic
def parcel_update(
    *,
    parcel: Parcel,
    acting_user,
    owner_users: Iterable | None = None,
    expected_version: int | None = None,
    **fields,
) -> Parcel:
    _require_registry_editor(acting_user)
    many = {} if owner_users is None else {"owner_users": owner_users}
    return _save(
        parcel,
        acting_user=acting_user,
        fields=fields,
        many=many,
        action="parcel.update",
        expected_version=expected_version,
    )


def _establishment_many(users, haulers) -> dict[str, Iterable]:
    many: dict[str, Iterable] = {}
    if users is not None:
        many["users"] = users
    if haulers is not None:
        many["haulers"] = haulers
    return many


@transaction.atomic
def establishment_create(
    *, acting_user, users: Iterable = (), haulers: Iterable = (), **fields
) -> FoodServiceEstablishment:
    """Register an FSE under its business name and licence (A1)."""
    _require_registry_editor(acting_user)
    return _save(
        FoodServiceEstablishment(),
        acting_user=acting_user,
        fields=fields,
        many=_establishment_many(users, haulers),
        action="establishment.create",
    )


@transaction.atomic
def establishment_update(
    *,
    establishment: FoodServiceEstablishment,
    acting_user,
    users: Iterable | None = None,
    haulers: Iterable | None = None,
    expected_version: int | None = None,
    **fields,
) -> FoodServiceEstablishment:
    _require_registry_editor(acting_user)
    if fields.get("status") == FoodServiceEstablishment.Status.CLOSED and not (
        fields.get("closed_on") or establishment.closed_on
    ):
        fields["closed_on"] = town_today()
    if fields.get("status") == FoodServiceEstablishment.Status.ACTIVE:
        fields["closed_on"] = None
    previous_expiry = establishment.licence_expires_on
    establishment = _save(
        establishment,
        acting_user=acting_user,
        fields=fields,
        many=_establishment_many(users, haulers),
        action="establishment.update",
        expected_version=expected_version,
    )
    if establishment.licence_expires_on != previous_expiry:
        # B6: the FOG permit runs with the business licence; permits listens (registry/signals.py).
        licence_expiry_changed.send(
            sender=FoodServiceEstablishment,
            establishment=establishment,
            acting_user=acting_user,
            previous_expiry=previous_expiry,
        )
    return establishment


@transaction.atomic
def establishment_close(*, establishment: FoodServiceEstablishment, acting_user, closed_on=None):
    """Close an FSE. It keeps its history: nothing is deleted."""
    # Who first (403), then when (409), as establishment_actions answers.
    _require_registry_editor(acting_user)
    if not (verdict := establishment_close_verdict(establishment)):
        raise StateConflict(verdict.reason)
    return establishment_update(
        establishment=establishment,
        acting_user=acting_user,
        status=FoodServiceEstablishment.Status.CLOSED,
        closed_on=closed_on or town_today(),
    )


def _device_flags(fields: dict[str, Any], device: GreaseControlDevice) -> list[str]:
    """A4 flags for the device as it will be saved (kept, not refused)."""
    return list(
        a4_flags(
            fields.get("kind", device.kind),
            fields.get("compartments", device.compartments),
            fields.get("manhole_diameter_in", device.manhole_diameter_in),
            ruleset_on(town_today()),
        )
    )


@transaction.atomic
def device_create(*, acting_user, establishments: Iterable = (), **fields) -> GreaseControlDevice:
    """Register a grease control device (A3-A5); A4 breaches are stored as flags."""
    _require_registry_editor(acting_user)
    device = GreaseControlDevice()
    fields["a4_flags"] = _device_flags(fields, device)
    return _save(
        device,
        acting_user=acting_user,
        fields=fields,
        many={"establishments": establishments},
        action="device.create",
    )


@transaction.atomic
def device_update(
    *,
    device: GreaseControlDevice,
    acting_user,
    establishments: Iterable | None = None,
    expected_version: int | None = None,
    **fields,
) -> GreaseControlDevice:
    _require_registry_editor(acting_user)
    fields["a4_flags"] = _device_flags(fields, device)
    many = {} if establishments is None else {"establishments": establishments}
    return _save(
        device,
        acting_user=acting_user,
        fields=fields,
        many=many,
        action="device.update",
        expected_version=expected_version,
    )


@transaction.atomic
def hauler_create(*, acting_user, users: Iterable = (), **fields) -> HaulerCompany:
    _require_registry_editor(acting_user)
    return _save(
        HaulerCompany(), acting_user=acting_user, fields=fields, many={"users": users}, action="hauler.create"
    )


@transaction.atomic
def hauler_update(
    *,
    hauler: HaulerCompany,
    acting_user,
    users: Iterable | None = None,
    expected_version: int | None = None,
    **fields,
) -> HaulerCompany:
    _require_registry_editor(acting_user)
    many = {} if users is None else {"users": users}
    return _save(
        hauler,
        acting_user=acting_user,
        fields=fields,
        many=many,
        action="hauler.update",
        expected_version=expected_version,
    )


@transaction.atomic
def vehicle_create(*, acting_user, hauler: HaulerCompany, **fields) -> HaulerVehicle:
    _require_registry_editor(acting_user)
    return _save(
        HaulerVehicle(hauler=hauler), acting_user=acting_user, fields=fields, action="vehicle.create"
    )


@transaction.atomic
def facility_create(*, acting_user, **fields) -> ReceivingFacility:
    _require_registry_editor(acting_user)
    return _save(ReceivingFacility(), acting_user=acting_user, fields=fields, action="facility.create")


@transaction.atomic
def vehicle_update(
    *, vehicle: HaulerVehicle, acting_user, expected_version: int | None = None, **fields
) -> HaulerVehicle:
    _require_registry_editor(acting_user)
    return _save(
        vehicle,
        acting_user=acting_user,
        fields=fields,
        action="vehicle.update",
        expected_version=expected_version,
    )


@transaction.atomic
def facility_update(*, facility: ReceivingFacility, acting_user, **fields) -> ReceivingFacility:
    _require_registry_editor(acting_user)
    return _save(facility, acting_user=acting_user, fields=fields, action="facility.update")
