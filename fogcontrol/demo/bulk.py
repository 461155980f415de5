"""Writing the demo's hundreds of registry rows in bulk, with the same audit trail as the services.

The registry services write one record per call (validate, save, audit): about ten queries a
record, some 13 s for a 300-FSE town. The demo's parties, parcels, establishments and devices are
checked here instead (field validation, the A4 flags from the rules engine as
``fogcontrol.registry.services.device_create`` computes them), saved with ``bulk_create``, and
given one audit entry each with the services' action names and after-snapshots. Haulers,
vehicles, facilities, the profile and the calendar, which are few, go through the services.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import models
from django.db.models import prefetch_related_objects

from fogcontrol.audit.services import audit_records_bulk, snapshot
from fogcontrol.demo.users import ACTING
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice, Parcel, Party
from fogcontrol.rules.ruleset import Ruleset
from fogcontrol.rules.sizing import a4_flags


def check_fields(instances: Iterable[models.Model]) -> None:
    """Field validation (lengths, choices, email and number formats), as ``full_clean`` does it.

    Foreign keys and uniqueness are left out: each would cost a query per row, and the demo
    links only rows it has just made and draws every unique value from a set of its own.
    """
    for instance in instances:
        exclude = [field.name for field in instance._meta.concrete_fields if field.is_relation]
        instance.clean_fields(exclude=exclude)


def create_all(
    model: type[models.Model],
    instances: Sequence[models.Model],
    *,
    action: str,
    acting_user,
    many: dict[str, dict[int, list]] | None = None,
) -> list[models.Model]:
    """Validate, insert and audit ``instances`` of ``model``.

    ``many`` maps a many-to-many field name to {index in ``instances``: related objects}; the
    links are inserted in bulk and appear in the audit snapshot, as with ``.set()`` in a service.
    """
    instances = list(instances)
    check_fields(instances)
    created = model.objects.bulk_create(instances, batch_size=500)
    for name, links in (many or {}).items():
        field = model._meta.get_field(name)
        through = field.remote_field.through
        source = field.m2m_field_name()
        target = field.m2m_reverse_field_name()
        rows = [
            through(**{f"{source}_id": created[index].pk, f"{target}_id": related.pk})
            for index, related_list in links.items()
            for related in related_list
        ]
        through.objects.bulk_create(rows, batch_size=500)
    relations = [field.name for field in model._meta.many_to_many]
    if relations:
        # One query per relation fills the caches `snapshot` reads, instead of one per row.
        prefetch_related_objects(created, *relations)
    audit_records_bulk(
        acting_user=acting_user,
        action=action,
        changes=[(instance, None, snapshot(instance)) for instance in created],
    )
    return created


class RegistryBatch:
    """The registry rows of the demo, made in memory in order, then written in bulk ."""

    def __init__(self):
        self.parties: list[Party] = []
        self.parcels: list[Parcel] = []
        self.parcel_owner_users: dict[int, list] = {}
        self.establishments: list[FoodServiceEstablishment] = []
        self.establishment_users: dict[int, list] = {}
        self.establishment_haulers: dict[int, list] = {}
        self.devices: list[GreaseControlDevice] = []
        self.device_establishments: dict[int, list] = {}

    def party(self, **fields) -> Party:
        party = Party(**fields)
        self.parties.append(party)
        return party

    def parcel(self, *, owner_users=(), **fields) -> Parcel:
        parcel = Parcel(**fields)
        if owner_users:
            self.parcel_owner_users[len(self.parcels)] = list(owner_users)
        self.parcels.append(parcel)
        return parcel

    def establishment(self, *, users=(), haulers=(), **fields) -> FoodServiceEstablishment:
        fse = FoodServiceEstablishment(**fields)
        index = len(self.establishments)
        if users:
            self.establishment_users[index] = list(users)
        if haulers:
            self.establishment_haulers[index] = list(haulers)
        self.establishments.append(fse)
        return fse

    def device(self, *, establishments, ruleset: Ruleset, **fields) -> GreaseControlDevice:
        # A4 flags as fogcontrol.registry.services.device_create stores them: kept, not refused.
        fields["a4_flags"] = list(
            a4_flags(fields["kind"], fields.get("compartments"), fields.get("manhole_diameter_in"), ruleset)
        )
        device = GreaseControlDevice(**fields)
        self.device_establishments[len(self.devices)] = list(establishments)
        self.devices.append(device)
        return device

    def write(self) -> None:
        """Parents before children, so that every foreign key has its id."""
        create_all(Party, self.parties, action="party.create", acting_user=ACTING)
        create_all(
            Parcel,
            self.parcels,
            action="parcel.create",
            acting_user=ACTING,
            many={"owner_users": self.parcel_owner_users},
        )
        create_all(
            FoodServiceEstablishment,
            self.establishments,
            action="establishment.create",
            acting_user=ACTING,
            many={"users": self.establishment_users, "haulers": self.establishment_haulers},
        )
        create_all(
            GreaseControlDevice,
            self.devices,
            action="device.create",
            acting_user=ACTING,
            many={"establishments": self.device_establishments},
        )
