"""Run the nightly records sweep now (for cron: `fogcontrol records_nightly`)."""

from django.core.management.base import BaseCommand

from fogcontrol.records.services import late_reports_sweep, late_training_sweep


class Command(BaseCommand):
    help = (
        "Open a finding for every required report not received by its due date (F3, F4) and for "
        "late employee training (C4)."
    )

    def handle(self, *args, **options):
        self.stdout.write(f"findings opened: {late_reports_sweep()}")
        self.stdout.write(f"training findings opened: {late_training_sweep()}")
