"""The permits pages: what a clerk and an FSE see and do (B1-B8, G1, G2)."""

import datetime as dt
import html

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from fogcontrol.core.roles import Role
from fogcontrol.permits import services
from fogcontrol.permits.models import ApplicationStatus, PermitApplication, PermitModification, PermitStatus
from fogcontrol.permits.tests.conftest import B3_ANSWERS
from fogcontrol.permits.tests.factories import PermitFactory
from fogcontrol.permits.tests.orders import final_order
from fogcontrol.program.selectors import town_today


@pytest.fixture
def as_user(client):
    def login(user):
        client.force_login(user)
        return client

    return login


def text(response) -> str:
    return " ".join(html.unescape(response.content.decode()).split())


def management(prefix="fixtures", total=1):
    return {f"{prefix}-TOTAL_FORMS": str(total), f"{prefix}-INITIAL_FORMS": "0",
            f"{prefix}-MIN_NUM_FORMS": "0", f"{prefix}-MAX_NUM_FORMS": "1000"}  # fmt: skip


@pytest.mark.provision("B1")
def test_b1_portal_without_a_permit_says_apply(as_user, town, fse_user, fees):
    page = text(as_user(fse_user).get("/permits/"))
    assert "Blue Plate Diner" in page and "No FOG permit" in page
    assert "Apply for a FOG permit: every food service establishment must hold one (B1)." in page


@pytest.mark.provision("B5")
def test_b5_fse_applies_on_the_pages_and_staff_issue_it(
    as_user, client, town, fse_user, manager, fees, profile
):
    fse = as_user(fse_user)
    response = fse.post("/permits/applications/new/", {"establishment": town.own_fse.pk, "route": "full"})
    application = PermitApplication.objects.get()
    assert response.status_code == 302 and response.url == f"/permits/applications/{application.pk}/edit/"
    form = {f"app-{k}": v for k, v in B3_ANSWERS.items()} | {"app-device": town.own_device.pk,
            "app-device_kind": "gravity_interceptor", "app-device_capacity_gallons": 1000}  # fmt: skip
    form |= management() | {"fixtures-0-kind": "sink_three_compartment", "fixtures-0-count": "1",
                            "fixtures-0-compartments": "3", "fixtures-0-compartment_length_in": "24",
                            "fixtures-0-compartment_width_in": "24", "fixtures-0-compartment_depth_in": "14",
                            "fixtures-0-drains_to_device": "on", "submit": "1"}  # fmt: skip
    response = fse.post(f"/permits/applications/{application.pk}/edit/", form)
    assert response.status_code == 302
    application.refresh_from_db()
    assert application.status == ApplicationStatus.SUBMITTED and application.fixtures.count() == 1

    staff = as_user(manager)
    page = text(staff.get(f"/permits/applications/{application.pk}/"))
    assert "Sizing check (A4, A5)" in page and "meets the CPC size of 500 gallons" in page
    fee = application.fees.get()  # B3: the fee is paid before the permit is issued
    assert staff.post(f"/permits/applications/{application.pk}/pay-fee/", {
        "pay-fee-fee": fee.pk, "pay-fee-amount": "350.00", "pay-fee-paid_on": str(town_today()),
        "pay-fee-reference": "R-1001"}).status_code == 302  # fmt: skip
    assert staff.post(f"/permits/applications/{application.pk}/accept/").status_code == 302
    response = staff.post(f"/permits/applications/{application.pk}/issue/", {
        "issue-device_kind": "gravity_interceptor", "issue-device_capacity_gallons": "1000",
        "issue-service_frequency_days": "90", "issue-conditions": ""})  # fmt: skip
    application.refresh_from_db()
    permit = application.permit
    assert response.status_code == 302 and response.url == f"/permits/{permit.pk}/"

    client.force_login(fse_user)
    portal = text(client.get("/permits/"))
    assert permit.number in portal and "In force" in portal
    assert f"{permit.valid_until:%B} {permit.valid_until.day}, {permit.valid_until.year}" in portal
    assert "Have the grease control device serviced at least every 90 days." in portal
    pdf = client.get(f"/permits/{permit.pk}/pdf/")
    assert (
        pdf.status_code == 200
        and pdf["Content-Type"] == "application/pdf"
        and pdf.content.startswith(b"%PDF")
    )


