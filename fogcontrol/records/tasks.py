"""Background work for records (django-tasks). Thin: each task calls a service."""

import datetime as dt

from django_tasks import task

from fogcontrol.records.services import late_reports_sweep, late_training_sweep


@task()
def nightly_late_reports() -> dict:
    """Required reports not received by their due date (F3, F4) and late employee training (C4)
    become findings. The nightly sweep runs it as `sweep_step` below."""
    return {"findings_opened": late_reports_sweep(), "training_findings_opened": late_training_sweep()}


def sweep_step(*, on: dt.date, acting_user: str) -> dict:
    """The records step of the nightly sweep (`fogcontrol sweep`, fogcontrol/core/sweep.py):
    late and missing reports (F3, F4) and late training (C4) become findings."""
    return {
        "findings_opened": late_reports_sweep(today=on, acting_user=acting_user),
        "training_findings_opened": late_training_sweep(today=on, acting_user=acting_user),
    }
