"""`fogcontrol backup [DIRECTORY]`: the database and the uploaded files, with a manifest (issue 15).

SQLite through its online backup API with an integrity check; PostgreSQL through pg_dump. The
record key file is not included: keep it apart (docs/security.md "Backups").
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from fogcontrol.core.backup import BackupError, backup, default_directory


class Command(BaseCommand):
    help = "Back up the database and the uploaded files into a new directory, with a manifest to restore against."

    def add_arguments(self, parser):
        parser.add_argument(
            "directory",
            nargs="?",
            help="Where to write the backup (default: <data dir>/backups/fogcontrol-<time>).",
        )

    def handle(self, *args, directory, **options):
        now = timezone.localtime()
        target = Path(directory) if directory else default_directory(now)
        try:
            manifest = backup(target, now=now)
        except BackupError as failure:
            raise CommandError(str(failure)) from failure
        rows = sum(manifest["tables"].values())
        self.stdout.write(
            self.style.SUCCESS(
                f"Backup written to {target}: {len(manifest['tables'])} tables, {rows} rows, "
                f"{len(manifest['chains'])} chains of copies of record, {manifest['file_count']} uploaded file(s)."
            )
        )
        unverified = [name for name, head in manifest["chains"].items() if not head["verified"]]
        if unverified:
            self.stdout.write(
                self.style.WARNING(f"These chains did not verify when backed up: {', '.join(unverified)}.")
            )