@pytest.mark.provision("A4")
def test_a4_the_draft_page_takes_the_inlet_pipe_and_an_appliance_flow_and_the_review_shows_them(
    as_user, draft, fse_user, manager
):
    form = {f"app-{k}": v for k, v in B3_ANSWERS.items()} | {"app-inlet_pipe_size_in": "7"}
    form |= management() | {"fixtures-0-kind": "other", "fixtures-0-description": "pasta cooker",
                            "fixtures-0-count": "1", "fixtures-0-flow_gpm": "4", "fixtures-0-drains_to_device": "on"}  # fmt: skip
    refused = as_user(fse_user).post(f"/permits/applications/{draft.pk}/edit/", form)
    assert refused.status_code == 400
    assert "CPC Table 703.2 gives no maximum for a 7 in pipe" in text(refused)

    form["app-inlet_pipe_size_in"] = "4"
    assert as_user(fse_user).post(f"/permits/applications/{draft.pk}/edit/", form).status_code == 302
    page = text(as_user(manager).get(f"/permits/applications/{draft.pk}/"))
    assert "inlet pipe 4 in" in page and "4 gpm" in page
    assert "incl. 120 gal for appliance flow, note 3" in page


@pytest.mark.provision("B3")
def test_b3_bad_value_is_shown_beside_the_field_and_the_draft_kept(as_user, draft, fse_user):
    form = (
        {f"app-{k}": v for k, v in B3_ANSWERS.items()} | {"app-dining_capacity": "lots"} | management(total=0)
    )
    response = as_user(fse_user).post(f"/permits/applications/{draft.pk}/edit/", form)
    assert response.status_code == 400
    assert "Enter a whole number." in text(response)
    draft.refresh_from_db()
    assert draft.dining_capacity == 60


@pytest.mark.provision("B3")
def test_b3_incomplete_submission_names_what_is_missing(as_user, town, fse_user, fees):
    application = services.application_create(acting_user=fse_user, establishment=town.own_fse)
    response = as_user(fse_user).post(f"/permits/applications/{application.pk}/submit/", follow=True)
    page = text(response)
    assert "B3 asks for the wastewater volume" in page
    application.refresh_from_db()
    assert application.status == ApplicationStatus.DRAFT


@pytest.mark.provision("B5")
def test_b5_page_refuses_an_illegal_step_with_409_and_the_reason(as_user, draft, manager):
    response = as_user(manager).post(f"/permits/applications/{draft.pk}/accept/")
    assert response.status_code == 409
    assert "cannot accept it" in text(response)


@pytest.mark.provision("B3")
def test_b3_information_requested_and_answered_on_the_pages(as_user, client, draft, fse_user, manager):
    services.application_submit(application=draft, acting_user=fse_user)
    staff = as_user(manager)
    staff.post(
        f"/permits/applications/{draft.pk}/request-information/",
        {"request-information-message": "Send the manifest."},
    )
    client.force_login(fse_user)
    assert "Answer the FOG Manager's request" in text(client.get("/permits/"))
    response = client.post(f"/permits/applications/{draft.pk}/respond/", {
        "respond-message": "Attached.", "respond-file": SimpleUploadedFile("m.pdf", b"%PDF-1.4\n")})  # fmt: skip
    assert response.status_code == 302
    draft.refresh_from_db()
    assert draft.status == ApplicationStatus.UNDER_REVIEW
    page = text(client.get(f"/permits/applications/{draft.pk}/"))
    assert "Send the manifest." in page and "Attached." in page and "m.pdf" in page


@pytest.mark.provision("B4")
def test_b4_in_lieu_documents_uploaded_on_the_page(as_user, town, fse_user, fees):
    application = services.application_create(
        acting_user=fse_user, establishment=town.own_fse, route="in_lieu"
    )
    client = as_user(fse_user)
    bad = client.post(f"/permits/applications/{application.pk}/document/",
                      {"document-file": SimpleUploadedFile("x.exe", b"MZ"), "document-kind": "building_permit"})  # fmt: skip
    assert bad.status_code == 400 and "only PDF, PNG and JPEG" in text(bad)
    good = client.post(f"/permits/applications/{application.pk}/document/",
                       {"document-file": SimpleUploadedFile("bp.pdf", b"%PDF-1.4\n"), "document-kind": "building_permit"})  # fmt: skip
    assert good.status_code == 302 and application.documents.count() == 1


@pytest.mark.provision("B5")
def test_b5_rejected_on_the_page_needs_reasons(as_user, draft, fse_user, manager):
    services.application_submit(application=draft, acting_user=fse_user)
    staff = as_user(manager)
    assert staff.post(f"/permits/applications/{draft.pk}/reject/", {"reject-reasons": ""}).status_code == 400
    staff.post(f"/permits/applications/{draft.pk}/reject/", {"reject-reasons": "No device installed (A3)."})
    draft.refresh_from_db()
    assert draft.status == ApplicationStatus.REJECTED


