"""Who may see and close findings: every page and API route × every role.

Staff see every finding; an FSE user its establishments' (`own_fse`), a property owner those of the
FSEs on its parcels, a hauler none: outside the scope, 404 (docs/architecture.md, "Who may see
what", D4). The FOG Manager and inspectors close findings (`roles.FINDING_RECORDERS`); any other
role that sees the finding is refused (403) before its input is read.

Run by findings/tests/test_access.py; the kit is fogcontrol/testing/access.py.
"""

from __future__ import annotations

from fogcontrol.core.roles import Role
from fogcontrol.findings.models import Finding
from fogcontrol.findings.roles import FINDING_RECORDERS
from fogcontrol.findings.services import finding_open
from fogcontrol.program.selectors import town_today
from fogcontrol.testing.access import api, page

OWN = frozenset({Role.FSE})


def build(town) -> None:
    """An open finding at the FSE's own establishment, from an inspection (D4)."""
    town.records["finding"] = finding_open(
        establishment=town.own_fse,
        provision="C3",
        item="drain_screens",
        description="Drain screens are missing",
        began_on=town_today(),
        source=Finding.Source.INSPECTION,
        source_id=1,
        acting_user=town.users[Role.INSPECTOR],
    )


def _f(t):
    return t["finding"].pk


ROUTES = [
    page("findings:list", "/findings/", record=False),
    page(
        "findings:close",
        lambda t: f"/findings/{_f(t)}/close/",
        method="post",
        owners=OWN,
        may=FINDING_RECORDERS,
    ),
    api("finding-list", "/api/v1/findings/", record=False),
    api("finding-detail", lambda t: f"/api/v1/findings/{_f(t)}/", owners=OWN),
    api(
        "finding-close",
        lambda t: f"/api/v1/findings/{_f(t)}/close/",
        method="post",
        owners=OWN,
        may=FINDING_RECORDERS,
    ),
]
