"""`fogcontrol sampling_nightly`: this app's step of the nightly sweep alone (kept as an alias).

`fogcontrol sweep` runs every app's step in order, once a day; the worker runs it by itself at the
Town's time (docs/architecture.md, "How a nightly job flows"). This command runs only this step,
and is not recorded as the day's sweep.
"""

from django.core.management.base import BaseCommand

from fogcontrol.sampling.services import facilities_overdue_sweep


class Command(BaseCommand):
    help = "Open a finding for every required monitoring facility not installed by its due date (D7)."

    def handle(self, *args, **options):
        self.stdout.write(f"findings opened: {facilities_overdue_sweep()}")
