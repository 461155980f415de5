"""Permits: who gets what from every page and API route (fogcontrol.testing.access).

The world (test_access_table.py): the FSE user's own establishment with a draft application
(`draft`), an issued permit (`permit`) with a noticed order (`order`) and its notice (`notice`),
and the fee schedule with the application's fee (`charge`). Refused writes use `snapshot`."""

from fogcontrol.testing.access import Route, api, expect, page

# Reads of the FSE's own records: staff and the FSE; the mall's owner and the hauler are bound to
# other records, so theirs is a 404 (no leak).
OWN = expect(200, property_owner=404, hauler=404)
# A permit is also open to the hauler its FSE engages (the hauler services the permitted device).
OWN_PERMIT = expect(200, property_owner=404)
STAFF_ONLY_PAGE = expect(200, outside=404)
STAFF_ONLY_API = expect(200, outside=403)
# A decision only the FOG Manager/reviewers take, tried by read-only staff: refused, nothing changes.
REFUSED_WRITE = expect(403, property_owner=404, hauler=404)
FOG_MANAGER_PAGE = expect(403, fog_manager=200, property_owner=404)
# The FOG Manager may act, but not on this record in this state (409) or without the form (400).
MANAGER_409 = expect(403, fog_manager=409, property_owner=404, hauler=404)
MANAGER_400 = expect(403, fog_manager=400, property_owner=404, hauler=404)
# These API actions check the body before the role: an empty body is 400 for every user who can see
# the record (reported in issue 9's follow-up; kept here as today's behaviour).
EMPTY_BODY_400 = expect(400, property_owner=404, hauler=404)


def _post(name, url, expected, data=None, label=""):
    return Route(name, url, expected, method="post", data=data, state=lambda w: w.snapshot(), label=label)


