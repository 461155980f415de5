"""`fogcontrol demo_code`: the current authenticator code of each demo staff user (docs/demo.md).

It reads only authenticators that carry the public demo key (fogcontrol/demo/users.py), and it
refuses to run in production, as seed_demo does.
"""

from django.core.management.base import BaseCommand, CommandError

from fogcontrol.demo.run import is_production
from fogcontrol.demo.users import demo_codes


class Command(BaseCommand):
    help = "Print the current second-factor code of each demo staff user (demo databases only)."

    def handle(self, *args, **options):
        if is_production():
            raise CommandError("FOGCONTROL_ENV is production: there are no demo authenticators here.")
        rows = demo_codes()
        if not rows:
            raise CommandError(
                "No demo staff authenticators in this database: run `fogcontrol seed_demo` first."
            )
        self.stdout.write("Codes change every 30 seconds; each works once.")
        for username, code in rows:
            self.stdout.write(f"  {username:<10} {code}")
