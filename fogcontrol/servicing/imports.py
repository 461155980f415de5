"""CSV upload of manifests: a documented column layout, a dry run, and a report on every row.

The file is read by the licence import's reader (`registry/imports/reading.py`): UTF-8, UTF-16,
Windows-1252 or Latin-1, the delimiter from the header line, binary files refused. It is read as
a stream, one row at a time (a 100,000-row file is never in memory at once);
each chunk of rows goes through the set-based ingest (``services/ingest.py``: the same rules as
``manifest_submit``, a fixed number of queries a chunk), each row accepted or refused on its own,
so a bad row never loses the good ones. The report is written to a file as rows are
read; rejected rows are also stored (in batches) for the report page.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import itertools
import tempfile
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files import File
from django.db import transaction
from django.utils import timezone, translation
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core import csv_export
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.permissions import require_role
from fogcontrol.core.queue import enqueue_on_commit
from fogcontrol.registry.imports.keeping import save_with_file
from fogcontrol.registry.imports.reading import MAX_HEADER_CHARS, csv_error_message, open_text
from fogcontrol.servicing import certification, import_resume
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.models import Manifest, ManifestImport, ManifestImportProblem
from fogcontrol.servicing.permissions import MANIFEST_SUBMITTERS
from fogcontrol.servicing.services.ingest import IngestRow, manifests_ingest
from fogcontrol.servicing.services.manifest_validation import ManifestSubmission, manifest_validate
from fogcontrol.servicing.services.manifests import manifest_submit

# (column, required, what to put in it), the descriptions in the page's language. The order is the
# template's; any order is accepted.
COLUMNS: tuple[tuple[str, bool, str], ...] = (
    ("device", True, _("The Town's device number from the lid tag or permit, e.g. GI-00042.")),
    ("manifest_number", True, _("Your manifest or ticket number; unique for your company.")),
    (
        "serviced_at",
        True,
        _("Date and time of service in the Town's time: 2025-03-14 09:30 (or 03/14/2025 09:30)."),
    ),
    ("full_pumpout", True, _("yes if all FOG, liquids and solids were removed (E7); no otherwise.")),
    ("baffles_cleaned", True, _("yes if the baffles were removed and cleaned (E7).")),
    ("fog_depth_in", False, _("FOG depth before pumping, inches (e.g. 3.5).")),
    ("solids_depth_in", False, _("Solids depth before pumping, inches.")),
    ("gallons_removed", False, _("Gallons pumped out.")),
    ("driver", False, _("Driver's name.")),
    ("vehicle", False, _("Vehicle licence plate.")),
    ("receiving_facility", False, _("Registered name of the facility that received the material.")),
    ("delivered_on", False, _("Date delivered to the receiving facility: 2025-03-14.")),
    ("leak_observed", False, _("yes or no.")),
    ("damaged_baffles", False, _("yes or no.")),
    ("damaged_tees", False, _("yes or no (sanitary tees).")),
    ("condition_notes", False, _("Anything else about the device's condition.")),
    ("establishment", False, _("Business licence number of the FSE served, when the device serves several.")),
    (
        "hauler",
        False,
        _(
            "Haulers leave this blank (their own company is used). FSEs and owners: a hauler on the "
            "establishment's list, or who did the work if not a registered company (self / other)."
        ),
    ),
    ("certified_by_name", True, _("Typed name of the person certifying the manifest (the signature).")),
    (
        "certification_version",
        True,
        format_lazy(
            _("The certification text's version, currently {version}."), version=certification.CURRENT_VERSION
        ),
    ),
)
REQUIRED = tuple(name for name, required, _ in COLUMNS if required)
KNOWN = {name for name, _, _ in COLUMNS}
TRUE = {"yes", "y", "true", "1", "x", "sí", "si"}  # "sí": the Spanish descriptions say it
FALSE = {"no", "n", "false", "0", ""}
DATETIME_FORMATS = (
    "%Y-%m-%d %H:%M",
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%dT%H:%M",
    "%Y-%m-%dT%H:%M:%S",
    "%m/%d/%Y %H:%M",
)


# Rows written in one transaction (memory stays bounded: a chunk is this many rows).
ROWS_PER_TRANSACTION = 500
# The key under which a row csv could not read carries the reason (not a column name).
UNREADABLE = "__unreadable__"


def template_csv() -> str:
    """The header row and one example row: the documented layout, downloadable from the page."""
    out = io.StringIO()
    writer = csv_export.writer(out)
    writer.writerow([name for name, _, _ in COLUMNS])
    writer.writerow(
        [
            "GI-00042",
            "T-100234",
            "2025-03-14 09:30",
            "yes",
            "yes",
            "3.5",
            "6",
            "950",
            "Dana Ruiz",
            "8ABC123",
            "Regional Digester",
            "2025-03-14",
            "no",
            "no",
            "no",
            "",
            "",
            "",
            "Dana Ruiz",
            certification.CURRENT_VERSION,
        ]
    )
    return out.getvalue()


# --- parsing -----------------------------------------------------------------------------------


def _bool(value: str, column: str, errors: dict, *, required: bool = False) -> bool:
    text = (value or "").strip().lower()
    if required and not text:
        errors[column] = ["Required: yes or no."]
        return False
    if text in TRUE:
        return True
    if text in FALSE:
        return False
    errors[column] = [f"{value!r} is not yes or no."]
    return False


def _decimal(value: str, column: str, errors: dict) -> Decimal | None:
    text = (value or "").strip()
    if not text:
        return None
    try:
        number = Decimal(text.replace(",", ""))
    except InvalidOperation:
        errors[column] = [f"{value!r} is not a number; write it like 3.5."]
        return None
    if not number.is_finite():
        errors[column] = [f"{value!r} is not a number; write it like 3.5."]
        return None
    return number


def _datetime(value: str, column: str, errors: dict, ctx: ProgramContext) -> dt.datetime | None:
    text = (value or "").strip()
    if not text:
        errors[column] = ["Required: the date and time of service, e.g. 2025-03-14 09:30."]
        return None
    try:
        moment = dt.datetime.fromisoformat(text)
    except ValueError:
        moment = None
        for fmt in DATETIME_FORMATS:
            try:
                moment = dt.datetime.strptime(text, fmt)
                break
            except ValueError:
                continue
    if moment is None:
        errors[column] = [f"{value!r} is not a date and time; write it like 2025-03-14 09:30."]
        return None
    return moment.replace(tzinfo=ctx.zone()) if timezone.is_naive(moment) else moment


def _date(value: str, column: str, errors: dict) -> dt.date | None:
    text = (value or "").strip()
    if not text:
        return None
    for parse in (dt.date.fromisoformat, lambda t: dt.datetime.strptime(t, "%m/%d/%Y").date()):
        try:
            return parse(text)
        except ValueError:
            continue
    errors[column] = [f"{value!r} is not a date; write it like 2025-03-14."]
    return None


def parse_row(row: dict, ctx: ProgramContext) -> tuple[ManifestSubmission | None, dict[str, list[str]]]:
    """One CSV row to a submission, or the reasons it cannot be read."""
    errors: dict[str, list[str]] = {}
    get = lambda name: (row.get(name) or "").strip()  # noqa: E731 - a one-line accessor
    for name in REQUIRED:
        if name not in ("full_pumpout", "baffles_cleaned", "serviced_at") and not get(name):
            errors[name] = ["Required; this cell is empty."]
    submission = ManifestSubmission(
        device=get("device"),
        manifest_number=get("manifest_number"),
        serviced_at=_datetime(get("serviced_at"), "serviced_at", errors, ctx),
        full_pumpout=_bool(get("full_pumpout"), "full_pumpout", errors, required=True),
        baffles_cleaned=_bool(get("baffles_cleaned"), "baffles_cleaned", errors, required=True),
        certified_by_name=get("certified_by_name"),
        certification_version=get("certification_version"),
        establishment=get("establishment") or None,
        hauler=get("hauler") or None,
        driver_name=get("driver"),
        vehicle_plate=get("vehicle"),
        fog_depth_in=_decimal(get("fog_depth_in"), "fog_depth_in", errors),
        solids_depth_in=_decimal(get("solids_depth_in"), "solids_depth_in", errors),
        gallons_removed=_decimal(get("gallons_removed"), "gallons_removed", errors),
        leak_observed=_bool(get("leak_observed"), "leak_observed", errors),
        damaged_baffles=_bool(get("damaged_baffles"), "damaged_baffles", errors),
        damaged_tees=_bool(get("damaged_tees"), "damaged_tees", errors),
        condition_notes=get("condition_notes"),
        receiving_facility=get("receiving_facility") or None,
        delivered_on=_date(get("delivered_on"), "delivered_on", errors),
    )
    return (None if errors else submission), errors


def _header_problem(fieldnames: list[str] | None) -> str:
    if not fieldnames:
        return "The file is empty: the first line must be the header row (download the template)."
    names = [(name or "").strip() for name in fieldnames]
    missing = [name for name in REQUIRED if name not in names]
    if missing:
        return (
            f"The header row lacks the column(s): {', '.join(missing)}. The first line must name the columns "
            "exactly as in the template."
        )
    return ""


# --- upload ------------------------------------------------------------------------------------


def _read_header(upload) -> None:
    """Check that the upload is a text CSV whose first line names the required columns; raise
    ValidationError on "file" saying what to do. Reads the file (a streaming pass to find its
    encoding), so it runs outside any transaction."""
    with open_text(upload) as (_encoding, delimiter, text):
        header_line = text.readline(MAX_HEADER_CHARS)
    try:
        header = next(csv.reader([header_line], delimiter=delimiter), None) if header_line.strip() else None
    except csv.Error as error:
        raise ValidationError(
            {"file": f"The header row cannot be read: {csv_error_message(error)}"}
        ) from None
    problem = _header_problem(header)
    if problem:
        raise ValidationError({"file": problem})


def manifest_import_create(*, acting_user, upload, dry_run: bool) -> ManifestImport:
    """Accept an uploaded CSV (checked: size, name, text, header) and keep it for processing.

    The file is read, checked and stored outside any transaction (SQLite's one write lock is never
    held across file I/O); the import row and its audit entry are then written in one short
    transaction, and the stored file is deleted if that fails. Callers must not wrap this call in
    a transaction of their own (see registry/imports/keeping.py)."""
    require_role(acting_user, MANIFEST_SUBMITTERS, "Your role may not submit manifests.")
    limit = settings.FOGCONTROL_MAX_UPLOAD_BYTES
    if upload is None:
        raise ValidationError({"file": "Choose the CSV file to upload."})
    if upload.size > limit:
        raise ValidationError(
            {"file": f"The file is larger than {limit // (1024 * 1024)} MB; split it into smaller files."}
        )
    if not upload.name.lower().endswith(".csv"):
        raise ValidationError({"file": "Upload a .csv file (save the spreadsheet as CSV UTF-8)."})
    if not upload.size:
        raise ValidationError({"file": _header_problem(None)})
    _read_header(upload)
    upload.seek(0)
    record = ManifestImport(
        uploaded_by=person(acting_user),
        uploaded_by_label=actor_label_for(acting_user),
        original_name=upload.name[:255],
        size_bytes=upload.size,
        dry_run=dry_run,
    )

    def audit(saved: ManifestImport) -> None:
        audit_record(
            acting_user=acting_user, action="manifest_import.upload", instance=saved, after=snapshot(saved)
        )

    save_with_file(record, field="file", name=upload.name, content=upload, then=audit)
    return record


def manifest_import_enqueue(record: ManifestImport) -> None:
    """Queue the processing once the upload is committed (the worker must see the row)."""
    enqueue_on_commit("fogcontrol.servicing.tasks.run_manifest_import", record.pk)


# --- processing --------------------------------------------------------------------------------


def _messages(errors: dict[str, list[str]]) -> list[tuple[str, str]]:
    return [
        (field if field != "__all__" else "", message)
        for field, messages in errors.items()
        for message in messages
    ]


def manifest_import_run(*, import_id: int) -> ManifestImport:
    """Process an import: every row read, checked and (unless a dry run) submitted, a chunk at a
    time. An import left running by a worker that died goes on from its saved progress when its
    job is run again (servicing/import_resume.py); one done or failed is left as it is."""
    record = ManifestImport.objects.select_related("uploaded_by").get(pk=import_id)
    if record.status not in (ManifestImport.Status.QUEUED, ManifestImport.Status.RUNNING):
        return record  # already run: a retried task must not submit the rows twice
    with transaction.atomic():
        skip = import_resume.restart_point(record) if record.status == ManifestImport.Status.RUNNING else 0
        record.status = ManifestImport.Status.RUNNING
        record.started_at = record.started_at or timezone.now()
        record.save(update_fields=["status", "started_at"])
    try:
        _process(record, skip=skip)
    except import_resume.ImportRunOverlap:
        raise  # another run of it goes on: this one leaves the record to it
    except Exception as exc:  # the file as a whole could not be read: say so on the report page
        record.status = ManifestImport.Status.FAILED
        record.error = f"The file could not be processed: {exc}"
        record.finished_at = timezone.now()
        record.save(
            update_fields=["status", "error", "finished_at", "rows_total", "rows_accepted", "rows_rejected"]
        )
        raise
    return record


def _process(record: ManifestImport, *, skip: int = 0) -> None:
    # Its problems and report are the English of record, whoever runs it (a worker, or a request in
    # Spanish when run inline): the import's page shows them in its reader's language
    # (servicing/refusals.py).
    with translation.override("en"):
        _process_rows(record, skip=skip)


def _process_rows(record: ManifestImport, *, skip: int) -> None:
    # The rows are submitted by whoever uploaded the file: a user, or the job that did.
    user = record.uploaded_by or record.uploaded_by_label
    ctx = ProgramContext()
    device_cache: dict = {}
    seen: set | None = set() if record.dry_run else None
    problems: list[ManifestImportProblem] = []
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8", newline="") as report_file:
        report = csv_export.writer(report_file)
        report.writerow(["row", "manifest_number", "outcome", "manifest_id", "flags", "problems"])
        with record.file.open("rb") as raw, open_text(raw) as (_encoding, delimiter, text):
            reader = csv.DictReader(text, delimiter=delimiter)
            try:
                header = _header_problem(reader.fieldnames)
            except csv.Error as error:
                header = f"The header row cannot be read: {csv_error_message(error)}"
            if header:
                record.error = header
                record.status = ManifestImport.Status.FAILED
                record.finished_at = timezone.now()
                record.save(update_fields=["error", "status", "finished_at"])
                return
            reader.fieldnames = [(name or "").strip() for name in reader.fieldnames]
            numbered_rows = _numbered(reader)
            if skip:  # rows a run interrupted committed: their lines again, not their rows
                skipped = itertools.islice(numbered_rows, skip)
                for line in import_resume.replayed_report_lines(record, skipped, chunk=ROWS_PER_TRANSACTION):
                    report.writerow(line)
            # One transaction per chunk of rows: each manifest's own transaction becomes a
            # savepoint (a refused row still rolls back alone), and SQLite, which runs
            # synchronous=FULL, syncs to disk once a chunk instead of once a row. The chunk's
            # problems and the import's counts are committed with its rows (the saved progress).
            while chunk := list(itertools.islice(numbered_rows, ROWS_PER_TRANSACTION)):
                with transaction.atomic():
                    rows_before = record.rows_total
                    outcomes = _chunk_outcomes(
                        chunk, record=record, user=user, ctx=ctx, cache=device_cache, seen=seen
                    )
                    for (number, row), (outcome, manifest_id, flags, errors) in zip(
                        chunk, outcomes, strict=True
                    ):
                        record.rows_total += 1
                        if errors:
                            record.rows_rejected += 1
                            for field, message in _messages(errors):
                                problems.append(
                                    ManifestImportProblem(
                                        manifest_import=record,
                                        row_number=number,
                                        manifest_number=(row.get("manifest_number") or "")[:64],
                                        field=field[:64],
                                        message=message,
                                    )
                                )
                        else:
                            record.rows_accepted += 1
                            record.rows_flagged += bool(flags)
                        report.writerow(
                            [
                                number,
                                row.get("manifest_number") or "",
                                outcome,
                                manifest_id or "",
                                "; ".join(flags),
                                "; ".join(
                                    f"{field}: {message}" if field else message
                                    for field, message in _messages(errors)
                                ),
                            ]
                        )
                    ManifestImportProblem.objects.bulk_create(problems)
                    problems = []
                    import_resume.chunk_committed(record, rows_before=rows_before)
        report_file.seek(0)
        # A random name on disk (RandomName): the download view names the file for the person.
        record.report.save("report.csv", File(report_file), save=False)
    record.status = ManifestImport.Status.DONE
    record.finished_at = timezone.now()
    record.save()


def _numbered(reader: csv.DictReader) -> Iterator[tuple[int, dict]]:
    """(row number, row) for each row; a row csv cannot read (a cell over its field limit, a
    broken quote) comes as {UNREADABLE: reason}, and reading carries on from the next line."""
    number = 1
    while True:
        number += 1
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            row = {UNREADABLE: csv_error_message(error)}
        yield number, row


def _chunk_outcomes(
    chunk, *, record, user, ctx, cache, seen
) -> list[tuple[str, int | None, list[str], dict]]:
    """Each row's outcome. A real run reads and cleans every row, then submits the clean ones
    together through the set-based ingest (``services/ingest.py``: a fixed number of queries a
    chunk, each row judged as ``manifest_submit`` judges it); a dry run checks each row."""
    if record.dry_run:
        return [_one_row(row, record=record, user=user, ctx=ctx, cache=cache, seen=seen) for _, row in chunk]
    outcomes: list = []
    clean: list[tuple[int, IngestRow]] = []
    for _number, row in chunk:
        outcome = _unreadable(row)
        submission, errors = (None, {}) if outcome else parse_row(row, ctx)
        if outcome is None and errors:
            outcome = ("rejected", None, [], errors)
        if outcome is None:
            raw = {key: value for key, value in row.items() if key in KNOWN or value}
            clean.append((len(outcomes), IngestRow(submission=submission, raw=raw)))
        outcomes.append(outcome)
    if not clean:
        return outcomes
    try:
        results = manifests_ingest(
            acting_user=user,
            rows=[r for _, r in clean],
            channel=Manifest.Channel.CSV,
            source_import=record,
            ctx=ctx,
        )
    except PermissionDenied as exc:
        for index, _ in clean:
            outcomes[index] = ("rejected", None, [], {"": [str(exc)]})
        return outcomes
    for (index, _), result in zip(clean, results, strict=True):
        if result.accepted:
            outcomes[index] = (
                "accepted",
                result.manifest.pk,
                [f.code for f in result.manifest.flag_list],
                {},
            )
        else:
            outcomes[index] = ("rejected", None, [], result.errors)
    return outcomes


def _unreadable(row: dict) -> tuple | None:
    if UNREADABLE in row:
        return "rejected", None, [], {"": [row[UNREADABLE]]}
    if None in row:
        return (
            "rejected",
            None,
            [],
            {"": ["This row has more cells than the header has columns; check for stray commas."]},
        )
    return None


def _one_row(row: dict, *, record, user, ctx, cache, seen) -> tuple[str, int | None, list[str], dict]:
    if UNREADABLE in row:
        return "rejected", None, [], {"": [row[UNREADABLE]]}
    if None in row:
        return (
            "rejected",
            None,
            [],
            {"": ["This row has more cells than the header has columns; check for stray commas."]},
        )
    submission, errors = parse_row(row, ctx)
    if errors:
        return "rejected", None, [], errors
    try:
        if record.dry_run:
            resolved = manifest_validate(
                submission, acting_user=user, ctx=ctx, device_cache=cache, seen_numbers=seen
            )
            hauler = resolved.fields["hauler"]
            if hauler is not None:
                seen.add((hauler.pk, resolved.fields["manifest_number"]))
            return "would be accepted", None, [], {}
        raw = {key: value for key, value in row.items() if key in KNOWN or value}
        manifest = manifest_submit(
            acting_user=user,
            submission=submission,
            channel=Manifest.Channel.CSV,
            raw=raw,
            source_import=record,
            ctx=ctx,
            device_cache=cache,
        )
        return "accepted", manifest.pk, [f.code for f in manifest.flag_list], {}
    except ValidationError as exc:
        return "rejected", None, [], exc.message_dict if hasattr(exc, "error_dict") else {"": exc.messages}
    except PermissionDenied as exc:
        return "rejected", None, [], {"": [str(exc)]}
