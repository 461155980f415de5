"""`fogcontrol restore DIRECTORY [--replace]`: restore a backup and prove it (issue 15).

Every part is checked against the manifest's SHA-256 first; a database that holds records is only
overwritten with --replace (the uploaded files in place are then moved aside, not deleted). After
the restore every table's row count is compared with the manifest and every chain of copies of
record is verified. Exit status 1 when anything differs.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from fogcontrol.core.backup import BackupError, restore


class Command(BaseCommand):
    help = "Restore a backup made by `fogcontrol backup`, then compare row counts and verify every chain."

    def add_arguments(self, parser):
        parser.add_argument("directory", help="The backup directory (it holds manifest.json).")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="Overwrite a database that holds records (uploaded files in place are moved aside).",
        )

    def handle(self, *args, directory, replace, **options):
        try:
            report = restore(Path(directory), replace=replace, now=timezone.localtime())
        except BackupError as failure:
            raise CommandError(str(failure)) from failure
        if not report.ok:
            for problem in report.problems:
                self.stdout.write(f"  {problem}")
            raise CommandError(f"The restore does not match the backup: {len(report.problems)} problem(s).")
        self.stdout.write(
            self.style.SUCCESS(
                f"Restored {directory}: {report.tables} tables, {report.rows} rows, as backed up; "
                f"{len(report.chains)} chains of copies of record verify."
            )
        )
