"""`fogcontrol enforcement_nightly`: this app's step of the nightly sweep alone (kept as an alias).

`fogcontrol sweep` runs every app's step in order, once a day; the worker runs it by itself at the
Town's time (docs/architecture.md, "How a nightly job flows"). This command runs only this step,
and is not recorded as the day's sweep.
"""

from django.core.management.base import BaseCommand

from fogcontrol.enforcement.services.sweep import enforcement_sweep


class Command(BaseCommand):
    help = "Open a violation for each open finding, overdue service, missing or expired permit and referred manifest flag; cure those whose source is cured (P3)."

    def handle(self, *args, **options):
        counts = enforcement_sweep()
        self.stdout.write(f"violations opened: {counts['opened']}, cured: {counts['cured']}")
