"""Background work for enforcement (django-tasks). Thin: each task calls a service."""

import datetime as dt

from django_tasks import task

from fogcontrol.enforcement.services.sweep import enforcement_sweep


@task()
def nightly_violations() -> dict:
    """Open and cure violations from their sources (P3). The nightly sweep runs it as `sweep_step` below."""
    return enforcement_sweep()


def sweep_step(*, on: dt.date, acting_user: str) -> dict:
    """The enforcement step of the nightly sweep (`fogcontrol sweep`, fogcontrol/core/sweep.py):
    violations opened and cured from their sources (P3); missed milestones flagged."""
    return enforcement_sweep(today=on, acting_user=acting_user)
