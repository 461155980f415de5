"""Who may open and do what in the permits app: every page and API route × every role.

Staff see every application and permit; an FSE user its own (`own_fse`), a property owner user those
of the establishments on its parcels (`mall_fses`), a hauler user its customers' permits. Outside
the scope: 404. Steps, by role (permits/roles.py, permits/actions.py): the applicant (the FSE's own
users, the FOG Manager and inspectors) drafts, submits, responds, renews and asks for a change;
reviewers (FOG Manager, inspectors) review and inspect; the FOG Manager decides, issues, modifies
(B7) and records orders (L1-L6, M1-M3); the FOG Manager and the billing clerk record payments (B3).
A role that may never take a step is refused (403) before its input is read. Fee schedules are
public (every signed-in user). The renewals due and the establishments without a permit are staff
lists: outside users are told they do not exist (404), in pages and API alike.

Run by permits/tests/test_access.py; the kit is fogcontrol/testing/access.py.
"""

from __future__ import annotations

import datetime as dt

from django.core.files.uploadedfile import SimpleUploadedFile

from fogcontrol.core.roles import Role
from fogcontrol.permits import services
from fogcontrol.permits.models import PermitNotice
from fogcontrol.permits.roles import APPLICANTS, DECIDERS, DECISION_RECORDERS, FEE_COLLECTORS, REVIEWERS
from fogcontrol.permits.tests.conftest import B3_ANSWERS, FIXTURES
from fogcontrol.permits.tests.factories import PermitFactory, fee_schedule
from fogcontrol.permits.tests.orders import noticed_order
from fogcontrol.program.selectors import town_today
from fogcontrol.testing.access import ALL_ROLES, STAFF, api, page

FSE, OWNER, HAULER = Role.FSE, Role.PROPERTY_OWNER, Role.HAULER
MANAGER = frozenset({Role.FOG_MANAGER})
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def build(town) -> None:
    """A draft of the FSE's own establishment, with a document; a submitted application of a mall
    tenant (its fees owed); the FSE's permit in force with a proposed B7 modification, its notice
    and a suspension order in process; another establishment's permit; a remodel notice with plans."""
    manager, fse = town.users[Role.FOG_MANAGER], town.users[FSE]
    town.records["schedule"] = fee_schedule()
    draft = services.application_create(
        acting_user=fse, establishment=town.own_fse, fixtures=FIXTURES, **B3_ANSWERS
    )
    town.records["draft"] = draft
    town.records["document"] = services.application_add_document(
        application=draft,
        acting_user=fse,
        uploaded_file=SimpleUploadedFile("plan.pdf", PDF, "application/pdf"),
    )
    mall = services.application_create(
        acting_user=manager, establishment=town.mall_fses[0], fixtures=FIXTURES, **B3_ANSWERS
    )
    town.records["submitted"] = services.application_submit(application=mall, acting_user=manager)
    town.records["fee"] = town.records["submitted"].fees.first()
    today = town_today()
    # Eleven months into its term: inside the B6 renewal window, so the renewal step is open.
    term = {
        "first_issued_on": today - dt.timedelta(days=330),
        "term_start": today - dt.timedelta(days=330),
        "valid_until": today + dt.timedelta(days=35),
    }
    permit = PermitFactory(establishment=town.own_fse, **term)
    town.records["permit"] = permit
    town.records["other_permit"] = PermitFactory(establishment=town.other_fse, **term)
    town.records["modification"] = services.permit_modification_propose(
        permit=permit,
        acting_user=manager,
        changes={"conditions": "Clean the baffles monthly."},
        reason="Heavy FOG load",
    )
    town.records["notice"] = PermitNotice.objects.filter(permit=permit).latest("pk")
    town.records["order"] = noticed_order(permit, manager)
    remodel = services.remodel_notice_file(
        acting_user=fse,
        establishment=town.own_fse,
        kind="remodel",
        description="New cook line",
        planned_start=town_today() + dt.timedelta(days=90),
    )
    town.records["remodel"] = services.remodel_plans_submit(
        notice=remodel, acting_user=fse, plans=SimpleUploadedFile("plans.pdf", PDF, "application/pdf")
    )


def _draft(t):
    return t["draft"].pk


def _permit(t):
    return t["permit"].pk


OWN_APPLICATION = frozenset({FSE})
MALL_APPLICATION = frozenset({OWNER})
OWN_PERMIT = frozenset({FSE, HAULER})  # the FSE's own; a customer of the hauler
OWN_ORDER = frozenset({FSE})  # an order against the FSE's permit; its hauler does not see orders


# --- Pages --------------------------------------------------------------------------------------


def _step(step, *, may, body=None, application=_draft, owners=OWN_APPLICATION, **kwargs):
    return page(
        "permits:application_step",
        lambda t: f"/permits/applications/{application(t)}/{step}/",
        method="post",
        may=frozenset(may),
        owners=owners,
        body=body,
        label=step,
        **kwargs,
    )


