"""The inspection pages: the due list (risk order with reasons), scheduling, the inspector's day
by address with open items, the phone form (autosave, complete, a resent form), the detail, the
report PDF, findings, and who sees what (an FSE never a draft: 404). Lists in fixed queries."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.findings.models import Finding
from fogcontrol.inspections.models import Inspection
from fogcontrol.inspections.services import inspection_complete
from fogcontrol.inspections.tests.helpers import (
    business_day_before_today,
    key,
    ready,
    scheduled,
    signature_data_url,
)
from fogcontrol.testing import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def inspector(town):
    return town.users[Role.INSPECTOR]


def as_user(client, user):
    client.force_login(user)
    return client


def completed(town, establishment, answers=None, **changes):
    user = town.users[Role.INSPECTOR]
    inspection = ready(scheduled(establishment, user), user, answers=answers or {}, **changes)
    return inspection_complete(inspection=inspection, acting_user=user, idempotency_key=key())


@pytest.mark.provision("D8")
def test_d8_the_due_list_shows_priority_and_reasons_and_sorts_by_due_date(client, town):
    completed(town, town.other_fse, answers={"signage": "fail"})
    page = as_user(client, town.users[Role.FOG_MANAGER]).get(reverse("inspections:due")).content.decode()
    assert "Blue Plate Diner" in page and "Priority" in page
    assert "never inspected by the Town" in page
    assert "How the due date was worked out" in page
    by_due = client.get(reverse("inspections:due"), {"sort": "due"})
    assert by_due.status_code == 200
    assert as_user(client, town.users[Role.FSE]).get(reverse("inspections:due")).status_code == 404


@pytest.mark.provision("D8")
def test_d8_scheduling_from_the_due_list_assigns_an_inspector_for_a_day(client, town, inspector):
    day = business_day_before_today()
    response = as_user(client, town.users[Role.FOG_MANAGER]).post(
        reverse("inspections:schedule", args=[town.own_fse.pk]),
        {"kind": "routine", "inspector": inspector.pk, "scheduled_on": day.isoformat()},
    )
    inspection = Inspection.objects.get()
    assert response.status_code == 302 and (inspection.inspector, inspection.scheduled_on) == (inspector, day)
    page = client.get(reverse("inspections:due")).content.decode()
    assert f"Scheduled {day:%b} {day.day} for {inspector.username}" in page


def test_the_inspectors_day_is_ordered_by_address_with_open_items(client, town, inspector):
    completed(town, town.own_fse, answers={"drain_screens": "fail"})
    day = business_day_before_today()
    for establishment in (town.other_fse, town.own_fse):
        scheduled(establishment, inspector, scheduled_on=day)
    page = (
        as_user(client, inspector).get(reverse("inspections:day"), {"on": day.isoformat()}).content.decode()
    )
    own, other = town.own_fse.site_address, town.other_fse.site_address
    assert page.index(min(own, other)) < page.index(max(own, other))
    assert "1 open item" in page and "Drain screens are missing" in page


@pytest.mark.provision("E3")
def test_e3_autosave_keeps_the_draft_and_shows_the_25_percent_result_on_the_spot(client, town, inspector):
    inspection = scheduled(town.own_fse, inspector)
    as_user(client, inspector)
    form = client.get(reverse("inspections:edit", args=[inspection.pk]))
    assert form.status_code == 200 and b"Complete inspection" in form.content
    device = town.own_device.pk
    response = client.post(
        reverse("inspections:edit", args=[inspection.pk]),
        {f"d{device}_fog": "6", f"d{device}_solids": "8", f"d{device}_baffles": "fail", "a_signage": "fail", "n_signage": "None at the sink"},
        headers={"HX-Request": "true"},
    )  # fmt: skip
    body = response.content.decode()
    assert "Draft saved" in body and "over the 25% limit (E3)" in body and 'hx-swap-oob="true"' in body
    inspection.refresh_from_db()
    assert inspection.answers == {"signage": "fail"} and inspection.item_notes == {
        "signage": "None at the sink"
    }
    assert inspection.assessments.get().answers == {"baffles": "fail"}
    bad = client.post(
        reverse("inspections:edit", args=[inspection.pk]), {f"d{device}_fog": "60", f"d{device}_solids": "8"}
    )
    assert "Not saved" in bad.content.decode()


@pytest.mark.provision("D4")
def test_d4_completing_from_the_form_a_failed_submit_keeps_the_draft_and_a_resent_form_makes_no_duplicate(
    client, town, inspector
):
    inspection = scheduled(town.own_fse, inspector)
    as_user(client, inspector)
    submit_key = key()
    fields = {"idempotency_key": submit_key, "started_at": f"{inspection.scheduled_on}T10:00", "a_drain_screens": "fail",
              "inspector_signed_name": "Ines Inspector", "inspector_signature": signature_data_url()}  # fmt: skip
    refused = client.post(reverse("inspections:complete", args=[inspection.pk]), fields)
    assert refused.status_code == 400 and "the draft is kept" in refused.content.decode()
    inspection.refresh_from_db()
    assert inspection.is_draft and inspection.answers == {"drain_screens": "fail"}
    fields.update(fse_signed_name="Frank Owner", fse_signature=signature_data_url())
    done = client.post(reverse("inspections:complete", args=[inspection.pk]), fields)
    assert done.status_code == 302 and done.url == reverse("inspections:detail", args=[inspection.pk])
    again = client.post(reverse("inspections:complete", args=[inspection.pk]), fields)
    assert again.status_code == 302 and again.url == done.url
    assert Finding.objects.filter(source_id=inspection.pk).count() == 1
    assert client.get(reverse("inspections:edit", args=[inspection.pk])).status_code == 404


@pytest.mark.provision("D1")
def test_d1_the_report_pdf_states_findings_the_hours_flag_and_signatures(client, town):
    inspection = completed(town, town.own_fse, answers={"drain_screens": "fail"}, hour=18)
    pdf = as_user(client, town.users[Role.FSE]).get(reverse("inspections:report", args=[inspection.pk]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Inspection report" in text and "Blue Plate Diner" in text
    assert "C1" in text and "Drain screens are missing" in text
    assert "Outside business hours (D1)" in text
    assert "Ines Inspector" in text and "Frank Owner" in text


@pytest.mark.provision("D8")
def test_d8_an_fse_sees_its_completed_inspections_never_drafts_or_others(client, town, inspector):
    draft = scheduled(town.own_fse, inspector)
    done = completed(town, town.own_fse)
    other = completed(town, town.other_fse)
    as_user(client, town.users[Role.FSE])
    listing = client.get(reverse("inspections:list")).content.decode()
    assert reverse("inspections:detail", args=[done.pk]) in listing
    assert reverse("inspections:detail", args=[draft.pk]) not in listing
    for pk in (draft.pk, other.pk):
        assert client.get(reverse("inspections:detail", args=[pk])).status_code == 404
        assert client.get(reverse("inspections:report", args=[pk])).status_code == 404
    assert client.get(reverse("inspections:detail", args=[done.pk])).status_code == 200
    assert client.get(reverse("inspections:edit", args=[draft.pk])).status_code == 404
    assert (
        as_user(client, town.users[Role.FOG_MANAGER])
        .get(reverse("inspections:report", args=[draft.pk]))
        .status_code
        == 404
    )


def test_findings_list_and_closing_a_finding(client, town, inspector):
    inspection = completed(town, town.own_fse, answers={"drain_screens": "fail"})
    finding = Finding.objects.get()
    as_user(client, inspector)
    assert "Drain screens are missing" in client.get(reverse("findings:list")).content.decode()
    client.post(
        reverse("findings:close", args=[finding.pk]),
        {"closed_on": inspection.visited_on.isoformat(), "how": "other", "evidence": "Screens fitted"},
    )
    finding.refresh_from_db()
    assert finding.closed_on == inspection.visited_on
    assert "Drain screens are missing" not in client.get(reverse("findings:list")).content.decode()
    fse = (
        as_user(client, town.users[Role.FSE])
        .get(reverse("findings:list"), {"open": "false"})
        .content.decode()
    )
    assert "Drain screens are missing" in fse and "Close this finding" not in fse


def test_the_inspection_list_filters_by_establishment(client, town):
    completed(town, town.own_fse)
    completed(town, town.other_fse)
    as_user(client, town.users[Role.FOG_MANAGER])
    page = client.get(reverse("inspections:list"), {"establishment": town.other_fse.pk}).content.decode()
    assert (
        "Golden Wok" in page and "1 inspection" in page and "Blue Plate Diner" not in page.split("<table")[1]
    )


@pytest.mark.parametrize("extra", [1, 4])
def test_list_pages_take_a_fixed_number_of_queries(client, town, inspector, extra, django_assert_num_queries):
    day = business_day_before_today()
    for _ in range(extra):
        fse = factories.EstablishmentFactory()
        factories.DeviceFactory(establishments=[fse], parcel=fse.parcel)
        completed(town, fse, answers={"signage": "fail"})
        scheduled(fse, inspector, scheduled_on=day)
    as_user(client, inspector)
    client.get(reverse("inspections:list"))  # warm the session and content types
    for name, params, queries in (("inspections:list", {}, 6), ("findings:list", {}, 6), ("inspections:due", {}, 18),
                                  ("inspections:day", {"on": day.isoformat()}, 6)):  # fmt: skip
        with django_assert_num_queries(queries):
            assert client.get(reverse(name), params).status_code == 200


@pytest.mark.parametrize("role", [Role.FSE, Role.PROPERTY_OWNER, Role.HAULER])
def test_outside_users_get_404_for_the_town_pages_and_drafts(client, town, inspector, role):
    draft = scheduled(town.own_fse, inspector)
    as_user(client, town.users[role])
    for url in (reverse("inspections:due"), reverse("inspections:day"), reverse("inspections:detail", args=[draft.pk]),
                reverse("inspections:edit", args=[draft.pk])):  # fmt: skip
        assert client.get(url).status_code == 404, url
    assert client.post(reverse("inspections:edit", args=[draft.pk]), {"notes": "x"}).status_code == 404
    assert (
        client.post(reverse("inspections:complete", args=[draft.pk]), {"idempotency_key": key()}).status_code
        == 404
    )
    assert client.get(reverse("inspections:list")).status_code == 200


@pytest.mark.provision("D8")
def test_d8_an_autosave_that_arrives_after_complete_is_refused_with_a_409_and_changes_nothing(
    client, town, inspector
):
    """The phone form's autosave racing "Complete inspection": the late save is answered with a
    clear message (409, shown in the save status) and the completed report is kept as it is."""
    inspection = completed(town, town.own_fse, notes="As found")
    entries = inspection_audit_count(inspection)
    as_user(client, inspector)
    device = town.own_device.pk
    response = client.post(
        reverse("inspections:edit", args=[inspection.pk]),
        {"notes": "Typed after completing", f"d{device}_fog": "9", f"d{device}_solids": "9"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 409
    body = response.content.decode()
    assert "Not saved" in body and "completed" in body and 'role="alert"' in body
    inspection.refresh_from_db()
    assert inspection.status == Inspection.Status.COMPLETED and inspection.notes == "As found"
    assert inspection.assessments.get().fog_depth_in != 9
    assert inspection_audit_count(inspection) == entries


def inspection_audit_count(inspection):
    return AuditEntry.objects.filter(object_id=str(inspection.pk), action__startswith="inspection.").count()
