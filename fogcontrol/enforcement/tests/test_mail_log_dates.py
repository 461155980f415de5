"""The certified and registered mail run feeds enforcement's dates (issue #17): the steps that go by
certified mail (L2's notice, P5's complaint) or registered mail (P8's penalty order) issue their letter
waiting for mailing; when the mail log records the mailing date (notices' ``document_served``), the
dates that run from service are counted from it by the rules: L2's hearing window, P5's latest hearing
date, P8's appeal window (P6). Pages and the API show "waiting for mailing", then the date served and
the deadline with its provision."""

import html
from decimal import Decimal

import pytest

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.enforcement.models import Hearing
from fogcontrol.enforcement.services.complaints import complaint_serve
from fogcontrol.enforcement.tests.helpers_orders import (
    DAY,
    FACTORS,
    a_case_of_kind,
    a_permit,
    ago,
    issue_penalty_order,
)
from fogcontrol.notices.selectors import current_service, documents_to_mail
from fogcontrol.program.selectors import ruleset_on, town_calendar, town_today
from fogcontrol.rules.deadlines import appeal_due, complaint_hearing_due, revocation_hearing_window
from fogcontrol.rules.explain import fmt_date

pytestmark = pytest.mark.django_db


def rules(day):
    return {"ruleset": ruleset_on(day), "calendar": town_calendar()}


def text(response) -> str:
    return html.unescape(response.content.decode())


def mail_log(user, document_id, mailed_on):
    return api_as(user).post(
        "/api/v1/notices/mail-run/log/",
        {"rows": [{"document": document_id, "mailed_on": mailed_on.isoformat()}]},
        format="json",
    )


def suspension(manager, case, *, mailed_on, hearing_on):
    body = {"grounds": ["violation"], "facts": "Two SSOs traced to the FSE's lateral.", "mailed_on": mailed_on,
            "article_number": "9407 2222 0000 0009", "hearing_on": hearing_on,
            "hearing_place": "Town Hall, Council Chamber"}  # fmt: skip
    return api_as(manager).post(
        f"/api/v1/enforcement/cases/{case.pk}/suspension-notices/", body, format="json"
    )


@pytest.mark.provision("L2")
def test_l2_notice_waits_for_mailing_and_the_mail_log_sets_the_order_and_the_window(town, client):
    manager = town.users[Role.FOG_MANAGER]
    a_permit(town)
    case = a_case_of_kind(town)
    today = town_today()
    hearing_on = revocation_hearing_window(today, **rules(today)).earliest_business_day + 5 * DAY
    created = suspension(manager, case, mailed_on=None, hearing_on=hearing_on)
    assert created.status_code == 201, created.json()
    assert created.json()["hearing"]["waiting_for_mailing"] is True
    hearing = Hearing.objects.select_related("permit_order").get(pk=created.json()["hearing"]["id"])
    assert hearing.permit_order.notice_mailed_on is None
    document_id = hearing.explanation["notice_document"]
    assert document_id in [d.pk for d in documents_to_mail(manager)]
    client.force_login(manager)
    assert "notice waiting for mailing" in text(client.get(f"/enforcement/hearings/{hearing.pk}/"))

    assert mail_log(manager, document_id, today).status_code == 201
    hearing.refresh_from_db()
    hearing.permit_order.refresh_from_db()
    window = revocation_hearing_window(today, **rules(today))
    assert hearing.permit_order.notice_mailed_on == today and hearing.latest_on == window.latest
    assert hearing.permit_order.hearing_earliest_on == window.earliest
    answer = api_as(manager).get(f"/api/v1/enforcement/hearings/{hearing.pk}/").json()
    assert answer["waiting_for_mailing"] is False and answer["latest_on"] == window.latest.isoformat()
    page = text(client.get(f"/enforcement/hearings/{hearing.pk}/"))
    assert "waiting for mailing" not in page and "Latest lawful date (L2)" in page
    assert fmt_date(window.latest).split(", ", 1)[-1] in page or window.latest.strftime("%B") in page


@pytest.mark.provision("L2")
def test_l2_a_mailing_date_that_moves_the_window_past_the_hearing_is_refused_naming_l2(town):
    """The notice said it was mailed five days ago with its hearing on the first lawful day; the mail
    log says it went today, so that hearing is now less than 15 days after mailing: refused, nothing
    recorded; a mailing date that keeps the hearing inside the window is taken and counts the window."""
    manager = town.users[Role.FOG_MANAGER]
    a_permit(town)
    case = a_case_of_kind(town)
    planned = ago(5)
    hearing_on = revocation_hearing_window(planned, **rules(planned)).earliest_business_day
    created = suspension(manager, case, mailed_on=planned.isoformat(), hearing_on=hearing_on)
    assert created.status_code == 201, created.json()
    hearing = Hearing.objects.select_related("permit_order").get(pk=created.json()["hearing"]["id"])
    document_id = hearing.explanation["notice_document"]
    refused = mail_log(manager, document_id, town_today())
    assert refused.status_code == 400 and "L2" in str(refused.json())
    assert current_service(hearing_document(document_id)).served_on is None
    taken = mail_log(manager, document_id, planned)
    assert taken.status_code == 201
    hearing.permit_order.refresh_from_db()
    assert hearing.permit_order.notice_mailed_on == planned


