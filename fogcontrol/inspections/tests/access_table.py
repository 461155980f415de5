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
from fogcontrol.inspections.roles import CHARGE_CANCELLERS, CHARGE_RECORDERS, INSPECTORS, SCHEDULERS
from fogcontrol.inspections.services import compliance_charge_record, inspection_complete, photo_add
from fogcontrol.inspections.tests.helpers import key, photo_bytes, ready, scheduled
from fogcontrol.program.selectors import town_today
from fogcontrol.sampling.tests.helpers import schedule_with_rates
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
    # A D6 charge owed by the FSE for the follow-up.
    schedule_with_rates()
    town.records["charge"] = compliance_charge_record(
        establishment=town.own_fse,
        kind="follow_up_inspection",
        quantity="1.5",
        reason="Follow-up of the missing signage",
        incurred_on=town_today(),
        inspection=town.records["done"],
        acting_user=inspector,
    )


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
    # D6 charges: staff all, the FSE its own (read-only); recorded by the FOG Manager and
    # inspectors, cancelled by the FOG Manager.
    page("inspections:charges", f"{P}/charges/", record=False),
    page("inspections:charge_new", f"{P}/charges/new/", record=False, may=CHARGE_RECORDERS),
    page(
        "inspections:charge_new",
        f"{P}/charges/new/",
        record=False,
        method="post",
        may=CHARGE_RECORDERS,
        body={},
        label="record",
    ),
    page(
        "inspections:charge_cancel",
        lambda t: f"{P}/charges/{t['charge'].pk}/cancel/",
        method="post",
        owners=OWN,
        may=CHARGE_CANCELLERS,
    ),
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
    api("compliance-charge-list", "/api/v1/compliance-charges/", record=False),
    api(
        "compliance-charge-list",
        "/api/v1/compliance-charges/",
        record=False,
        method="post",
        may=CHARGE_RECORDERS,
        body={},
        label="record",
    ),
    api("compliance-charge-detail", lambda t: f"/api/v1/compliance-charges/{t['charge'].pk}/", owners=OWN),
    api(
        "compliance-charge-cancel",
        lambda t: f"/api/v1/compliance-charges/{t['charge'].pk}/cancel/",
        method="post",
        owners=OWN,
        may=CHARGE_CANCELLERS,
    ),
]

ROUTES = PAGES + APIS
