"""Background work for spills (django-tasks). Thin: each task calls a service."""

import datetime as dt

from django_tasks import task

from fogcontrol.spills.services import overdue_written_reports_sweep


@task()
def nightly_overdue_written_reports() -> dict:
    """Written spill reports not received by their due day become findings (J2).
    The nightly sweep runs it as `sweep_step` below."""
    return {"findings_opened": overdue_written_reports_sweep()}


def sweep_step(*, on: dt.date, acting_user: str) -> dict:
    """The spills step of the nightly sweep (`fogcontrol sweep`, fogcontrol/core/sweep.py):
    written spill reports not received by their due day become findings (J2)."""
    return {"findings_opened": overdue_written_reports_sweep(today=on, acting_user=acting_user)}
