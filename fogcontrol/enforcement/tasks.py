"""Background work for enforcement (django-tasks). Thin: each task calls a service."""

from django_tasks import task

from fogcontrol.enforcement.services.sweep import enforcement_sweep


@task()
def nightly_violations() -> dict:
    """Open and cure violations from their sources (P3). Run nightly: `fogcontrol enforcement_nightly`."""
    return enforcement_sweep()
