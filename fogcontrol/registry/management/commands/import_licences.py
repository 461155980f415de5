"""`fogcontrol import_licences FILE [--mapping JSON] [--apply]`: import the business licence records.

A dry run unless --apply. The import is kept like one made in the pages (list at
/registry/imports/), and the command prints its counts and the first rejected or doubtful rows.
"""

from __future__ import annotations

import json
import mimetypes
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.core.management.base import BaseCommand, CommandError

from fogcontrol.registry.imports import services
from fogcontrol.registry.imports.mapping import FIELDS_BY_NAME
from fogcontrol.registry.models import LicenceImportRow

ACTOR = "import_licences"


class Command(BaseCommand):
    help = "Import the Town's business licence records from a CSV or XLSX export (a dry run unless --apply)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="The CSV or XLSX export.")
        parser.add_argument(
            "--mapping",
            help='JSON {"field": "column header"}; fields: '
            + ", ".join(FIELDS_BY_NAME)
            + ". Without it, the mapping is guessed from the header names.",
        )
        parser.add_argument("--apply", action="store_true", help="Change the registry (default: dry run).")
        parser.add_argument(
            "--show", type=int, default=20, help="How many rejected or doubtful rows to print."
        )

    def handle(self, *args, **options):
        path = Path(options["file"])
        if not path.is_file():
            raise CommandError(f"{path} is not a file.")
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        with path.open("rb") as handle:
            upload = UploadedFile(handle, name=path.name, content_type=content_type, size=path.stat().st_size)
            try:
                licence_import = services.licence_import_upload(acting_user=ACTOR, uploaded_file=upload)
            except ValidationError as error:
                raise CommandError(" ".join(error.messages)) from None
        if options["mapping"]:
            try:
                mapping = json.loads(options["mapping"])
            except json.JSONDecodeError as error:
                raise CommandError(f"--mapping is not valid JSON: {error}") from None
        else:
            mapping = licence_import.mapping
        try:
            licence_import = services.licence_import_set_mapping(
                licence_import=licence_import, acting_user=ACTOR, mapping=mapping
            )
        except ValidationError as error:
            raise CommandError("Mapping: " + " ".join(error.messages)) from None
        self.stdout.write(f"Import {licence_import.pk}: {licence_import.original_filename}")
        self.stdout.write("Mapping: " + ", ".join(f"{f} <- {c!r}" for f, c in licence_import.mapping.items()))
        apply = options["apply"]
        licence_import = services.licence_import_run(
            licence_import=licence_import, acting_user=ACTOR, apply=apply
        )
        if licence_import.error:
            raise CommandError(licence_import.error)
        counts = licence_import.counts
        self.stdout.write(("APPLIED" if apply else "DRY RUN (nothing changed)") + f": {counts['rows']} rows")
        for outcome, label in LicenceImportRow.Outcome.choices:
            self.stdout.write(f"  {label}: {counts.get(outcome, 0)}")
        if counts.get("reasons"):
            self.stdout.write("Reasons:")
            for code, n in counts["reasons"].items():
                self.stdout.write(f"  {code}: {n}")
        flagged = (
            licence_import.rows.filter(applied=apply)
            .exclude(outcome__in=["created", "updated", "unchanged"])
            .exclude(reasons__0__code="duplicate_row")
            .order_by("row_number")[: options["show"]]
        )
        for row in flagged:
            self.stdout.write(f"  row {row.row_number} {row.outcome}: {row.reason_text}")
        if not apply:
            self.stdout.write("Run again with --apply to change the registry.")