ACCESS = [
    # --- Pages: lists and details
    Route("permits:home", page("/permits/"), expect(200)),
    Route("permits:application_list", page("/permits/applications/"), expect(200)),
    Route("permits:application_detail", page(lambda w: f"/permits/applications/{w.draft.pk}/"), OWN),
    Route("permits:permit_list", page("/permits/list/"), expect(200)),
    Route("permits:permit_detail", page(lambda w: f"/permits/{w.permit.pk}/"), OWN_PERMIT),
    Route("permits:permit_pdf", page(lambda w: f"/permits/{w.permit.pk}/pdf/"), OWN_PERMIT),
    Route(
        "permits:permit_version_pdf", page(lambda w: f"/permits/{w.permit.pk}/versions/1/pdf/"), OWN_PERMIT
    ),
    Route("permits:renewal_list", page("/permits/renewals/"), STAFF_ONLY_PAGE),
    Route("permits:without_permit", page("/permits/without-permit/"), STAFF_ONLY_PAGE),
    Route("permits:remodel_list", page("/permits/remodel/"), expect(200)),
    Route("permits:remodel_new", page("/permits/remodel/new/"), expect(200)),
    Route("permits:remodel_detail", page(lambda w: f"/permits/remodel/{w.remodel.pk}/"), OWN),
    Route("permits:fee_schedules", page("/permits/fees/"), STAFF_ONLY_PAGE),
    Route("permits:notice_letter", page(lambda w: f"/permits/notices/{w.notice.pk}/letter/"), OWN),
    Route("permits:application_new", page("/permits/applications/new/"), expect(200)),
    # An accepted application is no longer edited: its owner and staff are sent back to it.
    Route(
        "permits:application_edit",
        page(lambda w: f"/permits/applications/{w.draft.pk}/edit/"),
        expect(302, property_owner=404, hauler=404),
    ),
    Route("permits:permit_renew", page(lambda w: f"/permits/{w.permit.pk}/renew/"), expect(405)),
    Route("permits:permit_change", page(lambda w: f"/permits/{w.permit.pk}/change/"), OWN_PERMIT),
    Route("permits:permit_modify", page(lambda w: f"/permits/{w.permit.pk}/modify/"), FOG_MANAGER_PAGE),
    Route("permits:order_new", page(lambda w: f"/permits/{w.permit.pk}/orders/new/"), FOG_MANAGER_PAGE),
    # --- Pages: one refused write each
    _post(
        "permits:application_step",
        lambda w: f"/permits/applications/{w.draft.pk}/accept/",
        MANAGER_409,
        label="accept",
    ),
    _post("permits:permit_status", lambda w: f"/permits/{w.permit.pk}/status/suspend/", MANAGER_409),
    _post(
        "permits:modification_withdraw",
        lambda w: f"/permits/modifications/{w.modification.pk}/withdraw/",
        expect(403, fog_manager=302, property_owner=404, hauler=404),
    ),
    _post("permits:order_decide", lambda w: f"/permits/orders/{w.order.pk}/decide/", MANAGER_400),
    _post("permits:order_appeal", lambda w: f"/permits/orders/{w.order.pk}/appeal/", MANAGER_400),
    # --- API: lists and details
    Route("permit-application-list", api("/permit-applications/"), expect(200)),
    Route("permit-application-detail", api(lambda w: f"/permit-applications/{w.draft.pk}/"), OWN),
    # Documents are only uploaded (POST); a GET is 405 for everyone signed in.
    Route(
        "permit-application-documents",
        api(lambda w: f"/permit-applications/{w.draft.pk}/documents/"),
        expect(405),
    ),
    Route("permit-application-sizing", api(lambda w: f"/permit-applications/{w.draft.pk}/sizing/"), OWN),
    Route("permit-list", api("/permits/"), expect(200)),
    Route("permit-detail", api(lambda w: f"/permits/{w.permit.pk}/"), OWN_PERMIT),
    Route("permit-pdf", api(lambda w: f"/permits/{w.permit.pk}/pdf/"), OWN_PERMIT),
    Route("permit-versions", api(lambda w: f"/permits/{w.permit.pk}/versions/"), OWN_PERMIT),
    Route("permit-without-permit", api("/permits/without-permit/"), expect(200)),
    Route("permit-renewal-list", api("/permit-renewals/"), expect(200)),
    Route("permit-modification-list", api("/permit-modifications/"), expect(200)),
    Route(
        "permit-modification-detail", api(lambda w: f"/permit-modifications/{w.modification.pk}/"), OWN_PERMIT
    ),
    Route("permit-notice-list", api("/permit-notices/"), expect(200)),
    Route("permit-notice-detail", api(lambda w: f"/permit-notices/{w.notice.pk}/"), OWN),
    Route("permit-notice-letter", api(lambda w: f"/permit-notices/{w.notice.pk}/letter/"), OWN),
    Route("permit-order-list", api("/permit-orders/"), expect(200)),
    Route("permit-order-detail", api(lambda w: f"/permit-orders/{w.order.pk}/"), OWN),
    Route("remodel-notice-list", api("/remodel-notices/"), expect(200)),
    Route("remodel-notice-detail", api(lambda w: f"/remodel-notices/{w.remodel.pk}/"), OWN),
    Route("fee-schedule-list", api("/fee-schedules/"), expect(200)),
    Route("fee-schedule-detail", api(lambda w: f"/fee-schedules/{w.schedule.pk}/"), expect(200)),
    Route("fee-charge-list", api("/fee-charges/"), expect(200)),
    Route("fee-charge-detail", api(lambda w: f"/fee-charges/{w.charge.pk}/"), OWN),
]
_API_WRITES = {  # name: (URL, expected)
    "permit-application-submit": (
        "/permit-applications/{draft}/submit/",
        expect(403, fog_manager=409, inspector=409, fse=409, property_owner=404, hauler=404),
    ),
    "permit-application-start-review": (
        "/permit-applications/{draft}/start-review/",
        expect(403, fog_manager=409, inspector=409, property_owner=404, hauler=404),
    ),
    "permit-application-request-information": (
        "/permit-applications/{draft}/request-information/",
        EMPTY_BODY_400,
    ),
    "permit-application-respond": ("/permit-applications/{draft}/respond/", EMPTY_BODY_400),
    "permit-application-note": ("/permit-applications/{draft}/note/", EMPTY_BODY_400),
    "permit-application-accept": ("/permit-applications/{draft}/accept/", MANAGER_409),
    "permit-application-schedule-inspection": (
        "/permit-applications/{draft}/schedule-inspection/",
        EMPTY_BODY_400,
    ),
    "permit-application-record-inspection": (
        "/permit-applications/{draft}/record-inspection/",
        EMPTY_BODY_400,
    ),
    "permit-application-reject": ("/permit-applications/{draft}/reject/", EMPTY_BODY_400),
    "permit-application-withdraw": (
        "/permit-applications/{draft}/withdraw/",
        expect(403, fog_manager=409, inspector=409, fse=409, property_owner=404, hauler=404),
    ),
    "permit-application-issue": ("/permit-applications/{draft}/issue/", MANAGER_409),
    "permit-change": ("/permits/{permit}/change/", expect(400, property_owner=404)),
    "permit-modify": ("/permits/{permit}/modify/", expect(400, property_owner=404)),
    "permit-renew": (
        "/permits/{permit}/renew/",
        expect(403, fog_manager=201, property_owner=404, hauler=404),
    ),
    "permit-suspend": ("/permits/{permit}/suspend/", MANAGER_409),
    "permit-reinstate": ("/permits/{permit}/reinstate/", MANAGER_409),
    "permit-revoke": ("/permits/{permit}/revoke/", MANAGER_409),
    "permit-modification-withdraw": (
        "/permit-modifications/{modification}/withdraw/",
        expect(403, fog_manager=400, property_owner=404),
    ),
    "permit-order-decide": ("/permit-orders/{order}/decide/", EMPTY_BODY_400),
    "permit-order-appeal": ("/permit-orders/{order}/appeal/", EMPTY_BODY_400),
    "remodel-notice-decide": ("/remodel-notices/{remodel}/decide/", MANAGER_400),
    "remodel-notice-plans": (
        "/remodel-notices/{remodel}/plans/",
        expect(403, fog_manager=415, property_owner=404, hauler=404),
    ),
    "fee-charge-pay": ("/fee-charges/{charge}/pay/", expect(400)),
    "fee-charge-waive": ("/fee-charges/{charge}/waive/", expect(400)),
}


def _api_url(template):
    return api(lambda w: template.format(**w.ids()))


ACCESS += [_post(name, _api_url(template), expected) for name, (template, expected) in _API_WRITES.items()]
