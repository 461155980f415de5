"""Run the nightly enforcement sweep now (for cron: `fogcontrol enforcement_nightly`)."""

from django.core.management.base import BaseCommand

from fogcontrol.enforcement.services.sweep import enforcement_sweep


class Command(BaseCommand):
    help = "Open a violation for each open finding, overdue service, missing or expired permit and referred manifest flag; cure those whose source is cured (P3)."

    def handle(self, *args, **options):
        counts = enforcement_sweep()
        self.stdout.write(f"violations opened: {counts['opened']}, cured: {counts['cured']}")
