"""Seeding the demo: refuse where it must not run, build the town, call the other apps' seeders."""

from __future__ import annotations

import dataclasses
import os
import time

from django.conf import settings
from django.db import transaction

from fogcontrol.demo.maker import DemoSpaceExhausted
from fogcontrol.demo.seeders import SeederFailed, run_seeders
from fogcontrol.demo.town import DemoTown, build_demo_town
from fogcontrol.demo.users import existing_demo_usernames
from fogcontrol.registry.models import FoodServiceEstablishment

DEFAULT_ESTABLISHMENTS = 300
FEWEST_ESTABLISHMENTS = 5


class DemoRefused(Exception):
    """seed_demo will not run here; the message says why and what to do instead."""


def _failed(reason, started: float) -> str:
    """Why a seed failed. It is one transaction, so nothing it made is left behind: say so."""
    return (
        f"seed_demo stopped after {time.perf_counter() - started:.0f} s: {reason}. "
        "Nothing was saved (the seed is one transaction); the database is as it was before."
    )


@dataclasses.dataclass
class DemoResult:
    town: DemoTown | None
    seeded: bool
    seconds: float
    seeders: list[tuple[str, bool, float]]
    town_seconds: float = 0.0


def is_production() -> bool:
    return bool(getattr(settings, "PRODUCTION", False)) or os.environ.get("FOGCONTROL_ENV") == "production"


def seed_demo(
    *,
    establishments: int = DEFAULT_ESTABLISHMENTS,
    seed: int = 1,
    if_empty: bool = False,
    force: bool = False,
    seeders: list[str] | None = None,
) -> DemoResult:
    """Build the demo town, or do nothing with ``if_empty`` when any FSE is on record.

    ``seeders`` replaces ``DEMO_SEEDERS`` (the other apps' demo data); [] builds the registry only.

    Refuses in production (FOGCONTROL_ENV=production) unless ``force``: demo data in a real
    program would be mistaken for real records.
    """
    if is_production() and not force:
        raise DemoRefused(
            "FOGCONTROL_ENV is production: seed_demo would mix made-up records into the Town's real data. "
            "Use --force only on a throwaway production-like database."
        )
    if establishments < FEWEST_ESTABLISHMENTS:
        raise DemoRefused(
            f"--establishments must be at least {FEWEST_ESTABLISHMENTS}, so every demo role has records."
        )
    started = time.perf_counter()
    existing = FoodServiceEstablishment.objects.count()
    if existing:
        if if_empty:
            return DemoResult(town=None, seeded=False, seconds=time.perf_counter() - started, seeders=[])
        raise DemoRefused(
            f"The database already holds {existing} food service establishments; seed_demo fills an empty one. "
            "Use a fresh database, or --if-empty to keep this data and only print the demo logins."
        )
    taken = existing_demo_usernames()
    if taken:
        raise DemoRefused(
            f"Users named {', '.join(sorted(taken))} already exist; the demo logins need those names. "
            "Use a fresh database."
        )
    try:
        with transaction.atomic():
            town = build_demo_town(establishments=establishments, seed=seed)
            town_seconds = time.perf_counter() - started
            ran = run_seeders(seed=seed, town=town, today=town.today, seeders=seeders)
    except (SeederFailed, DemoSpaceExhausted) as error:
        raise DemoRefused(_failed(error, started)) from error
    except Exception as error:
        raise DemoRefused(
            _failed(f"building the town failed: {type(error).__name__}: {error}", started)
        ) from error
    return DemoResult(
        town=town, seeded=True, seconds=time.perf_counter() - started, seeders=ran, town_seconds=town_seconds
    )