PAGES = [
    page("permits:home", "/permits/", record=False),
    page("permits:application_list", "/permits/applications/", record=False),
    page("permits:application_new", "/permits/applications/new/", record=False, may=APPLICANTS),
    page(
        "permits:application_new",
        "/permits/applications/new/",
        record=False,
        may=APPLICANTS,
        method="post",
        body={},
        label="open",
    ),  # fmt: skip
    page(
        "permits:application_detail", lambda t: f"/permits/applications/{_draft(t)}/", owners=OWN_APPLICATION
    ),
    page(
        "permits:application_detail",
        lambda t: f"/permits/applications/{t['submitted'].pk}/",
        owners=MALL_APPLICATION,
        label="a mall tenant's",
    ),
    page(
        "permits:application_edit",
        lambda t: f"/permits/applications/{_draft(t)}/edit/",
        owners=OWN_APPLICATION,
        may=APPLICANTS,
    ),
    page(
        "permits:application_edit",
        lambda t: f"/permits/applications/{_draft(t)}/edit/",
        owners=OWN_APPLICATION,
        may=APPLICANTS,
        method="post",
        body={"meals_per_day": "abc"},
        label="save",
    ),
    page(
        "permits:application_document",
        lambda t: f"/permits/applications/{_draft(t)}/documents/{t['document'].pk}/",
        owners=OWN_APPLICATION,
    ),
    _step("submit", may=APPLICANTS),
    _step("withdraw", may=APPLICANTS),
    _step("note", may=APPLICANTS),
    _step("document", may=APPLICANTS),
    _step("respond", may=APPLICANTS),
    _step("start-review", may=REVIEWERS),
    _step("request-information", may=REVIEWERS),
    _step("schedule-inspection", may=REVIEWERS),
    _step("record-inspection", may=REVIEWERS),
    _step("accept", may=DECIDERS),
    _step("reject", may=DECIDERS),
    _step("issue", may=DECIDERS),
    _step("pay-fee", may=FEE_COLLECTORS, application=lambda t: t["submitted"].pk, owners=MALL_APPLICATION),
    _step("waive-fee", may=DECIDERS, application=lambda t: t["submitted"].pk, owners=MALL_APPLICATION),
    page("permits:permit_list", "/permits/list/", record=False),
    page("permits:renewal_list", "/permits/renewals/", scope=STAFF),
    page("permits:without_permit", "/permits/without-permit/", scope=STAFF),
    page("permits:remodel_list", "/permits/remodel/", record=False),
    page("permits:remodel_new", "/permits/remodel/new/", record=False, may=APPLICANTS),
    page(
        "permits:remodel_new",
        "/permits/remodel/new/",
        record=False,
        may=APPLICANTS,
        method="post",
        body={"description": ""},
        label="file",
    ),
    page("permits:remodel_detail", lambda t: f"/permits/remodel/{t['remodel'].pk}/", owners=OWN_APPLICATION),
    page(
        "permits:remodel_plans",
        lambda t: f"/permits/remodel/{t['remodel'].pk}/plans/",
        owners=OWN_APPLICATION,
    ),
    page("permits:fee_schedules", "/permits/fees/", record=False),
    page(
        "permits:fee_schedules",
        "/permits/fees/",
        record=False,
        method="post",
        may=MANAGER,
        body={},
        label="record a version",
    ),
    page(
        "permits:notice_letter",
        lambda t: f"/permits/notices/{t['notice'].pk}/letter/",
        owners=OWN_APPLICATION,
    ),
    page(
        "permits:modification_withdraw",
        lambda t: f"/permits/modifications/{t['modification'].pk}/withdraw/",
        method="post",
        owners=OWN_PERMIT,
        may=MANAGER,
    ),
    page("permits:permit_detail", lambda t: f"/permits/{_permit(t)}/", owners=OWN_PERMIT),
    page("permits:permit_detail", lambda t: f"/permits/{t['other_permit'].pk}/", label="another FSE's"),
    page("permits:permit_pdf", lambda t: f"/permits/{_permit(t)}/pdf/", owners=OWN_PERMIT),
    page("permits:permit_version_pdf", lambda t: f"/permits/{_permit(t)}/versions/1/pdf/", owners=OWN_PERMIT),
    page(
        "permits:permit_renew",
        lambda t: f"/permits/{_permit(t)}/renew/",
        method="post",
        owners=OWN_PERMIT,
        may=APPLICANTS,
    ),
    page(
        "permits:permit_change", lambda t: f"/permits/{_permit(t)}/change/", owners=OWN_PERMIT, may=APPLICANTS
    ),
    page(
        "permits:permit_change",
        lambda t: f"/permits/{_permit(t)}/change/",
        owners=OWN_PERMIT,
        may=APPLICANTS,
        method="post",
        body={},
        label="open",
    ),
    page("permits:permit_modify", lambda t: f"/permits/{_permit(t)}/modify/", owners=OWN_PERMIT, may=MANAGER),
    page(
        "permits:permit_modify",
        lambda t: f"/permits/{_permit(t)}/modify/",
        owners=OWN_PERMIT,
        may=MANAGER,
        method="post",
        body={},
        label="propose",
    ),
    page(
        "permits:permit_status",
        lambda t: f"/permits/{_permit(t)}/status/suspend/",
        method="post",
        owners=OWN_PERMIT,
        may=MANAGER,
        body={},
    ),
    page("permits:order_new", lambda t: f"/permits/{_permit(t)}/orders/new/", owners=OWN_PERMIT, may=MANAGER),
    page(
        "permits:order_new",
        lambda t: f"/permits/{_permit(t)}/orders/new/",
        owners=OWN_PERMIT,
        may=MANAGER,
        method="post",
        body={},
        label="record",
    ),
    page(
        "permits:order_decide",
        lambda t: f"/permits/orders/{t['order'].pk}/decide/",
        owners=OWN_ORDER,
        may=DECISION_RECORDERS,
    ),
    page(
        "permits:order_decide",
        lambda t: f"/permits/orders/{t['order'].pk}/decide/",
        owners=OWN_ORDER,
        may=DECISION_RECORDERS,
        method="post",
        body={},
        label="decide",
    ),
    page(
        "permits:order_appeal",
        lambda t: f"/permits/orders/{t['order'].pk}/appeal/",
        owners=OWN_ORDER,
        may=DECISION_RECORDERS,
    ),
    page(
        "permits:order_appeal",
        lambda t: f"/permits/orders/{t['order'].pk}/appeal/",
        owners=OWN_ORDER,
        may=DECISION_RECORDERS,
        method="post",
        body={},
        label="record",
    ),
]


