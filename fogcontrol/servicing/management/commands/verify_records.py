"""Walk every chain of copies of record and name the first broken link (F7; issue 15, finding 4).

Exit status 0 when every chain verifies, 1 otherwise, so it can run from cron or CI.
With --files, attachment files are also checked against the SHA-256 taken when they arrived.
The chains are also checked against a signed checkpoint: the one named by --against, or else the
newest kept in the data dir (``<data dir>/checkpoints``), if any. With --checkpoint PATH, once
everything verifies, a new signed checkpoint is written to PATH (and a copy kept in the data dir).
"""

import hashlib
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from fogcontrol.core.record_checkpoints import checkpoint_check, checkpoint_write, latest_checkpoint
from fogcontrol.core.records import copy_of_record_models, verify_chain
from fogcontrol.servicing.models import ManifestAttachment


class Command(BaseCommand):
    help = (
        "Verify the keyed chains of every copy of record (manifests, attachments, applications, purge log)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--files", action="store_true", help="Also hash every attachment file.")
        parser.add_argument(
            "--checkpoint",
            metavar="PATH",
            help="When everything verifies, write a signed checkpoint of every chain's head to PATH.",
        )
        parser.add_argument(
            "--against",
            metavar="PATH",
            help="Check the chains against this checkpoint (default: the newest in the data dir).",
        )

    def handle(self, *args, **options):
        broken = []
        reports = []
        for model in copy_of_record_models():
            report = verify_chain(model)
            reports.append(report)
            if report.ok:
                self.stdout.write(
                    f"{report.chain}: {report.records} record(s), {report.purged} purged: intact."
                )
            else:
                broken.append(report)
                self.stdout.write(f"{report.chain}: BROKEN. First broken link: {report.first_broken_link}")
                for problem in report.problems[1:]:
                    self.stdout.write(f"  also: {problem}")
        broken += self._check_checkpoint(options["against"])
        if options["files"]:
            broken += self._check_files()
        if broken:
            raise CommandError(f"{len(broken)} chain(s), checkpoint(s) or file(s) failed verification.")
        self.stdout.write(self.style.SUCCESS("All records verify."))
        if options["checkpoint"]:
            for path in checkpoint_write(Path(options["checkpoint"]), reports):
                self.stdout.write(f"Checkpoint written: {path}")

    def _check_checkpoint(self, against) -> list[str]:
        path = Path(against) if against else latest_checkpoint()
        if path is None:
            self.stdout.write("No checkpoint to check against (write one with --checkpoint PATH).")
            return []
        problems = checkpoint_check(path)
        if problems:
            self.stdout.write(f"Checkpoint {path}: BROKEN.")
            for problem in problems:
                self.stdout.write(f"  {problem}")
        else:
            self.stdout.write(f"Checkpoint {path}: every chain still holds what it saw.")
        return problems

    def _check_files(self) -> list[str]:
        failures = []
        for attachment in ManifestAttachment.objects.order_by("pk").iterator(chunk_size=500):
            digest = hashlib.sha256()
            try:
                with attachment.file.open("rb") as handle:
                    for chunk in iter(lambda: handle.read(1 << 20), b""):
                        digest.update(chunk)
            except OSError:
                failures.append(attachment.pk)
                self.stdout.write(f"Attachment #{attachment.pk} ({attachment.original_name}): file missing.")
                continue
            if digest.hexdigest() != attachment.sha256:
                failures.append(attachment.pk)
                self.stdout.write(f"Attachment #{attachment.pk} ({attachment.original_name}): file altered.")
        return failures
