"""Background work for servicing (django-tasks). Thin: each task calls a service."""

import datetime as dt

from django_tasks import task

from fogcontrol.servicing.imports import manifest_import_run
from fogcontrol.servicing.services import status_sweep


@task()
def nightly_status_sweep() -> dict:
    """Statuses that change with the date (due soon -> overdue) and frequency changes whose B7
    effective date has come. The nightly sweep runs it as `sweep_step` below."""
    return status_sweep()


@task()
def run_manifest_import(import_id: int) -> dict:
    """Process an uploaded CSV of manifests, row by row (streamed)."""
    result = manifest_import_run(import_id=import_id)
    return {"rows": result.rows_total, "accepted": result.rows_accepted, "rejected": result.rows_rejected}


def sweep_step(*, on: dt.date, acting_user: str) -> dict:
    """The servicing step of the nightly sweep (`fogcontrol sweep`, fogcontrol/core/sweep.py):
    device states, due dates and statuses (D4, E1); frequency changes whose B7 date has come."""
    return status_sweep(today=on, acting_user=acting_user)
