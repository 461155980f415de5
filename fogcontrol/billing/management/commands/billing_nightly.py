"""`fogcontrol billing_nightly`: this app's step of the nightly sweep alone (kept as an alias).

`fogcontrol sweep` runs every app's step in order, once a day; the worker runs it by itself at the
Town's time (docs/architecture.md, "How a nightly job flows"). This command runs only this step,
and is not recorded as the day's sweep.
"""

from django.core.management.base import BaseCommand

from fogcontrol.billing.services import billing_nightly


class Command(BaseCommand):
    help = "Pick up new charges, mark delinquent invoices (Q1, P8) and list penalty liens (P9)."

    def handle(self, *args, **options):
        for name, count in billing_nightly().items():
            self.stdout.write(f"{name.replace('_', ' ')}: {count}")
