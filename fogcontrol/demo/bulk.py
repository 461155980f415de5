"""Writing the demo's hundreds of registry rows in bulk, with the same audit trail as the services.

The registry services write one record per call (validate, save, audit): about ten queries a
record, some 13 s for a 300-FSE town. The demo's parties, parcels, establishments and devices are
checked here instead (field validation, the A4 flags from the rules engine as
``fogcontrol.registry.services.device_create`` computes them), saved with ``bulk_create``, and
given one audit entry each with the services' action names and after-snapshots. Haulers,
vehicles, facilities, the profile and the calendar, which are few, go through the services.

A program at scale (``fogcontrol bench generate``, 100,000 FSEs) is written a chunk of sites at a
time (``RegistryBatch.flush``), so that memory stays flat in the size of the town (issue 16).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterable, Sequence

from django.db import models
from django.db.models import prefetch_related_objects

from fogcontrol.audit.models import AuditEntry
from fogcontrol.audit.services import audit_entry_values, audit_records_bulk, snapshot
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
    spool: AuditSpool | None = None,
) -> list[models.Model]:
    """Validate, insert and audit ``instances`` of ``model``.

    ``many`` maps a many-to-many field name to {index in ``instances``: related objects}; the
    links are inserted in bulk and appear in the audit snapshot, as with ``.set()`` in a service.
    With a ``spool``, the audit entries are held there, to be written later (``AuditSpool``).
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
    changes = [(instance, None, snapshot(instance)) for instance in created]
    if spool is None:
        audit_records_bulk(acting_user=acting_user, action=action, changes=changes)
    else:
        spool.add(audit_entry_values(acting_user=acting_user, action=action, changes=changes))
    return created


class AuditSpool:
    """Audit entries held back in a temporary file (one JSON object a line), then written in the
    order they came, 500 a statement as ``audit_records_bulk`` writes them.

    The registry is written a chunk at a time, but its entries keep the order of one write (every
    party's, then every parcel's, FSE's and device's), so that a town's audit ids do not depend on
    the chunk size; holding them in memory instead would hold every snapshot of the town."""

    def __init__(self):
        self.file = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 (closed by write)

    def add(self, rows: Iterable[dict]) -> None:
        self.file.writelines(json.dumps(row) + "\n" for row in rows)

    def write(self, batch_size: int = 500) -> None:
        self.file.seek(0)
        entries: list[AuditEntry] = []
        for line in self.file:
            entries.append(AuditEntry(**json.loads(line)))
            if len(entries) == batch_size:
                AuditEntry.objects.bulk_create(entries)
                entries = []
        if entries:
            AuditEntry.objects.bulk_create(entries)
        self.file.close()


class RegistryBatch:
    """The registry rows of the demo, made in memory in draw order, then written in bulk a chunk at
    a time (``flush``; ``finish`` at the end).

    Each table gets its rows in draw order whatever the chunks, so the ids are those of one write;
    the parties' audit entries are written with each chunk, the others' are spooled
    (``AuditSpool``) and written by ``finish``, in the order of one write. With ``keep`` the rows
    written stay in ``written`` (the demo's seeders use them); without, a chunk is let go once
    written, and memory stays flat in the size of the town (issue 16)."""

    def __init__(self, *, keep: bool = True):
        self.keep = keep
        self.chunks = 0
        self.written: dict[type[models.Model], list] = {
            Party: [],
            Parcel: [],
            FoodServiceEstablishment: [],
            GreaseControlDevice: [],
        }
        self.spools = {
            model: AuditSpool() for model in (Parcel, FoodServiceEstablishment, GreaseControlDevice)
        }
        self._start_chunk()

    def _start_chunk(self) -> None:
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

    def flush(self) -> None:
        """Write the rows made since the last flush, parents before children, so that every
        foreign key has its id."""
        create_all(Party, self.parties, action="party.create", acting_user=ACTING)
        create_all(
            Parcel,
            self.parcels,
            action="parcel.create",
            acting_user=ACTING,
            many={"owner_users": self.parcel_owner_users},
            spool=self.spools[Parcel],
        )
        create_all(
            FoodServiceEstablishment,
            self.establishments,
            action="establishment.create",
            acting_user=ACTING,
            many={"users": self.establishment_users, "haulers": self.establishment_haulers},
            spool=self.spools[FoodServiceEstablishment],
        )
        create_all(
            GreaseControlDevice,
            self.devices,
            action="device.create",
            acting_user=ACTING,
            many={"establishments": self.device_establishments},
            spool=self.spools[GreaseControlDevice],
        )
        if self.keep:
            for model, rows in (
                (Party, self.parties),
                (Parcel, self.parcels),
                (FoodServiceEstablishment, self.establishments),
                (GreaseControlDevice, self.devices),
            ):
                self.written[model].extend(rows)
        self.chunks += 1
        self._start_chunk()

    def finish(self) -> None:
        """The last chunk, then the audit entries held back, model after model."""
        self.flush()
        for spool in self.spools.values():
            spool.write()