# --- API ----------------------------------------------------------------------------------------

A = "/api/v1/permit-applications"


def _app_action(name, *, may, application=_draft, owners=OWN_APPLICATION, body=None):
    return api(
        f"permit-application-{name}",
        lambda t: f"{A}/{application(t)}/{name}/",
        method="post",
        may=frozenset(may),
        owners=owners,
        body=body or {},
    )


def _permit_action(name, *, may, method="post", body=None):
    return api(
        f"permit-{name}",
        lambda t: f"/api/v1/permits/{_permit(t)}/{name}/",
        method=method,
        may=frozenset(may),
        owners=OWN_PERMIT,
        body=body,
    )


API_ROUTES = [
    api("permit-application-list", f"{A}/", record=False),
    api(
        "permit-application-list",
        f"{A}/",
        record=False,
        method="post",
        may=APPLICANTS,
        body={},
        label="create",
    ),
    api("permit-application-detail", lambda t: f"{A}/{_draft(t)}/", owners=OWN_APPLICATION),
    api(
        "permit-application-detail",
        lambda t: f"{A}/{t['submitted'].pk}/",
        owners=MALL_APPLICATION,
        label="a mall tenant's",
    ),
    api(
        "permit-application-detail",
        lambda t: f"{A}/{_draft(t)}/",
        owners=OWN_APPLICATION,
        method="patch",
        may=APPLICANTS,
        body={"meals_per_day": "abc"},
        label="update",
    ),
    api(
        "permit-application-detail",
        lambda t: f"{A}/{_draft(t)}/",
        owners=OWN_APPLICATION,
        method="delete",
        scope=ALL_ROLES,
        ok=405,
        label="delete",
    ),
    api(
        "permit-application-documents",
        lambda t: f"{A}/{_draft(t)}/documents/",
        scope=ALL_ROLES,
        ok=405,
        label="read (POST only)",
    ),  # fmt: skip
    api(
        "permit-application-documents",
        lambda t: f"{A}/{_draft(t)}/documents/",
        owners=OWN_APPLICATION,
        method="post",
        may=APPLICANTS,
        body={},
        label="add",
    ),
    api("permit-application-sizing", lambda t: f"{A}/{_draft(t)}/sizing/", owners=OWN_APPLICATION),
    _app_action("submit", may=APPLICANTS),
    _app_action("withdraw", may=APPLICANTS),
    _app_action("note", may=APPLICANTS),
    _app_action("respond", may=APPLICANTS),
    _app_action("start-review", may=REVIEWERS),
    _app_action("request-information", may=REVIEWERS),
    _app_action("schedule-inspection", may=REVIEWERS),
    _app_action("record-inspection", may=REVIEWERS),
    _app_action("accept", may=DECIDERS),
    _app_action("reject", may=DECIDERS),
    _app_action("issue", may=DECIDERS),
    api("permit-renewal-list", "/api/v1/permit-renewals/", scope=STAFF),
    api("permit-modification-list", "/api/v1/permit-modifications/", record=False),
    api(
        "permit-modification-detail",
        lambda t: f"/api/v1/permit-modifications/{t['modification'].pk}/",
        owners=OWN_PERMIT,
    ),
    api(
        "permit-modification-withdraw",
        lambda t: f"/api/v1/permit-modifications/{t['modification'].pk}/withdraw/",
        owners=OWN_PERMIT,
        method="post",
        may=MANAGER,
        body={},
    ),
    api("permit-notice-list", "/api/v1/permit-notices/", record=False),
    api(
        "permit-notice-detail", lambda t: f"/api/v1/permit-notices/{t['notice'].pk}/", owners=OWN_APPLICATION
    ),
    api(
        "permit-notice-letter",
        lambda t: f"/api/v1/permit-notices/{t['notice'].pk}/letter/",
        owners=OWN_APPLICATION,
    ),
    api("permit-order-list", "/api/v1/permit-orders/", record=False),
    api(
        "permit-order-list",
        "/api/v1/permit-orders/",
        record=False,
        method="post",
        may=MANAGER,
        body={},
        label="record",
    ),
    api("permit-order-detail", lambda t: f"/api/v1/permit-orders/{t['order'].pk}/", owners=OWN_ORDER),
    api(
        "permit-order-decide",
        lambda t: f"/api/v1/permit-orders/{t['order'].pk}/decide/",
        owners=OWN_ORDER,
        method="post",
        may=DECISION_RECORDERS,
        body={},
    ),
    api(
        "permit-order-appeal",
        lambda t: f"/api/v1/permit-orders/{t['order'].pk}/appeal/",
        owners=OWN_ORDER,
        method="post",
        may=DECISION_RECORDERS,
        body={},
    ),
    api("remodel-notice-list", "/api/v1/remodel-notices/", record=False),
    api(
        "remodel-notice-list",
        "/api/v1/remodel-notices/",
        record=False,
        method="post",
        may=APPLICANTS,
        body={},
        label="file",
    ),
    api(
        "remodel-notice-detail",
        lambda t: f"/api/v1/remodel-notices/{t['remodel'].pk}/",
        owners=OWN_APPLICATION,
    ),
    api(
        "remodel-notice-plans",
        lambda t: f"/api/v1/remodel-notices/{t['remodel'].pk}/plans/",
        owners=OWN_APPLICATION,
        method="post",
        may=APPLICANTS,
        body={},
    ),
    api(
        "remodel-notice-decide",
        lambda t: f"/api/v1/remodel-notices/{t['remodel'].pk}/decide/",
        owners=OWN_APPLICATION,
        method="post",
        may=REVIEWERS,
        body={},
    ),
    api("fee-schedule-list", "/api/v1/fee-schedules/", record=False),
    api(
        "fee-schedule-list",
        "/api/v1/fee-schedules/",
        record=False,
        method="post",
        may=MANAGER,
        body={},
        label="record",
    ),
    api("fee-schedule-detail", lambda t: f"/api/v1/fee-schedules/{t['schedule'].pk}/", record=False),
    api("fee-charge-list", "/api/v1/fee-charges/", record=False),
    api("fee-charge-detail", lambda t: f"/api/v1/fee-charges/{t['fee'].pk}/", owners=MALL_APPLICATION),
    api(
        "fee-charge-pay",
        lambda t: f"/api/v1/fee-charges/{t['fee'].pk}/pay/",
        owners=MALL_APPLICATION,
        method="post",
        may=FEE_COLLECTORS,
        body={},
    ),
    api(
        "fee-charge-waive",
        lambda t: f"/api/v1/fee-charges/{t['fee'].pk}/waive/",
        owners=MALL_APPLICATION,
        method="post",
        may=DECIDERS,
        body={},
    ),
    api("permit-list", "/api/v1/permits/", record=False),
    api("permit-without-permit", "/api/v1/permits/without-permit/", scope=STAFF),
    api("permit-detail", lambda t: f"/api/v1/permits/{_permit(t)}/", owners=OWN_PERMIT),
    api("permit-detail", lambda t: f"/api/v1/permits/{t['other_permit'].pk}/", label="another FSE's"),
    _permit_action("versions", may=ALL_ROLES, method="get"),
    _permit_action("pdf", may=ALL_ROLES, method="get"),
    _permit_action("renew", may=APPLICANTS),
    _permit_action("change", may=APPLICANTS, body={}),
    _permit_action("modify", may=MANAGER, body={}),
    _permit_action("suspend", may=MANAGER, body={}),
    _permit_action("reinstate", may=MANAGER, body={}),
    _permit_action("revoke", may=MANAGER, body={}),
]

ROUTES = [*PAGES, *API_ROUTES]