def hearing_document(document_id):
    from fogcontrol.notices.models import IssuedDocument

    return IssuedDocument.objects.get(pk=document_id)


@pytest.mark.provision("P5")
def test_p5_complaint_by_certified_mail_waits_and_its_hearing_limit_counts_from_the_mail_log(town, client):
    manager = town.users[Role.FOG_MANAGER]
    case = a_case_of_kind(town)
    issued = ago(10)
    hearing_on = issued + 40 * DAY
    complaint = complaint_serve(
        acting_user=manager, case=case, violations=list(case.violations.all()),
        statement="The interceptor was not pumped out on schedule.", law_violated="Town Code 10.02, E1; P7(3)",
        proposed_penalty=Decimal("3000"), issued_on=issued, service_method="certified_mail", served_on=None,
        article_number="9407 3333 0000 0001", hearing_on=hearing_on, hearing_place="Town Hall",
    )  # fmt: skip
    assert complaint.served_on is None
    assert complaint.hearing_latest_on == complaint_hearing_due(issued, **rules(issued)).due
    assert complaint.document_id in [d.pk for d in documents_to_mail(manager)]
    api = api_as(manager)
    assert api.get(f"/api/v1/enforcement/complaints/{complaint.pk}/").json()["waiting_for_mailing"] is True
    client.force_login(manager)
    assert "waiting for mailing" in text(client.get(f"/enforcement/cases/{case.pk}/"))

    mailed = ago(3)
    assert mail_log(manager, complaint.document_id, mailed).status_code == 201
    complaint.refresh_from_db()
    limit = complaint_hearing_due(mailed, **rules(mailed)).due
    assert complaint.served_on == mailed and complaint.hearing_latest_on == limit
    assert complaint.hearing.latest_on == limit
    body = api.get(f"/api/v1/enforcement/complaints/{complaint.pk}/").json()
    assert body["waiting_for_mailing"] is False and body["served_on"] == mailed.isoformat()
    assert body["hearing_latest_on"] == limit.isoformat()
    page = text(client.get(f"/enforcement/cases/{case.pk}/"))
    assert f"served {fmt_date(mailed)}" in page and f"Hearing no later than {fmt_date(limit)} (P5)." in page


@pytest.mark.provision("P5")
def test_p5_personal_delivery_still_needs_its_day_and_a_mailing_after_the_hearing_is_refused(town):
    manager = town.users[Role.FOG_MANAGER]
    case = a_case_of_kind(town)
    values = dict(
        acting_user=manager, case=case, violations=list(case.violations.all()), statement="Not pumped.",
        law_violated="Town Code 10.02, E1", proposed_penalty=Decimal("100"), issued_on=ago(20),
        article_number="9407 3333 0000 0002", hearing_place="Town Hall",
    )  # fmt: skip
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as refused:
        complaint_serve(service_method="personal_delivery", served_on=None, hearing_on=ago(1), **values)
    assert "P5" in str(refused.value)
    complaint = complaint_serve(service_method="certified_mail", served_on=None, hearing_on=ago(2), **values)
    late = mail_log(manager, complaint.document_id, ago(1))
    assert late.status_code == 400 and "P5" in str(late.json())
    complaint.refresh_from_db()
    assert complaint.served_on is None


@pytest.mark.provision("P8")
def test_p8_penalty_order_by_registered_mail_waits_and_its_appeal_window_counts_from_the_mail_log(
    town, client
):
    officer, manager = town.users[Role.HEARING_OFFICER], town.users[Role.FOG_MANAGER]
    case = a_case_of_kind(town)
    issued = ago(8)
    order = issue_penalty_order(
        acting_user=officer, issued_on=issued, service_method="registered_mail", served_on=None,
        article_number="RR 4444 0001", case=case, violation_kind="maintenance", days=2, amount=1000,
        hearing_officer_name="A. Reyes", factors=FACTORS,
    )  # fmt: skip
    order.refresh_from_db()
    assert order.status == "final" and order.served_on is None and order.appeal_by is None
    assert order.document_id in [d.pk for d in documents_to_mail(manager)]
    api = api_as(manager)
    assert api.get(f"/api/v1/enforcement/penalty-orders/{order.pk}/").json()["waiting_for_mailing"] is True
    client.force_login(manager)
    assert "waiting for mailing" in text(client.get(f"/enforcement/penalty-orders/{order.pk}/"))

    mailed = ago(2)
    assert mail_log(manager, order.document_id, mailed).status_code == 201
    order.refresh_from_db()
    due = appeal_due(mailed, **rules(mailed)).due
    assert order.served_on == mailed and order.appeal_by == due and order.explanation["P6"]
    body = api.get(f"/api/v1/enforcement/penalty-orders/{order.pk}/").json()
    assert body["waiting_for_mailing"] is False and body["appeal_by"] == due.isoformat()
    page = text(client.get(f"/enforcement/penalty-orders/{order.pk}/"))
    assert (
        f"served {mailed:%B} {mailed.day}, {mailed.year}" in page
        and "Appeal to the Town Council (P8, P6)" in page
    )
    assert f"by {due:%B} {due.day}, {due.year}" in page
