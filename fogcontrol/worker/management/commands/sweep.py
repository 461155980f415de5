"""`fogcontrol sweep [--on YYYY-MM-DD]`: the nightly sweep now, every app's step in order.

The worker runs it by itself at the Town's time (fogcontrol/worker/scheduler.py); this command is
for cron (a Town whose tasks run on Redis), for a day to run again, and for trying it out. It runs
the day once: steps done earlier that day are skipped, and while another runner holds the day
this one does nothing (fogcontrol/worker/sweep.py).
"""

from __future__ import annotations

import datetime as dt
import os
import socket

from django.core.management.base import BaseCommand, CommandError
from django.utils.crypto import get_random_string

from fogcontrol.program.selectors import town_today
from fogcontrol.worker.housekeeping import beating
from fogcontrol.worker.sweep import SweepStepFailed, sweep_run


def _day(value: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError as error:
        raise CommandError(
            f"--on {value!r} is not a date: write it as YYYY-MM-DD, e.g. 2026-03-31."
        ) from error


def _counts(result: object) -> str:
    if isinstance(result, dict):
        return (
            ", ".join(f"{name.replace('_', ' ')}: {count}" for name, count in result.items())
            or "nothing to do"
        )
    return str(result)


class Command(BaseCommand):
    help = (
        "Run the nightly sweep (device statuses, permits, records, spills, sampling, enforcement, "
        "billing) for today or --on a day, once: steps done earlier that day are skipped."
    )

    def add_arguments(self, parser):
        parser.add_argument("--on", type=str, help="The Town day to sweep (YYYY-MM-DD); default today.")

    def handle(self, *args, on=None, **options):
        day = _day(on) if on else town_today()
        owner = f"sweep-{socket.gethostname()[:20]}-{os.getpid()}-{get_random_string(6)}"
        try:
            with beating(owner):
                outcome = sweep_run(on=day, owner=owner)
        except SweepStepFailed as error:
            raise CommandError(
                f"{error}. Steps done are kept; run the command again to go on from there."
            ) from error
        if outcome.held_by:
            self.stdout.write(f"The sweep of {day} is being run by {outcome.held_by}; nothing done.")
            return
        for name in outcome.already_done:
            self.stdout.write(f"{name}: done earlier")
        for name, result in outcome.ran.items():
            self.stdout.write(f"{name}: {_counts(result)}")
        self.stdout.write(f"The sweep of {day} is complete.")
