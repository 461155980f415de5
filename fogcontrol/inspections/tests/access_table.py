"""Who may open and do what in inspections: every page and API route × every role.

Staff see every inspection; an FSE user sees its establishments' **completed** inspections, never a
draft or a cancelled visit (404), a property owner those of the FSEs on its parcels, a hauler none
(docs/architecture.md, "Who may see what", D1, D8). The due list and the inspector's day are Town
staff's: outside users are told they do not exist (404), on the page and in the API alike. The
FOG Manager and inspectors fill in, complete and add photos to a visit (`roles.INSPECTORS`) and
schedule, assign and cancel visits (`roles.SCHEDULERS`); any other role is refused (403) before its
input is read (`roles.STEP_ROLES`).

Run by inspections/tests/test_access.py; the kit is fogcontrol/testing/access.py.
"""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile

from fogcontrol.core.roles import Role
from fogcontrol.inspections.roles import INSPECTORS, SCHEDULERS
from fogcontrol.inspections.services import inspection_complete, photo_add
from fogcontrol.inspections.tests.helpers import key, photo_bytes, ready, scheduled
from fogcontrol.testing.access import STAFF, api, page

FSE = Role.FSE
OWN = frozenset({FSE})  # a completed inspection of the FSE's own establishment


def build(town) -> None:
    """Two visits to the FSE's own establishment: a draft, and a completed one with a failed item
    (so a finding) and a photo."""
    inspector = town.users[Role.INSPECTOR]
    town.records["draft"] = scheduled(town.own_fse, inspector)
    visit = ready(scheduled(town.own_fse, inspector), inspector, answers={"signage": "fail"})
    upload = SimpleUploadedFile("kitchen.jpg", photo_bytes(), content_type="image/jpeg")
    town.records["photo"] = photo_add(inspection=visit, acting_user=inspector, file=upload, item="signage")
    town.records["done"] = inspection_complete(inspection=visit, acting_user=inspector, idempotency_key=key())


def _draft(t):
    return t["draft"].pk


def _done(t):
    return t["done"].pk


# --- Pages --------------------------------------------------------------------------------------

P = "/inspections"
PAGES = [
    page("inspections:list", f"{P}/", record=False),
    page("inspections:due", f"{P}/due/", record=False, scope=STAFF),
    page("inspections:day", f"{P}/day/", record=False, scope=STAFF),
    page(
        "inspections:schedule",
        lambda t: f"{P}/schedule/{t.own_fse.pk}/",
        method="post",
        scope=STAFF,
        may=SCHEDULERS,
        body={},
    ),
    page("inspections:detail", lambda t: f"{P}/{_draft(t)}/", label="draft"),
    page("inspections:detail", lambda t: f"{P}/{_done(t)}/", owners=OWN, label="completed"),
    page("inspections:edit", lambda t: f"{P}/{_draft(t)}/edit/", may=INSPECTORS),
    page("inspections:edit", lambda t: f"{P}/{_draft(t)}/edit/", method="post", may=INSPECTORS, label="save"),
    page("inspections:complete", lambda t: f"{P}/{_draft(t)}/complete/", method="post", may=INSPECTORS),
    page("inspections:photo_upload", lambda t: f"{P}/{_draft(t)}/photos/", method="post", may=INSPECTORS),
    page("inspections:assign", lambda t: f"{P}/{_draft(t)}/assign/", method="post", may=SCHEDULERS),
    page("inspections:cancel", lambda t: f"{P}/{_draft(t)}/cancel/", method="post", may=SCHEDULERS),
    page(
        "inspections:follow_up",
        lambda t: f"{P}/{_done(t)}/follow-up/",
        method="post",
        owners=OWN,
        may=SCHEDULERS,
    ),
    page("inspections:report", lambda t: f"{P}/{_done(t)}/report.pdf", owners=OWN),
    page("inspections:photo", lambda t: f"{P}/photos/{t['photo'].pk}/", owners=OWN),
]

# --- API ----------------------------------------------------------------------------------------

A = "/api/v1/inspections"
APIS = [
    api("inspections-due", f"{A}/due/", record=False, scope=STAFF),
    api("inspection-list", f"{A}/", record=False),
    api("inspection-list", f"{A}/", record=False, method="post", may=SCHEDULERS, body={}, label="schedule"),
    api("inspection-detail", lambda t: f"{A}/{_draft(t)}/", label="draft"),
    api("inspection-detail", lambda t: f"{A}/{_done(t)}/", owners=OWN, label="completed"),
    api(
        "inspection-detail",
        lambda t: f"{A}/{_draft(t)}/",
        method="patch",
        may=INSPECTORS,
        body={},
        label="save",
    ),
    api("inspection-complete", lambda t: f"{A}/{_draft(t)}/complete/", method="post", may=INSPECTORS),
    api("inspection-assign", lambda t: f"{A}/{_draft(t)}/assign/", method="post", may=SCHEDULERS),
    api("inspection-cancel", lambda t: f"{A}/{_draft(t)}/cancel/", method="post", may=SCHEDULERS),
    api("inspection-photos", lambda t: f"{A}/{_draft(t)}/photos/", method="post", may=INSPECTORS),
]

ROUTES = PAGES + APIS
