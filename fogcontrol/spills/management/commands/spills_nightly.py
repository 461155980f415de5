"""`fogcontrol spills_nightly`: this app's step of the nightly sweep alone (kept as an alias).

`fogcontrol sweep` runs every app's step in order, once a day; the worker runs it by itself at the
Town's time (docs/architecture.md, "How a nightly job flows"). This command runs only this step,
and is not recorded as the day's sweep.
"""

from django.core.management.base import BaseCommand

from fogcontrol.spills.services import overdue_written_reports_sweep


class Command(BaseCommand):
    help = "Open a finding for every written spill report not received by its due day (J2)."

    def handle(self, *args, **options):
        self.stdout.write(f"findings opened: {overdue_written_reports_sweep()}")
