"""`fogcontrol bench generate --establishments N [--seed S]`: a synthetic program at scale for the
benchmarks (fogcontrol/demo/generate.py, docs/performance.md)."""

from django.core.management.base import BaseCommand, CommandError

from fogcontrol.demo.generate import YEARS, GenerateRefused, generate
from fogcontrol.demo.run import is_production


class Command(BaseCommand):
    help = "Benchmark data: `bench generate --establishments N` fills an empty database with a synthetic program."

    def add_arguments(self, parser):
        commands = parser.add_subparsers(dest="what", required=True, metavar="generate")
        make = commands.add_parser(
            "generate",
            help="Registry, permits and five years of manifests for N establishments (deterministic).",
        )
        make.add_argument("--establishments", type=int, required=True, help="How many FSEs.")
        make.add_argument("--seed", type=int, default=1, help="The random seed (default 1).")
        make.add_argument("--years", type=int, default=YEARS, help=f"Years of manifests (default {YEARS}).")
        make.add_argument("--force", action="store_true", help="Run even with FOGCONTROL_ENV=production.")

    def handle(self, *args, what, establishments, seed, years, force, **options):
        if is_production() and not force:
            raise CommandError(
                "FOGCONTROL_ENV is production: bench generate would mix made-up records into real data."
            )
        if establishments < 5 or years < 1:
            raise CommandError("--establishments must be at least 5 and --years at least 1.")
        try:
            result = generate(
                establishments=establishments,
                seed=seed,
                years=years,
                progress=lambda message: self.stdout.write(f"  {message}"),
            )
        except GenerateRefused as refusal:
            raise CommandError(str(refusal)) from refusal
        times = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in result.seconds.items())
        self.stdout.write(
            self.style.SUCCESS(
                f"Generated {result.establishments} establishments, {result.devices} devices and "
                f"{result.manifests} manifests ({times})."
            )
        )
