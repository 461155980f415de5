"""Run the nightly billing pass now (for cron: `fogcontrol billing_nightly`)."""

from django.core.management.base import BaseCommand

from fogcontrol.billing.services import billing_nightly


class Command(BaseCommand):
    help = "Pick up new charges, mark delinquent invoices (Q1, P8) and list penalty liens (P9)."

    def handle(self, *args, **options):
        for name, count in billing_nightly().items():
            self.stdout.write(f"{name.replace('_', ' ')}: {count}")
