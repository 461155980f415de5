"""Run the nightly servicing sweep now (for cron: `fogcontrol servicing_nightly`)."""

from django.core.management.base import BaseCommand

from fogcontrol.servicing.services import status_sweep


class Command(BaseCommand):
    help = (
        "Move device statuses that change with the date and apply frequency changes that take effect today."
    )

    def handle(self, *args, **options):
        counts = status_sweep()
        self.stdout.write(", ".join(f"{name}: {count}" for name, count in counts.items()))
