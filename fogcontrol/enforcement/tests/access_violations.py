"""Enforcement access table, violations: staff see every violation; an FSE user its own
establishments' (`own_fse`); others none (404). The FOG Manager and inspectors open and cure them
(`roles.ENFORCEMENT_OFFICERS`); any other role that sees the violation is refused (403)."""

from __future__ import annotations

from fogcontrol.core.roles import Role
from fogcontrol.enforcement.roles import ENFORCEMENT_OFFICERS
from fogcontrol.enforcement.tests.helpers import a_violation
from fogcontrol.testing.access import api, page

OWN = frozenset({Role.FSE})


def build(town) -> None:
    town.records["violation"] = a_violation(town)


def _v(t):
    return t["violation"].pk


CURE = {"cured_on": "2026-03-20", "evidence": "Screens fitted"}

ROUTES = [
    page("enforcement:violation_list", "/enforcement/violations/", record=False),
    page("enforcement:violation_new", "/enforcement/violations/new/", record=False, may=ENFORCEMENT_OFFICERS),
    page(
        "enforcement:violation_cure",
        lambda t: f"/enforcement/violations/{_v(t)}/cure/",
        method="post",
        owners=OWN,
        may=ENFORCEMENT_OFFICERS,
        body=CURE,
    ),  # fmt: skip
    api("violation-list", "/api/v1/violations/", record=False),
    api(
        "violation-list",
        "/api/v1/violations/",
        record=False,
        method="post",
        may=ENFORCEMENT_OFFICERS,
        label="open",
        body=lambda t: {
            "establishment": t.own_fse.pk,
            "provision": "K6",
            "description": "Grease poured",
            "evidence": "Seen",
            "began_on": "2026-03-01",
        },
    ),  # fmt: skip
    api("violation-detail", lambda t: f"/api/v1/violations/{_v(t)}/", owners=OWN),
    api(
        "violation-cure",
        lambda t: f"/api/v1/violations/{_v(t)}/cure/",
        method="post",
        owners=OWN,
        may=ENFORCEMENT_OFFICERS,
        body=CURE,
    ),  # fmt: skip
]
