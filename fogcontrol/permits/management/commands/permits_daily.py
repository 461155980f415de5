"""`fogcontrol permits_daily`: this app's step of the nightly sweep alone (kept as an alias).

`fogcontrol sweep` runs every app's step in order, once a day; the worker runs it by itself at the
Town's time (docs/architecture.md, "How a nightly job flows"). This command runs only this step,
and is not recorded as the day's sweep.
"""

import datetime as dt

from django.core.management.base import BaseCommand

from fogcontrol.permits.services import permits_daily


class Command(BaseCommand):
    help = "Apply permit changes that take effect today (B7) and expire permits not renewed (B6)."

    def add_arguments(self, parser):
        parser.add_argument("--on", type=dt.date.fromisoformat, help="Run as of this date (YYYY-MM-DD).")

    def handle(self, *args, on=None, **options):
        result = permits_daily(on=on, acting_user="permits_daily")
        self.stdout.write(
            f"{result['modifications_applied']} change(s) applied; {result['permits_expired']} permit(s) expired."
        )
