"""Background work for records (django-tasks). Thin: each task calls a service."""

from django_tasks import task

from fogcontrol.records.services import late_reports_sweep


@task()
def nightly_late_reports() -> dict:
    """Required reports not received by their due date become findings (F3, F4). Run nightly:
    `fogcontrol records_nightly` from cron."""
    return {"findings_opened": late_reports_sweep()}