@pytest.mark.provision("B6")
def test_b6_renewal_list_and_renewal_started_from_it(as_user, renewal_due, manager):
    staff = as_user(manager)
    page = text(staff.get("/permits/renewals/", {"within": 400}))
    assert renewal_due.number in page and "Start renewal" in page
    assert renewal_due.number not in text(staff.get("/permits/renewals/", {"within": 5}))
    response = staff.post(f"/permits/{renewal_due.pk}/renew/")
    renewal = PermitApplication.objects.get(kind="renewal")
    assert response.url == f"/permits/applications/{renewal.pk}/edit/"
    assert "In progress" in text(staff.get("/permits/renewals/", {"within": 400}))


@pytest.mark.provision("B6")
def test_b6_expired_permit_shows_expired_and_what_to_do(as_user, issued_2025, fse_user):
    services.permits_expire_lapsed(on=dt.date(2026, 7, 2))
    page = text(as_user(fse_user).get("/permits/"))
    assert "Expired" in page and "Your permit expired on Thursday, July 2, 2026" in page


@pytest.mark.provision("B7")
def test_b7_modification_on_the_page_with_the_ten_day_notice(as_user, issued, manager):
    # A change of conditions: the frequency is the device's, changed on its card (E1, A2).
    staff = as_user(manager)
    early = staff.post(f"/permits/{issued.pk}/modify/", {"conditions": "Drain screens (C1).", "reason": "Fill at 24%",
                                                          "effective_on": str(town_today())})  # fmt: skip
    assert early.status_code == 400 and "B7" in text(early)
    response = staff.post(
        f"/permits/{issued.pk}/modify/", {"conditions": "Drain screens (C1).", "reason": "Fill at 24%"}
    )
    assert response.status_code == 302
    change = PermitModification.objects.get()
    assert change.effective_on == town_today() + dt.timedelta(days=10)
    page = text(staff.get(f"/permits/{issued.pk}/"))
    assert "Fill at 24%" in page and "Notice given; not yet in effect" in page


@pytest.mark.provision("B7")
def test_b7_only_the_fog_manager_sees_the_change_form(as_user, issued, inspector):
    assert as_user(inspector).get(f"/permits/{issued.pk}/modify/").status_code == 403


@pytest.mark.provision("B8")
def test_b8_change_of_ownership_on_the_page_opens_a_new_application(as_user, issued, fse_user):
    response = as_user(fse_user).post(f"/permits/{issued.pk}/change/", {"change_reasons": ["ownership"]})
    application = PermitApplication.objects.get(kind="change")
    assert response.url == f"/permits/applications/{application.pk}/edit/"


@pytest.mark.provision("B1")
def test_b1_staff_list_of_fses_without_a_permit(as_user, issued, town, manager):
    page = text(as_user(manager).get("/permits/without-permit/"))
    assert "Golden Wok" in page and "Non-compliant" in page
    assert "Blue Plate Diner" not in page


@pytest.mark.provision("L5")
def test_l5_revoke_on_the_page(as_user, issued, manager):
    order = final_order(issued, manager, kind="revocation")  # L1-L6: the process, recorded first
    response = as_user(manager).post(
        f"/permits/{issued.pk}/status/revoke/", {"status-order": order.pk, "status-reason": "Final order 12"}
    )
    assert response.status_code == 302
    issued.refresh_from_db()
    assert issued.status == PermitStatus.REVOKED


@pytest.mark.provision("G1")
def test_g1_remodel_notice_on_the_pages_flags_late_notice(as_user, town, fse_user, fees):
    client = as_user(fse_user)
    response = client.post("/permits/remodel/new/", {"establishment": town.own_fse.pk, "kind": "remodel",
                           "description": "New hood", "planned_start": str(town_today() + dt.timedelta(days=20))})  # fmt: skip
    assert response.status_code == 302
    page = text(client.get(response.url))
    assert "Late notice (G1)" in page
    response = client.post(
        response.url, {"step": "plans", "plans-plans": SimpleUploadedFile("p.pdf", b"%PDF-1.4\n")}
    )
    assert response.status_code == 302


