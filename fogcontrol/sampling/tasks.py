"""Background work for sampling (django-tasks). Thin: each task calls a service."""

import datetime as dt

from django_tasks import task

from fogcontrol.sampling.services import facilities_overdue_sweep


@task()
def nightly_overdue_facilities() -> dict:
    """Monitoring facilities not installed by their due date become findings (D7).
    The nightly sweep runs it as `sweep_step` below."""
    return {"findings_opened": facilities_overdue_sweep()}


def sweep_step(*, on: dt.date, acting_user: str) -> dict:
    """The sampling step of the nightly sweep (`fogcontrol sweep`, fogcontrol/core/sweep.py):
    monitoring facilities not installed by their due date become findings (D7)."""
    return {"findings_opened": facilities_overdue_sweep(today=on, acting_user=acting_user)}
