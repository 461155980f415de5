"""Every write of an import of the State's files: keep the file, dry run, apply.

The import record (the kept file, who and when, both reports' counts, one report row per input row)
is the log of the import; spills and agencies are written set-based with their audit entries (one
INSERT a batch). Town staff who record spills upload and dry-run; only the FOG Manager applies.
A command acts under a job label and is trusted. The run is synchronous: the State's yearly files
are a few thousand rows (the 5,791-row PLSD file takes seconds)."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.registry.imports.keeping import save_with_file
from fogcontrol.registry.imports.reading import check_upload, open_rows
from fogcontrol.spills.imports.ciwqs import file_kind
from fogcontrol.spills.imports.runner import run_import
from fogcontrol.spills.models import SpillImport
from fogcontrol.spills.roles import IMPORT_APPLIERS, SPILL_RECORDERS


def _read(uploaded_file) -> tuple[str, str]:
    """(name, kind) of an upload, or a 400 on "file" naming the fix."""
    name = getattr(uploaded_file, "name", "") or ""
    uploaded_file.seek(0)
    head = uploaded_file.read(8)
    uploaded_file.seek(0)
    check_upload(
        name=name if name.lower().endswith((".txt", ".csv")) else f"{name}.txt",
        content_type=getattr(uploaded_file, "content_type", "") or "",
        size=uploaded_file.size or 0,
        head=head,
        max_bytes=settings.FOGCONTROL_MAX_UPLOAD_BYTES,
    )
    try:
        with open_rows(uploaded_file, "csv") as (facts, _rows):
            kind = file_kind(facts.headers)
    except ValidationError:
        raise
    except Exception as error:  # a broken file says so; it never ends in a server error
        raise ValidationError(
            {
                "file": f"The file cannot be read ({error}). Export it again from CIWQS as a tab-separated .txt."
            }
        ) from None
    if kind is None:
        raise ValidationError(
            {"file": "This is not a State CIWQS file: its first row should name SPILL_ID, SPILL_VOL, START_DT "
                     "and SPILL_CAUSE (spills) or WDID, Agency and Collection System (the agency register)."}
        )  # fmt: skip
    uploaded_file.seek(0)
    return name, kind


def _sha256(uploaded_file) -> str:
    digest = hashlib.sha256()
    uploaded_file.seek(0)
    for chunk in iter(lambda: uploaded_file.read(1024 * 1024), b""):
        digest.update(chunk)
    uploaded_file.seek(0)
    return digest.hexdigest()


def spill_import_upload(*, acting_user, uploaded_file, agency_wdid: str = "") -> SpillImport:
    """Keep the State's file and run the dry run: the report of what applying would do, row by row."""
    require_role(
        acting_user, SPILL_RECORDERS, "Only the FOG Manager and inspectors import the State's spill files."
    )
    agency_wdid = (agency_wdid or "").strip().upper()
    if len(agency_wdid) > 20:
        raise ValidationError({"agency": "A WDID has at most 20 characters, as 2SSO10114."})
    name, kind = _read(uploaded_file)
    spill_import = SpillImport(
        kind=kind,
        original_filename=name[:255],
        sha256=_sha256(uploaded_file),
        agency_wdid=agency_wdid,
        uploaded_by=person(acting_user),
        uploaded_by_label=actor_label_for(acting_user),
    )
    save_with_file(
        spill_import, field="file", name=name.replace("/", "_")[-100:] or "ciwqs.txt", content=uploaded_file
    )
    counts = run_import(spill_import=spill_import, apply=False, acting_user=acting_user)
    SpillImport.objects.filter(pk=spill_import.pk).update(dry_run_counts=counts)
    spill_import.dry_run_counts = counts
    return spill_import


def spill_import_apply(*, spill_import: SpillImport, acting_user) -> SpillImport:
    """Apply a checked import (FOG Manager): the same rows the dry run reported, written. Once."""
    require_role(acting_user, IMPORT_APPLIERS, "Only the FOG Manager applies an import of the State's files.")
    with transaction.atomic():
        claimed = SpillImport.objects.filter(pk=spill_import.pk, status=SpillImport.Status.CHECKED).update(
            status=SpillImport.Status.APPLIED, applied_at=timezone.now()
        )
    if not claimed:
        raise StateConflict("This import has already been applied; upload the file again to re-import it.")
    counts = run_import(spill_import=spill_import, apply=True, acting_user=acting_user)
    SpillImport.objects.filter(pk=spill_import.pk).update(applied_counts=counts)
    spill_import.refresh_from_db()
    return spill_import
