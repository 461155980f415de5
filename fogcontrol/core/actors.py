"""Who acts: a person (a User) or a job.

Jobs and commands act under a label (a string such as "permits_daily" or "nightly-sweep"); every
service accepts one wherever it accepts a user, and the audit trail names it.
"""

from __future__ import annotations


def is_job(acting_user) -> bool:
    return isinstance(acting_user, str)


def person(acting_user):
    """The acting user when it is a person, for foreign keys; None for a job (or no one)."""
    return acting_user if getattr(acting_user, "pk", None) else None


def actor_label_for(acting_user) -> str:
    """The name the audit trail and copies of record keep for an actor."""
    if acting_user is None:
        return "system"
    if is_job(acting_user):
        return acting_user
    return acting_user.get_username()
