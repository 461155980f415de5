"""Who acts: a person (a User) or a job.

Jobs and commands act under a label (a string such as "permits_daily" or "nightly-sweep"); every
service accepts one wherever it accepts a user, and the audit trail names it.
"""

from __future__ import annotations


def is_job(acting_user) -> bool:
    return isinstance(acting_user, str)


def person(acting_user):
    """The acting user when it is a person, for foreign keys; None for a job."""
    return None if is_job(acting_user) or acting_user is None else acting_user


def actor_label_for(acting_user) -> str:
    """The name the audit trail and copies of record keep for an actor."""
    if acting_user is None:
        return "system"
    if is_job(acting_user):
        return acting_user
    return acting_user.get_username()
