"""Start a new epoch of the record key (issue 15, finding 4).

Records appended from now on are signed with the new key and carry its epoch; every older key stays
in the keyring, so the records it signed still verify. Run it when the key may have leaked, and on
the Town's schedule; then keep a copy of the new keyring where the old one is kept.
"""

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError

from fogcontrol.core.record_keys import key_file_path, rotate


class Command(BaseCommand):
    help = "Start a new epoch of the copy-of-record key; old keys are kept so old records verify."

    def handle(self, *args, **options):
        try:
            epoch = rotate()
        except ImproperlyConfigured as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            self.style.SUCCESS(
                f"Record key epoch {epoch} started in {key_file_path()}; epochs before it are kept. "
                "Copy the new keyring to where the Town keeps its secrets."
            )
        )
