"""Reads of violations, scoped to the user, with the P3 day count."""

from __future__ import annotations

import datetime as dt

from django.db.models import QuerySet

from fogcontrol.core.scoping import VIEW
from fogcontrol.enforcement.models import Violation
from fogcontrol.rules.enforcement import violation_days_on


def violations_visible_to(user, action: str = VIEW) -> QuerySet[Violation]:
    return Violation.objects.visible_to(user, action)


def violation_list(user) -> QuerySet[Violation]:
    """Violations with what a list shows (establishment, device, property owner) in one query."""
    return violations_visible_to(user).select_related("establishment", "device", "property_owner")


def violation_detail(user, pk) -> Violation:
    return violation_list(user).get(pk=pk)


def with_days(violations, today: dt.date):
    """Each violation with ``days`` and ``days_explanation`` (P3), counted on ``today``."""
    rows = list(violations)
    for violation in rows:
        violation.days, violation.days_explanation = violation_days_on(
            violation.began_on, violation.cured_on, today
        )
    return rows
