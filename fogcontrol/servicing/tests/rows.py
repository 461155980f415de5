"""Rows for the servicing query-count tests: every kind of record the lists show."""

import csv
import io
import itertools
from decimal import Decimal

from django.core.files.uploadedfile import SimpleUploadedFile

from fogcontrol.core.roles import Role
from fogcontrol.servicing import certification
from fogcontrol.servicing.imports import COLUMNS, manifest_import_create, manifest_import_run
from fogcontrol.servicing.services import frequency_request_file, hold_place, manifest_purge, reading_record
from fogcontrol.servicing.tests.helpers import days_ago, submit, town_approves_destruction
from fogcontrol.testing import factories

_days = itertools.count(1)
_numbers = itertools.count(1)


def _import_file(device) -> SimpleUploadedFile:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=[name for name, _, _ in COLUMNS])
    writer.writeheader()
    writer.writerow({
        "device": device.identifier, "manifest_number": f"IMP-{next(_numbers)}",
        "serviced_at": days_ago(2).strftime("%Y-%m-%d %H:%M"), "full_pumpout": "yes", "baffles_cleaned": "yes",
        "fog_depth_in": "4", "solids_depth_in": "3", "gallons_removed": "900", "driver": "Dana Driver",
        "certified_by_name": "Dana Driver", "certification_version": certification.CURRENT_VERSION,
    })  # fmt: skip
    return SimpleUploadedFile("manifests.csv", out.getvalue().encode("utf-8"), content_type="text/csv")


def add_servicing_rows(town, count: int) -> None:
    """`count` more devices of the town's own FSE (its user and its hauler see them), each with a
    manifest whose baffles were not cleaned (a flag, F2), an over-limit reading (E3, opening its
    requirements), a frequency request (E5), a manifest import, and an old manifest purged under a
    retention approval (F5); and `count` more manifests and litigation holds on the FSE's own
    device, whose history and holds list grow with them."""
    manager, hauler, fse = (town.users[role] for role in (Role.FOG_MANAGER, Role.HAULER, Role.FSE))
    for _ in range(count):
        device = factories.DeviceFactory(establishments=[town.own_fse], parcel=town.own_fse.parcel)
        old = submit(hauler, device, serviced_at=days_ago(800 + next(_days)))
        submit(hauler, device, serviced_at=days_ago(next(_days)), baffles_cleaned=False)
        reading_record(device=device, acting_user=manager, taken_on=days_ago(0).date(),
                       fog_depth_in=Decimal("9"), solids_depth_in=Decimal("5"), source="inspection")  # fmt: skip
        frequency_request_file(
            device=device, acting_user=fse, requested_days=120, justification="Clean kitchen"
        )
        record = manifest_import_create(acting_user=hauler, upload=_import_file(device), dry_run=False)
        manifest_import_run(import_id=record.pk)
        town_approves_destruction(manager)
        manifest_purge(manifest=old, acting_user=manager, reason="F5 retention ended")
        submit(hauler, town.own_device, serviced_at=days_ago(15 * next(_days)))
        hold_place(device=town.own_device, acting_user=manager, reason=f"Claim {next(_numbers)}")
