"""Background work of the permits app: thin wrappers around services (tests run them at once)."""

import datetime as dt

from django_tasks import task

from fogcontrol.permits import services
from fogcontrol.permits.models import PermitNotice


@task()
def send_notice_email(notice_id: int) -> None:
    """Email a recorded notice (B7 and others); the outcome is written on the notice. Idempotent."""
    notice = PermitNotice.objects.filter(pk=notice_id).first()
    if notice is not None:
        services.notice_email_deliver(notice=notice)


@task()
def permits_daily() -> dict:
    """Each morning: apply B7 changes that take effect today, then expire permits not renewed (B6)."""
    return services.permits_daily()


def sweep_step(*, on: dt.date, acting_user: str) -> dict:
    """The permits step of the nightly sweep (`fogcontrol sweep`, fogcontrol/core/sweep.py):
    permit changes that take effect (B7), then permits not renewed expire (B6)."""
    return services.permits_daily(on=on, acting_user=acting_user)
