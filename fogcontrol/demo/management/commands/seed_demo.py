"""`fogcontrol seed_demo`: the Town of Los Robles, a deterministic demo town (see docs/demo.md)."""

from django.core.management.base import BaseCommand, CommandError

from fogcontrol.demo.run import DEFAULT_ESTABLISHMENTS, DemoRefused, seed_demo
from fogcontrol.demo.users import logins_table


class Command(BaseCommand):
    help = (
        "Fill an empty database with a synthetic town (same --seed, same data) and print the demo logins. "
        "With --if-empty, do nothing if any establishment exists, but still print the logins."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--establishments", type=int, default=DEFAULT_ESTABLISHMENTS, help="How many FSEs (default 300)."
        )
        parser.add_argument("--seed", type=int, default=1, help="The random seed (default 1).")
        parser.add_argument("--if-empty", action="store_true", help="Do nothing if any establishment exists.")
        parser.add_argument("--force", action="store_true", help="Run even with FOGCONTROL_ENV=production.")

    def handle(self, *args, establishments, seed, if_empty, force, **options):
        try:
            result = seed_demo(establishments=establishments, seed=seed, if_empty=if_empty, force=force)
        except DemoRefused as refusal:
            raise CommandError(str(refusal)) from refusal
        if result.seeded:
            town = result.town
            self.stdout.write(
                self.style.SUCCESS(
                    f"Seeded {town.profile.name} (seed {seed}) in {result.seconds:.1f} s "
                    f"(the registry in {result.town_seconds:.1f} s): "
                    f"{len(town.establishments)} establishments, {len(town.devices)} devices, "
                    f"{len(town.parcels)} parcels ({len(town.shared_parcels)} shared), "
                    f"{len(town.haulers)} haulers, {len(town.facilities)} receiving facilities."
                )
            )
            for path, ran, seconds in result.seeders:
                done = f"ran in {seconds:.1f} s" if ran else "not installed yet, skipped"
                self.stdout.write(f"  demo seeder {path}: {done}")
        else:
            self.stdout.write(
                "Establishments already on record: the demo data was left as it is (--if-empty)."
            )
        self.stdout.write("")
        self.stdout.write("Demo logins:")
        self.stdout.write(logins_table())
