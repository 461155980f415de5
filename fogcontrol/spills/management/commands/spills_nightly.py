"""Run the nightly spills sweep now (for cron: `fogcontrol spills_nightly`)."""

from django.core.management.base import BaseCommand

from fogcontrol.spills.services import overdue_written_reports_sweep


class Command(BaseCommand):
    help = "Open a finding for every written spill report not received by its due day (J2)."

    def handle(self, *args, **options):
        self.stdout.write(f"findings opened: {overdue_written_reports_sweep()}")