def test_fee_schedule_page_for_the_fog_manager(as_user, manager, town):
    client = as_user(manager)
    assert "No fee schedule is on record" in text(client.get("/permits/fees/"))
    response = client.post("/permits/fees/", {"effective_from": "2027-01-01", "label": "Resolution 2026-40",
                           "new_permit": "400", "renewal": "250", "reissue": "300", "plan_review": "500"})  # fmt: skip
    assert response.status_code == 302
    # Fee schedules are a public Council resolution (issue #9): the FSE reads them, but records none.
    fse_page = as_user(town.users[Role.FSE]).get("/permits/fees/")
    assert fse_page.status_code == 200
    assert "Resolution 2026-40" in text(fse_page) and "Record a new version" not in text(fse_page)


def test_pages_outside_the_users_scope_are_not_found(as_user, town, manager, fees, fse_user):
    other = services.application_create(acting_user=manager, establishment=town.other_fse)
    permit = PermitFactory(establishment=town.other_fse)
    client = as_user(fse_user)
    assert client.get(f"/permits/applications/{other.pk}/").status_code == 404
    assert client.post(f"/permits/applications/{other.pk}/submit/").status_code == 404
    assert client.get(f"/permits/{permit.pk}/").status_code == 404
    assert client.get(f"/permits/{permit.pk}/pdf/").status_code == 404
    assert client.get("/permits/renewals/").status_code == 404
    assert client.get("/permits/without-permit/").status_code == 404


def test_anonymous_users_are_sent_to_sign_in(client, db):
    assert client.get("/permits/").status_code == 302
    assert client.get("/permits/applications/").url.startswith("/login/")


@pytest.mark.provision("G1")
def test_g1_the_remodel_notice_page_states_the_notice_period_of_the_rules_in_force(client, town, fse_user):
    from fogcontrol.program.models import RulesetVersion
    from fogcontrol.program.selectors import town_today

    client.force_login(fse_user)
    assert "at least 60 days" in client.get("/permits/remodel/new/").content.decode()
    RulesetVersion.objects.create(
        effective_from=town_today(), label="Amendment", values={"remodel_notice_days": 90}
    )
    assert "at least 90 days" in client.get("/permits/remodel/new/").content.decode()


@pytest.mark.provision("B3")
def test_b3_a_refused_submission_marks_each_missing_item_beside_its_field_and_keeps_the_draft(
    as_user, town, fse_user, fees
):
    """Issue 18: the errors of "Save and submit" were listed on another page, away from the fields."""
    fse = as_user(fse_user)
    fse.post("/permits/applications/new/", {"establishment": town.own_fse.pk, "route": "full"})
    application = PermitApplication.objects.get()
    answers = {f"app-{k}": v for k, v in B3_ANSWERS.items() if k != "wastewater_volume_gpd"}
    form = answers | management(total=0) | {"submit": "1"}
    response = fse.post(f"/permits/applications/{application.pk}/edit/", form)
    assert response.status_code == 400
    page = response.content.decode()
    error = page.index('id="id_app-wastewater_volume_gpd_error"')
    assert page.index('name="app-wastewater_volume_gpd"') < error  # beside its own control
    assert "B3 asks for the wastewater volume" in page[error : error + 400]
    assert "Your draft is saved, but it cannot be submitted yet" in page
    application.refresh_from_db()
    assert application.status == ApplicationStatus.DRAFT
    assert application.dining_capacity == B3_ANSWERS["dining_capacity"]  # what was typed is kept


@pytest.mark.provision("B3")
def test_b3_each_fixture_is_a_card_whose_every_control_has_a_visible_label(as_user, town, fse_user, fees):
    """Issue 18: on a phone the fixture table became unlabelled boxes."""
    import re

    application = services.application_create(acting_user=fse_user, establishment=town.own_fse)
    page = as_user(fse_user).get(f"/permits/applications/{application.pk}/edit/").content.decode()
    assert page.count('<fieldset class="fixture-card">') == 3 and "<legend>Fixture 1</legend>" in page
    controls = re.findall(r'<(?:input|select)[^>]*name="(fixtures-\d+-[a-z_A-Z]+)"[^>]*>', page)
    visible = [
        name
        for name in controls
        if not re.search(rf'type="hidden"[^>]*name="{name}"|name="{name}"[^>]*type="hidden"', page)
    ]
    assert visible, "the fixture controls are on the page"
    for name in visible:
        assert f'<label for="id_{name}">' in page, f"{name} has no visible label"
    assert (
        "<table" not in page.split("Kitchen appliances and plumbing fixtures")[1].split("Save the draft")[0]
    )
