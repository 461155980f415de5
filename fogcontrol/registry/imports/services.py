"""Every write of a licence import: upload, mapping, dry run, apply.

The import record itself (the kept file, the mapping, who uploaded and who applied, when, and
both reports) is the log of the import; the establishments it creates or changes are written by
the registry services, each with its audit entry (A1). Nothing is written for unchanged rows.

Who: program staff who may edit the registry upload and run dry runs; only the FOG Manager
applies an import to the registry. Commands act under a label (a string) and are trusted.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils import timezone

from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.core.queue import enqueue_on_commit
from fogcontrol.core.roles import REGISTRY_EDITORS, Role
from fogcontrol.registry.imports.keeping import save_with_file
from fogcontrol.registry.imports.mapping import clean_mapping, propose_mapping
from fogcontrol.registry.imports.reading import FileFacts, check_upload, open_rows
from fogcontrol.registry.imports.runner import run_import
from fogcontrol.registry.models import LicenceImport

logger = logging.getLogger(__name__)


class ImportStateError(StateConflict):
    """The import's state forbids the step (the API answers 409, pages show the reason)."""


def _require_importer(acting_user) -> None:
    require_role(
        acting_user, REGISTRY_EDITORS, "Only the FOG Manager and inspectors may import licence records."
    )


def _require_fog_manager(acting_user) -> None:
    require_role(acting_user, [Role.FOG_MANAGER], "Only the FOG Manager may apply an import to the registry.")


def _read_upload(uploaded_file: UploadedFile) -> tuple[str, str, FileFacts]:
    """(name, format, facts) of an upload, or ValidationError on "file". Runs outside any
    transaction: reading a workbook may take seconds, and must not hold the write lock."""
    name = uploaded_file.name or ""
    uploaded_file.seek(0)
    head = uploaded_file.read(8)
    uploaded_file.seek(0)
    file_format = check_upload(
        name=name,
        content_type=getattr(uploaded_file, "content_type", "") or "",
        size=uploaded_file.size or 0,
        head=head,
        max_bytes=settings.FOGCONTROL_MAX_UPLOAD_BYTES,
    )
    try:
        with open_rows(
            uploaded_file, file_format, deadline_seconds=settings.FOGCONTROL_UPLOAD_READ_SECONDS
        ) as (facts, rows):
            if facts.file_format == "xlsx" and facts.declared_rows is None:
                # The sheet does not declare its size: count its rows now (within the deadline;
                # past the row limit the reader refuses the file), not in the worker later.
                for _row in rows:
                    pass
    except ValidationError:
        raise
    except Exception as error:  # a broken file says so; it never ends in a server error
        logger.info("Unreadable licence export %r: %s", name, error)
        raise ValidationError(
            {"file": f"The file cannot be read ({error}). Export it again as .csv or .xlsx."}
        ) from None
    if not any(not header.startswith("Column ") for header in facts.headers):
        raise ValidationError(
            {"file": "The first row must name the columns; this file's first row is empty."}
        )
    uploaded_file.seek(0)
    return name, file_format, facts


def _new_import(acting_user, uploaded_file, name: str, file_format: str, facts: FileFacts, mapping: dict):
    return LicenceImport(
        original_filename=name[:255],
        file_format=file_format,
        file_size=uploaded_file.size,
        encoding=facts.encoding,
        delimiter=facts.delimiter,
        headers=list(facts.headers),
        mapping=mapping,
        uploaded_by=person(acting_user),
        uploaded_by_label=actor_label_for(acting_user),
    )


def _stored_name(name: str) -> str:
    return name.replace("/", "_")[-100:]


def licence_import_upload(*, acting_user, uploaded_file: UploadedFile) -> LicenceImport:
    """Keep the uploaded export, read its header row, and propose a column mapping.

    Not one transaction around it all: the file is read and stored first, without the write
    lock, and the import row is then inserted in a short transaction (see keeping.py). A refused
    file leaves nothing behind."""
    _require_importer(acting_user)
    name, file_format, facts = _read_upload(uploaded_file)
    mapping = propose_mapping(list(facts.headers))
    licence_import = _new_import(acting_user, uploaded_file, name, file_format, facts, mapping)
    save_with_file(licence_import, field="file", name=_stored_name(name), content=uploaded_file)
    return licence_import


def _unrecognised_columns(headers: list[str]) -> ValidationError:
    shown = ", ".join(f'"{header}"' for header in headers[:8]) + (", …" if len(headers) > 8 else "")
    return ValidationError(
        {
            "file": "None of the columns of the file's first row looks like a licence number or a "
            f"business name (it reads: {shown}). Check that this is the licence export; if it is, "
            'give the mapping: {"licence_number": "…", "business_name": "…"}.'
        }
    )


