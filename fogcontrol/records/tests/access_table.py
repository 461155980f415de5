"""Who may open and do what with an FSE's own records: every page and API route × every role.

Staff see every record; an FSE user its own establishment's (`own_fse`) training, pickups,
requirements, submissions and obligations; a property owner those of the FSEs on its parcels (not
`own_fse`); a hauler only its company's waste-oil pickups, never what its customers owe the Town
(their records pages and obligations answer it 404). Outside the scope: 404 (docs/architecture.md,
"Who may see what", C2, C4, C5, D7, E9, F2, F3, F6). Who may take each step (`records.roles`): the FSE
and the FOG Manager and inspectors record training and submit reports (`RECORD_KEEPERS`), its hauler
too records pickups (`PICKUP_RECORDERS`), the FOG Manager alone sets and lifts requirements, the FOG
Manager and inspectors review. Any other role is refused (403) before its input is read. The pickups
page's own form serves the FSE and the hauler: staff record pickups on an establishment's page.
The review queue is Town staff's (404 for outside users). The BMP materials (C4 training sheet, C7
signs) are the FSE's, the property owner's and staff's (404 for a hauler); an FSE's prefilled sheet
is its own user's and staff's.

Run by records/tests/test_access.py; the kit is fogcontrol/testing/access.py.
"""

from __future__ import annotations

from decimal import Decimal

from fogcontrol.core.roles import Role
from fogcontrol.records import services
from fogcontrol.records.roles import (
    BMP_READERS,
    PICKUP_RECORDERS,
    RECORD_KEEPERS,
    REQUIREMENT_SETTERS,
    REVIEWERS,
)
from fogcontrol.records.tests.helpers import days_ago, pdf_upload, signature_data_url
from fogcontrol.testing.access import STAFF, api, page

FSE, HAULER = Role.FSE, Role.HAULER
OWN = frozenset({FSE})
OWN_PICKUP = frozenset({FSE, HAULER})  # the FSE's pickup, by its hauler
SUBJECTS = ["dry_wipe", "food_waste", "absorbents", "waste_oil"]


def build(town) -> None:
    """The FSE's training session (a signed sheet and one roster line signed on screen), a pickup by
    its hauler with the receipt, a BMP report the FOG Manager requires, and the FSE's submission."""
    fse, hauler = town.users[FSE], town.users[HAULER]
    session = services.training_session_record(
        establishment=town.own_fse, held_on=days_ago(1), trainer="Ana", subjects=SUBJECTS,
        acting_user=fse, signed_sheet=pdf_upload("sheet.pdf"),
    )  # fmt: skip
    town.records["session"] = session
    town.records["line"] = services.training_attendance_sign(
        session=session, employee_name="Sam Cook", hire_date=days_ago(30), acting_user=fse,
        signature=signature_data_url(),
    )  # fmt: skip
    town.records["pickup"] = services.oil_pickup_record(
        establishment=town.own_fse, picked_up_on=days_ago(2), gallons=Decimal("10"), hauler=town.hauler,
        acting_user=hauler, receipt=pdf_upload("receipt.pdf"),
    )  # fmt: skip
    requirement = services.requirement_set(
        establishment=town.own_fse, kind="bmp_status", unit="months", every=6, first_due_on=days_ago(10), requested_on=days_ago(40),
        acting_user=town.users[Role.FOG_MANAGER],
    )  # fmt: skip
    town.records["requirement"] = requirement
    town.records["submission"] = services.submission_submit(
        requirement=requirement, uploaded_file=pdf_upload(), acting_user=fse
    )


def _e(t):
    return t.own_fse.pk


def _s(t):
    return t["session"].pk


def _sub(t):
    return t["submission"].pk


# --- Pages --------------------------------------------------------------------------------------

