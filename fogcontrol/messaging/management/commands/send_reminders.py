"""`fogcontrol send_reminders [--on YYYY-MM-DD]`: e-mail every reminder due (once each)."""

import datetime as dt

from django.core.management.base import BaseCommand, CommandError

from fogcontrol.messaging.services import reminders_send_due
from fogcontrol.program.selectors import town_today


class Command(BaseCommand):
    help = "E-mail every reminder due on a day (default: the Town's today); each is sent once."

    def add_arguments(self, parser):
        parser.add_argument("--on", help="The day, YYYY-MM-DD (default: today in the Town).")

    def handle(self, *args, on=None, **options):
        try:
            day = dt.date.fromisoformat(on) if on else town_today()
        except ValueError:
            raise CommandError(
                f"--on {on!r} is not a date: give it as YYYY-MM-DD, e.g. 2026-05-04."
            ) from None
        counts = reminders_send_due(on=day, acting_user="messaging.send_reminders")
        total = sum(counts.values())
        detail = ", ".join(f"{kind}: {n}" for kind, n in counts.items() if n)
        self.stdout.write(
            f"{total} reminder(s) queued for {day:%Y-%m-%d}" + (f" ({detail})." if detail else ".")
        )