def licence_import_upload_and_start(
    *, acting_user, uploaded_file: UploadedFile, mapping: dict | None, apply: bool
) -> LicenceImport:
    """Upload, map (the mapping given, else the proposed one) and queue the run, in one call (the
    API). Everything is checked before the file is kept, so a refused request leaves no import
    and no file behind."""
    if apply:
        _require_fog_manager(acting_user)
    else:
        _require_importer(acting_user)
    name, file_format, facts = _read_upload(uploaded_file)
    headers = list(facts.headers)
    if mapping is None:
        mapping = propose_mapping(headers)
        if not mapping:
            raise _unrecognised_columns(headers)
    mapping = clean_mapping(mapping, headers)
    licence_import = _new_import(acting_user, uploaded_file, name, file_format, facts, mapping)

    def start(saved: LicenceImport) -> None:
        licence_import_start(licence_import=saved, acting_user=acting_user, apply=apply)

    save_with_file(licence_import, field="file", name=_stored_name(name), content=uploaded_file, then=start)
    licence_import.refresh_from_db()
    return licence_import


@transaction.atomic
def licence_import_set_mapping(*, licence_import: LicenceImport, acting_user, mapping: dict) -> LicenceImport:
    """Change the column mapping (before the import is applied)."""
    _require_importer(acting_user)
    licence_import = LicenceImport.objects.select_for_update().get(pk=licence_import.pk)
    if licence_import.is_running:
        raise ImportStateError("The import is running: wait for it to finish before changing the mapping.")
    if licence_import.status == LicenceImport.Status.APPLIED:
        raise ImportStateError("The import has been applied; upload the file again to import it differently.")
    licence_import.mapping = clean_mapping(mapping, licence_import.headers)
    licence_import.status = LicenceImport.Status.MAPPING
    licence_import.save(update_fields=["mapping", "status"])
    return licence_import


@transaction.atomic
def licence_import_start(*, licence_import: LicenceImport, acting_user, apply: bool) -> LicenceImport:
    """Queue a dry run, or the real run (FOG Manager only), as a background task."""
    if apply:
        _require_fog_manager(acting_user)
    else:
        _require_importer(acting_user)
    licence_import = LicenceImport.objects.select_for_update().get(pk=licence_import.pk)
    if licence_import.is_running:
        raise ImportStateError("The import is already running.")
    if licence_import.status == LicenceImport.Status.APPLIED:
        raise ImportStateError("The import has already been applied; upload the file again to re-import it.")
    clean_mapping(licence_import.mapping, licence_import.headers)
    licence_import.status = LicenceImport.Status.QUEUED
    licence_import.running_dry = not apply
    licence_import.rows_read = 0
    licence_import.error = ""
    licence_import.save(update_fields=["status", "running_dry", "rows_read", "error"])

    enqueue_on_commit(
        "fogcontrol.registry.imports.tasks.run_licence_import",
        licence_import_id=licence_import.pk,
        apply=apply,
        acting_user_id=getattr(person(acting_user), "pk", None),
        acting_label=actor_label_for(acting_user),
    )
    return licence_import


def licence_import_run(*, licence_import: LicenceImport, acting_user, apply: bool) -> LicenceImport:
    """Run the import now (the task and the command call this). Not one transaction: each
    establishment is saved in its own, and progress is visible while it runs. A run stopped
    half-way may simply be run again: rows already applied are then unchanged."""
    if apply:
        _require_fog_manager(acting_user)
    else:
        _require_importer(acting_user)
    if licence_import.status == LicenceImport.Status.APPLIED:
        raise ImportStateError("The import has already been applied; upload the file again to re-import it.")
    clean_mapping(licence_import.mapping, licence_import.headers)
    LicenceImport.objects.filter(pk=licence_import.pk).update(
        status=LicenceImport.Status.RUNNING, running_dry=not apply, rows_read=0, error=""
    )

    def progress(rows_read: int) -> None:
        LicenceImport.objects.filter(pk=licence_import.pk).update(rows_read=rows_read)

    try:
        counts = run_import(
            licence_import=licence_import, apply=apply, acting_user=acting_user, on_progress=progress
        )
    except Exception as error:
        logger.exception("Licence import %s failed", licence_import.pk)
        message = error.messages[0] if isinstance(error, ValidationError) else str(error)
        LicenceImport.objects.filter(pk=licence_import.pk).update(
            status=LicenceImport.Status.FAILED, error=f"The import stopped: {message}"
        )
        licence_import.refresh_from_db()
        return licence_import
    now = timezone.now()
    licence_import.refresh_from_db()
    licence_import.rows_read = counts["rows"]
    if apply:
        licence_import.applied_counts = counts
        licence_import.applied_at = now
        licence_import.applied_by = person(acting_user)
        licence_import.applied_by_label = actor_label_for(acting_user)
        licence_import.status = LicenceImport.Status.APPLIED
    else:
        licence_import.dry_run_counts = counts
        licence_import.dry_run_at = now
        licence_import.status = LicenceImport.Status.CHECKED
    licence_import.save()
    return licence_import
