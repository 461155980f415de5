"""`fogcontrol records_nightly`: this app's step of the nightly sweep alone (kept as an alias).

`fogcontrol sweep` runs every app's step in order, once a day; the worker runs it by itself at the
Town's time (docs/architecture.md, "How a nightly job flows"). This command runs only this step,
and is not recorded as the day's sweep.
"""

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
