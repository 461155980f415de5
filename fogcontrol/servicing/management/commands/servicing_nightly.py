"""`fogcontrol servicing_nightly`: this app's step of the nightly sweep alone (kept as an alias).

`fogcontrol sweep` runs every app's step in order, once a day; the worker runs it by itself at the
Town's time (docs/architecture.md, "How a nightly job flows"). This command runs only this step,
and is not recorded as the day's sweep.
"""

from django.core.management.base import BaseCommand

from fogcontrol.servicing.services import status_sweep


class Command(BaseCommand):
    help = (
        "Move device statuses that change with the date and apply frequency changes that take effect today."
    )

    def handle(self, *args, **options):
        counts = status_sweep()
        self.stdout.write(", ".join(f"{name}: {count}" for name, count in counts.items()))
