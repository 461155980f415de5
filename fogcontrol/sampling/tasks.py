"""Background work for sampling (django-tasks). Thin: each task calls a service."""

from django_tasks import task

from fogcontrol.sampling.services import facilities_overdue_sweep


@task()
def nightly_overdue_facilities() -> dict:
    """Monitoring facilities not installed by their due date become findings (D7). Run nightly:
    `fogcontrol sampling_nightly` from cron."""
    return {"findings_opened": facilities_overdue_sweep()}
