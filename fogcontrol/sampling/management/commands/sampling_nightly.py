"""Run the nightly sampling sweep now (for cron: `fogcontrol sampling_nightly`)."""

from django.core.management.base import BaseCommand

from fogcontrol.sampling.services import facilities_overdue_sweep


class Command(BaseCommand):
    help = "Open a finding for every required monitoring facility not installed by its due date (D7)."

    def handle(self, *args, **options):
        self.stdout.write(f"findings opened: {facilities_overdue_sweep()}")
