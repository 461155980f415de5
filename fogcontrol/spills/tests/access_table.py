"""Who may open and do what with spills: every page and API route × every role.

Staff see every spill, notice and import; an FSE user the spills linked to its establishment
(`own_fse`) and its own spill notices (J1); a property owner those of the FSEs on its parcels (not
`own_fse`); a hauler none. Outside the scope: 404 (docs/architecture.md, "Who may see what", I1, J1).
Who may take each step (`spills.roles`): the FOG Manager and inspectors record spills, link FSEs and
record costs (`SPILL_RECORDERS`); the FSE and they report spills and send the written report
(`REPORTERS`); the FOG Manager alone applies an import of the State's files. Any other role is
refused (403) before its input is read. Imports are Town business (404 for outside users).

Run by spills/tests/test_access.py; the kit is fogcontrol/testing/access.py.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from fogcontrol.core.roles import Role
from fogcontrol.program.selectors import town_today
from fogcontrol.spills import services
from fogcontrol.spills.imports.services import spill_import_upload
from fogcontrol.spills.tests.ciwqs_files import plsd_row, plsd_upload
from fogcontrol.spills.tests.helpers import at, fog_spill, notice, photo_upload
from fogcontrol.testing.access import STAFF, api, page

# Stated here rather than imported, so that a change of policy has to change this table too.
RECORDERS = frozenset({Role.FOG_MANAGER, Role.INSPECTOR})
REPORTERS = frozenset({Role.FSE, Role.FOG_MANAGER, Role.INSPECTOR})
APPLIERS = frozenset({Role.FOG_MANAGER})
OWN = frozenset({Role.FSE})


def build(town) -> None:
    """A FOG-caused overflow linked to the FSE's establishment with a cost, the FSE's own notice, and
    a checked import of one State row."""
    spill = fog_spill(town, links=[(town.own_fse, "Upstream of the blocked main")])
    services.cost_record(
        spill=spill, kind="staff", amount=Decimal("300"), debtor="fse", debtor_name="Blue Plate Diner",
        establishment=town.own_fse, invoiced_on=town_today(), acting_user=town.users[Role.FOG_MANAGER],
    )  # fmt: skip
    town.records["spill"] = spill
    town.records["photo"] = services.spill_photo_add(
        spill=spill, uploaded_file=photo_upload(), caption="Manhole", acting_user=town.users[Role.INSPECTOR]
    )
    town.records["report"] = notice(town, day=town_today() - dt.timedelta(days=1))
    town.records["import"] = spill_import_upload(
        acting_user=town.users[Role.INSPECTOR], uploaded_file=plsd_upload([plsd_row(900001)])
    )


def _s(t):
    return t["spill"].pk


def _r(t):
    return t["report"].pk


def _i(t):
    return t["import"].pk


def _spill_body(t):
    return {
        "address": "12 Elm Street", "started_at": at(town_today()).isoformat(), "volume_spilled": "40",
        "destination": "street", "cause": "grease",
    }  # fmt: skip


def _report_body(t):
    return {
        "establishment": t.own_fse.pk, "occurred_at": at(town_today() - dt.timedelta(days=1)).isoformat(),
        "location": "Kitchen", "what": "Grease trap overflowed", "gallons": "3",
    }  # fmt: skip


WRITTEN = {"incident_on": "2026-01-05", "cause": "c", "steps_taken": "s", "prevention": "p"}

ROUTES = [
    page("spills:list", "/spills/", record=False),
    page("spills:new", "/spills/new/", record=False, may=RECORDERS),
    page("spills:detail", lambda t: f"/spills/{_s(t)}/", owners=OWN),
    page("spills:link", lambda t: f"/spills/{_s(t)}/link/", method="post", owners=OWN, may=RECORDERS),
    page("spills:cost", lambda t: f"/spills/{_s(t)}/costs/", method="post", owners=OWN, may=RECORDERS),
    page("spills:photo_add", lambda t: f"/spills/{_s(t)}/photos/", method="post", owners=OWN, may=RECORDERS),
    page("spills:photo", lambda t: f"/spills/photos/{t['photo'].pk}/", owners=OWN),
    page("spills:reports", "/spills/reports/", record=False),
    page("spills:report_new", "/spills/reports/new/", record=False, may=REPORTERS),
    page("spills:report_detail", lambda t: f"/spills/reports/{_r(t)}/", owners=OWN),
    page(
        "spills:report_written",
        lambda t: f"/spills/reports/{_r(t)}/written/",
        method="post",
        owners=OWN,
        may=REPORTERS,
        body=WRITTEN,
    ),  # fmt: skip
    page("spills:imports", "/spills/imports/", record=False, scope=STAFF),
    page(
        "spills:imports",
        "/spills/imports/",
        record=False,
        scope=STAFF,
        method="post",
        may=RECORDERS,
        label="upload",
        ok=400,
    ),
    page("spills:import_detail", lambda t: f"/spills/imports/{_i(t)}/", scope=STAFF),
    page(
        "spills:import_apply",
        lambda t: f"/spills/imports/{_i(t)}/apply/",
        method="post",
        scope=STAFF,
        may=APPLIERS,
    ),
    api("spill-list", "/api/v1/spills/", record=False),
    api(
        "spill-list",
        "/api/v1/spills/",
        record=False,
        method="post",
        may=RECORDERS,
        body=_spill_body,
        label="record",
    ),
    api("spill-detail", lambda t: f"/api/v1/spills/{_s(t)}/", owners=OWN),
    api("spill-report-list", "/api/v1/spill-reports/", record=False),
    api(
        "spill-report-list",
        "/api/v1/spill-reports/",
        record=False,
        method="post",
        may=REPORTERS,
        body=_report_body,
        label="report",
    ),  # fmt: skip
    api("spill-report-detail", lambda t: f"/api/v1/spill-reports/{_r(t)}/", owners=OWN),
    api(
        "spill-report-written",
        lambda t: f"/api/v1/spill-reports/{_r(t)}/written/",
        method="post",
        owners=OWN,
        may=REPORTERS,
        body=WRITTEN,
    ),  # fmt: skip
    api("spill-import-list", "/api/v1/imports/spills/", record=False, scope=STAFF),
    api(
        "spill-import-list",
        "/api/v1/imports/spills/",
        record=False,
        scope=STAFF,
        method="post",
        may=RECORDERS,
        label="upload",
    ),
    api("spill-import-detail", lambda t: f"/api/v1/imports/spills/{_i(t)}/", scope=STAFF),
    api("spill-import-rows", lambda t: f"/api/v1/imports/spills/{_i(t)}/rows/", scope=STAFF),
    api(
        "spill-import-apply",
        lambda t: f"/api/v1/imports/spills/{_i(t)}/apply/",
        method="post",
        scope=STAFF,
        may=APPLIERS,
    ),
]
