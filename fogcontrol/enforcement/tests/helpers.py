"""Shared helpers for enforcement tests: a violation and a case at the FSE's own establishment."""

from __future__ import annotations

import datetime as dt

from fogcontrol.core.roles import Role
from fogcontrol.enforcement.services.cases import case_open
from fogcontrol.enforcement.services.violations import violation_open


def a_violation(town, *, provision="C3", began_on=None, establishment=None, kind="other"):
    return violation_open(
        acting_user=town.users[Role.INSPECTOR],
        establishment=establishment or town.own_fse,
        provision=provision,
        kind=kind,
        description="Drain screens missing",
        evidence="Seen at the visit of March 2",
        began_on=began_on or dt.date(2026, 3, 2),
    )


def a_case(town, *, violations=None, opened_on=None):
    violations = violations if violations is not None else [a_violation(town)]
    return case_open(
        acting_user=town.users[Role.FOG_MANAGER],
        establishment=violations[0].establishment if violations else town.own_fse,
        summary="Repeated missing drain screens",
        internal_notes="Owner was rude at the visit.",
        opened_on=opened_on or dt.date(2026, 3, 5),
        violations=violations,
    )
