"""Background work for billing (django-tasks). Thin: each task calls a service."""

import datetime as dt

from django_tasks import task

from fogcontrol.billing.services import billing_nightly


@task()
def nightly_billing() -> dict:
    """Pick up new charges, mark delinquent invoices (Q1, P8) and list liens (P9).
    The nightly sweep runs it as `sweep_step` below."""
    return billing_nightly()


def sweep_step(*, on: dt.date, acting_user: str) -> dict:
    """The billing step of the nightly sweep (`fogcontrol sweep`, fogcontrol/core/sweep.py):
    new charges picked up, delinquent invoices (Q1, P8), liens listed (P9)."""
    return billing_nightly(on=on, acting_user=acting_user)
