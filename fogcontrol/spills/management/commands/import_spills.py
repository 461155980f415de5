"""Import the State's CIWQS flat files: `fogcontrol import_spills FILE [--agency WDID] [--apply] [--json]`.

A spills file (PLSD or SSO) or the agency register (PRA.txt) is told by its header row. Without
`--apply` the run is dry: the report says what applying would do, row by row."""

import json
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.files import File
from django.core.management.base import BaseCommand, CommandError

from fogcontrol.spills.imports.services import spill_import_apply, spill_import_upload

ACTOR = "import_spills"


class Command(BaseCommand):
    help = "Import a CIWQS spills file (PLSD/SSO) or agency register (PRA); a dry run unless --apply."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--agency", default="", help="Only the spills of this agency (its WDID).")
        parser.add_argument("--apply", action="store_true", help="Write the spills (else a dry run).")
        parser.add_argument("--json", action="store_true", help="Print the counts as JSON.")

    def handle(self, *args, **options):
        path = Path(options["file"])
        if not path.is_file():
            raise CommandError(f"{path}: no such file.")
        try:
            with path.open("rb") as handle:
                spill_import = spill_import_upload(
                    acting_user=ACTOR,
                    uploaded_file=File(handle, name=path.name),
                    agency_wdid=options["agency"],
                )
            if options["apply"]:
                spill_import = spill_import_apply(spill_import=spill_import, acting_user=ACTOR)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        counts = spill_import.applied_counts if options["apply"] else spill_import.dry_run_counts
        if options["json"]:
            self.stdout.write(json.dumps({"import": spill_import.pk, "applied": options["apply"], **counts}))
            return
        self.stdout.write(f"{spill_import} ({'applied' if options['apply'] else 'dry run'})")
        for key, value in counts.items():
            if key != "reasons":
                self.stdout.write(f"  {key}: {value}")
        for code, number in counts.get("reasons", {}).items():
            self.stdout.write(f"  reason {code}: {number}")
