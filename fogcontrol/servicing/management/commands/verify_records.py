"""Walk every chain of copies of record and name the first broken link (F7).

Exit status 0 when every chain verifies, 1 otherwise, so it can run from cron or CI.
With --files, attachment files are also checked against the SHA-256 taken when they arrived.
"""

import hashlib

from django.core.management.base import BaseCommand, CommandError

from fogcontrol.core.records import copy_of_record_models, verify_chain
from fogcontrol.servicing.models import ManifestAttachment


class Command(BaseCommand):
    help = "Verify the SHA-256 chains of every copy of record (manifests, attachments, purge log)."

    def add_arguments(self, parser):
        parser.add_argument("--files", action="store_true", help="Also hash every attachment file.")

    def handle(self, *args, **options):
        broken = []
        for model in copy_of_record_models():
            report = verify_chain(model)
            if report.ok:
                self.stdout.write(
                    f"{report.chain}: {report.records} record(s), {report.purged} purged: intact."
                )
            else:
                broken.append(report)
                self.stdout.write(f"{report.chain}: BROKEN. First broken link: {report.first_broken_link}")
                for problem in report.problems[1:]:
                    self.stdout.write(f"  also: {problem}")
        if options["files"]:
            broken += self._check_files()
        if broken:
            raise CommandError(f"{len(broken)} chain(s) or file(s) failed verification.")
        self.stdout.write(self.style.SUCCESS("All records verify."))

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