R = "/records"
PAGES = [
    # Staff land on the review queue; the others on the establishments whose records they keep.
    page("records:home", f"{R}/", record=False, special=dict.fromkeys(STAFF, 302)),
    page("records:establishment", lambda t: f"{R}/establishments/{_e(t)}/", owners=OWN),
    page("records:obligations", lambda t: f"{R}/establishments/{_e(t)}/obligations/", owners=OWN),
    page(
        "records:training_add",
        lambda t: f"{R}/establishments/{_e(t)}/training/",
        method="post",
        owners=OWN,
        may=RECORD_KEEPERS,
    ),
    page(
        "records:pickup_add",
        lambda t: f"{R}/establishments/{_e(t)}/pickups/",
        method="post",
        owners=OWN,
        may=PICKUP_RECORDERS,
    ),
    page(
        "records:requirement_add",
        lambda t: f"{R}/establishments/{_e(t)}/requirements/",
        method="post",
        owners=OWN,
        may=REQUIREMENT_SETTERS,
    ),
    page(
        "records:submission_add",
        lambda t: f"{R}/establishments/{_e(t)}/submissions/",
        method="post",
        owners=OWN,
        may=RECORD_KEEPERS,
    ),
    page("records:session", lambda t: f"{R}/training/{_s(t)}/", owners=OWN),
    page(
        "records:session",
        lambda t: f"{R}/training/{_s(t)}/",
        method="post",
        owners=OWN,
        may=RECORD_KEEPERS,
        label="sign",
    ),
    page("records:training_sheet", lambda t: f"{R}/training/{_s(t)}/sheet.pdf", owners=OWN),
    page("records:signed_sheet", lambda t: f"{R}/training/{_s(t)}/signed-sheet/", owners=OWN),
    page("records:signature", lambda t: f"{R}/signatures/{t['line'].pk}/", owners=OWN),
    page("records:pickups", f"{R}/pickups/", record=False),
    page(
        "records:pickups",
        f"{R}/pickups/",
        record=False,
        method="post",
        may=frozenset({FSE, HAULER}),
        label="record",
    ),
    page("records:receipt", lambda t: f"{R}/pickups/{t['pickup'].pk}/receipt/", owners=OWN_PICKUP),
    page("records:submission", lambda t: f"{R}/submissions/{_sub(t)}/", owners=OWN),
    page(
        "records:submission",
        lambda t: f"{R}/submissions/{_sub(t)}/",
        method="post",
        owners=OWN,
        may=REVIEWERS,
        body={"step": "review"},
        label="review",
    ),
    page(
        "records:submission",
        lambda t: f"{R}/submissions/{_sub(t)}/",
        method="post",
        owners=OWN,
        may=RECORD_KEEPERS,
        label="correct",
    ),
    page("records:submission_file", lambda t: f"{R}/submissions/{_sub(t)}/file/", owners=OWN),
    page("records:review_queue", f"{R}/review/", record=False, scope=STAFF),
    # The BMP materials (C4, C7): the FSE, the property owner and staff; a hauler is told they do
    # not exist. The training sheet prefilled with an FSE's name: its own user and staff.
    page("records:bmp", f"{R}/bmp/", record=False, scope=BMP_READERS),
    page("records:bmp_pdf", f"{R}/bmp/sign-waste-oil.pdf", record=False, scope=BMP_READERS),
    page(
        "records:bmp_training_sheet", lambda t: f"{R}/establishments/{_e(t)}/training-sheet.pdf", owners=OWN
    ),
]

# --- API ----------------------------------------------------------------------------------------

A = "/api/v1"
APIS = [
    api("training-session-list", f"{A}/training-sessions/", record=False),
    api(
        "training-session-list",
        f"{A}/training-sessions/",
        record=False,
        method="post",
        may=RECORD_KEEPERS,
        label="record",
    ),
    api("training-session-detail", lambda t: f"{A}/training-sessions/{_s(t)}/", owners=OWN),
    api(
        "training-session-sign",
        lambda t: f"{A}/training-sessions/{_s(t)}/sign/",
        method="post",
        owners=OWN,
        may=RECORD_KEEPERS,
    ),
    api("oil-pickup-list", f"{A}/oil-pickups/", record=False),
    api(
        "oil-pickup-list",
        f"{A}/oil-pickups/",
        record=False,
        method="post",
        may=PICKUP_RECORDERS,
        label="record",
    ),
    api("oil-pickup-detail", lambda t: f"{A}/oil-pickups/{t['pickup'].pk}/", owners=OWN_PICKUP),
    api("record-requirement-list", f"{A}/record-requirements/", record=False),
    api(
        "record-requirement-list",
        f"{A}/record-requirements/",
        record=False,
        method="post",
        may=REQUIREMENT_SETTERS,
        label="set",
    ),
    api("record-requirement-detail", lambda t: f"{A}/record-requirements/{t['requirement'].pk}/", owners=OWN),
    api(
        "record-requirement-end",
        lambda t: f"{A}/record-requirements/{t['requirement'].pk}/end/",
        method="post",
        owners=OWN,
        may=REQUIREMENT_SETTERS,
    ),
    api("record-submission-list", f"{A}/record-submissions/", record=False),
    api(
        "record-submission-list",
        f"{A}/record-submissions/",
        record=False,
        method="post",
        may=RECORD_KEEPERS,
        label="submit",
    ),
    api("record-submission-detail", lambda t: f"{A}/record-submissions/{_sub(t)}/", owners=OWN),
    api(
        "record-submission-review",
        lambda t: f"{A}/record-submissions/{_sub(t)}/review/",
        method="post",
        owners=OWN,
        may=REVIEWERS,
    ),
    api(
        "record-submission-correct",
        lambda t: f"{A}/record-submissions/{_sub(t)}/correct/",
        method="post",
        owners=OWN,
        may=RECORD_KEEPERS,
    ),
    # What the FSE owes: a hauler sees its customers in the registry, not what they owe (404).
    api("establishment-obligations", lambda t: f"{A}/establishments/{_e(t)}/obligations/", owners=OWN),
    api("bmp-material-list", f"{A}/bmp-materials/", record=False, scope=BMP_READERS),
    api("bmp-material-pdf", f"{A}/bmp-materials/sign-no-grease/pdf/", record=False, scope=BMP_READERS),
    api("establishment-training-sheet", lambda t: f"{A}/establishments/{_e(t)}/training-sheet/", owners=OWN),
]

ROUTES = PAGES + APIS
