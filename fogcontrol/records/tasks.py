"""Background work for records (django-tasks). Thin: each task calls a service."""

from django_tasks import task

from fogcontrol.records.services import late_reports_sweep, late_training_sweep


@task()
def nightly_late_reports() -> dict:
    """Required reports not received by their due date (F3, F4) and late employee training (C4)
    become findings. Run nightly: `fogcontrol records_nightly` from cron."""
    return {"findings_opened": late_reports_sweep(), "training_findings_opened": late_training_sweep()}
