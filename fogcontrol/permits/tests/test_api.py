"""The permits API: the same paths, states and rules as the services, scoped by role (B1-B8, G1)."""

import datetime as dt
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from pypdf import PdfReader

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.permits import services
from fogcontrol.permits.models import ApplicationStatus, PermitApplication, PermitStatus
from fogcontrol.permits.tests.conftest import B3_ANSWERS, FIXTURES
from fogcontrol.permits.tests.orders import final_order
from fogcontrol.program.selectors import town_today

APPS = "/api/v1/permit-applications/"


@pytest.mark.provision("B5")
def test_b5_api_new_application_to_issued_permit_and_pdf(town, fse_user, manager, fees, profile):
    fse, staff = api_as(fse_user), api_as(manager)
    created = fse.post(
        APPS, {"establishment": town.own_fse.pk, "fixtures": FIXTURES, **B3_ANSWERS}, format="json"
    )
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["status"] == "draft" and len(body["fixtures"]) == 4
    pk = body["id"]
    submitted = fse.post(f"{APPS}{pk}/submit/")
    assert submitted.status_code == 200 and submitted.json()["status"] == "submitted"
    assert submitted.json()["fees"][0]["amount"] == "350.00"
    fee = submitted.json()["fees"][0]["id"]  # B3: the fee is paid before the permit is issued
    paid = staff.post(f"/api/v1/fee-charges/{fee}/pay/", {"amount": "350.00", "paid_on": str(town_today()),
                      "reference": "R-1001"}, format="json")  # fmt: skip
    assert paid.status_code == 200 and paid.json()["status"] == "paid"
    sizing = staff.get(f"{APPS}{pk}/sizing/").json()
    assert sizing["dfu"] == 7 and sizing["gravity_required_gallons"] == 500 and sizing["adequate"] is True
    assert staff.post(f"{APPS}{pk}/accept/").json()["status"] == "accepted"
    issued = staff.post(f"{APPS}{pk}/issue/", {"service_frequency_days": 60}, format="json")
    assert issued.status_code == 201, issued.json()
    permit = issued.json()
    assert permit["status"] == "issued" and permit["service_frequency_days"] == 60
    assert permit["versions"][0]["contacts"]["wastewater_division_phone"] == "(650) 555-0199"
    pdf = fse.get(f"/api/v1/permits/{permit['id']}/pdf/", HTTP_ACCEPT="application/pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    text = PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text()
    assert permit["number"] in text


@pytest.mark.provision("B3")
def test_b3_api_invalid_field_answers_400_naming_it(town, fse_user, fees):
    response = api_as(fse_user).post(
        APPS,
        {"establishment": town.own_fse.pk, "dining_capacity": -4, "fixtures": [{"kind": "jacuzzi"}]},
        format="json",
    )
    assert response.status_code == 400
    assert "dining_capacity" in response.json() and "fixtures" in response.json()
    assert not PermitApplication.objects.exists()


@pytest.mark.provision("B3")
def test_b3_api_incomplete_submission_answers_400_naming_every_missing_item(town, fse_user, fees):
    pk = api_as(fse_user).post(APPS, {"establishment": town.own_fse.pk}, format="json").json()["id"]
    response = api_as(fse_user).post(f"{APPS}{pk}/submit/")
    assert response.status_code == 400
    assert {"wastewater_volume_gpd", "fixtures", "clean_up_procedures"} <= set(response.json())


@pytest.mark.provision("A4")
def test_a4_api_an_application_gives_its_inlet_pipe_where_fixture_units_are_unknown(
    town, fse_user, manager, fees
):
    client = api_as(fse_user)
    fixtures = [{"kind": "other", "description": "combi steamer", "count": 1},
                {"kind": "other", "description": "pasta cooker", "count": 1, "flow_gpm": "4"}]  # fmt: skip
    created = client.post(APPS, {"establishment": town.own_fse.pk, "fixtures": fixtures}, format="json")
    pk = created.json()["id"]
    assert created.json()["fixtures"][1]["flow_gpm"] == "4.00"

    refused = client.patch(f"{APPS}{pk}/", {"inlet_pipe_size_in": "3.5"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["inlet_pipe_size_in"] == [
        "CPC Table 703.2 gives no maximum for a 3.5 in pipe: give the inlet pipe size in inches, one of "
        "1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8."
    ]
    assert client.patch(f"{APPS}{pk}/", {"inlet_pipe_size_in": "3"}, format="json").status_code == 200

    sizing = api_as(manager).get(f"{APPS}{pk}/sizing/").json()
    assert sizing["dfu_unknown"] == ["Other appliance or fixture (combi steamer)"]
    assert sizing["gravity_basis"] == "inlet_pipe" and sizing["gravity_basis_dfu"] == 35
    # A 3 in inlet pipe carries at most 35 DFU -> 1,000 gallons; plus 4 gpm x 30 minutes = 120 gallons.
    assert sizing["flow_volume_gallons"] == 120 and sizing["gravity_required_gallons"] == 1120


@pytest.mark.provision("B3")
def test_b3_api_submitted_application_cannot_be_changed_409(draft, fse_user):
    services.application_submit(application=draft, acting_user=fse_user)
    response = api_as(fse_user).patch(f"{APPS}{draft.pk}/", {"dining_capacity": 10}, format="json")
    assert response.status_code == 409
    assert "copy of record" in response.json()["detail"]


@pytest.mark.provision("B5")
def test_b5_api_illegal_transition_answers_409_with_the_reason(draft, manager):
    response = api_as(manager).post(f"{APPS}{draft.pk}/accept/")
    assert response.status_code == 409
    assert "draft" in response.json()["detail"] and "cannot accept it" in response.json()["detail"]


@pytest.mark.provision("B5")
def test_b5_api_fse_cannot_decide_its_own_application_403(draft, fse_user):
    services.application_submit(application=draft, acting_user=fse_user)
    assert api_as(fse_user).post(f"{APPS}{draft.pk}/accept/").status_code == 403


def test_api_applications_outside_the_users_scope_are_not_found(town, fees, manager):
    other = services.application_create(acting_user=manager, establishment=town.other_fse)
    fse = api_as(town.users[Role.FSE])
    assert fse.get(f"{APPS}{other.pk}/").status_code == 404
    assert fse.post(f"{APPS}{other.pk}/submit/").status_code == 404
    assert other.pk not in [row["id"] for row in fse.get(APPS).json()["results"]]
    assert api_as(town.users[Role.HAULER]).get(APPS).json()["count"] == 0
    assert (
        api_as(town.users[Role.FSE])
        .post(APPS, {"establishment": town.other_fse.pk}, format="json")
        .status_code
        == 400
    )


@pytest.mark.provision("B3")
def test_b3_api_information_requested_and_answered_with_a_file(draft, fse_user, manager):
    services.application_submit(application=draft, acting_user=fse_user)
    asked = api_as(manager).post(
        f"{APPS}{draft.pk}/request-information/", {"message": "Send the manifest."}, format="json"
    )
    assert asked.json()["status"] == "information_requested"
    answer = api_as(fse_user).post(
        f"{APPS}{draft.pk}/respond/",
        {"message": "Here it is.", "files": [SimpleUploadedFile("manifest.pdf", b"%PDF-1.4\n%%EOF")]},
        format="multipart",
    )
    assert answer.status_code == 200, answer.json()
    assert [m["kind"] for m in answer.json()["messages"]] == ["request", "response"]
    assert answer.json()["documents"][0]["original_name"] == "manifest.pdf"


@pytest.mark.provision("B4")
def test_b4_api_in_lieu_route_with_an_uploaded_building_permit(town, fse_user, fees):
    client = api_as(fse_user)
    pk = client.post(APPS, {"establishment": town.own_fse.pk, "route": "in_lieu", "building_permit_number": "B-1187"},
                     format="json").json()["id"]  # fmt: skip
    bad = client.post(
        f"{APPS}{pk}/documents/", {"file": SimpleUploadedFile("x.docx", b"PK"), "kind": "building_permit"}
    )
    assert bad.status_code == 400 and "file" in bad.json()
    good = client.post(
        f"{APPS}{pk}/documents/",
        {"file": SimpleUploadedFile("bp.pdf", b"%PDF-1.7\n"), "kind": "building_permit"},
    )
    assert good.status_code == 201
    assert client.post(f"{APPS}{pk}/submit/").json()["status"] == "submitted"


@pytest.mark.provision("B5")
def test_b5_api_rejected(draft, fse_user, manager):
    services.application_submit(application=draft, acting_user=fse_user)
    assert api_as(manager).post(f"{APPS}{draft.pk}/reject/", {}, format="json").status_code == 400
    rejected = api_as(manager).post(
        f"{APPS}{draft.pk}/reject/", {"reasons": "Device undersized (A4)."}, format="json"
    )
    assert (
        rejected.json()["status"] == "rejected"
        and rejected.json()["decision_reason"] == "Device undersized (A4)."
    )


@pytest.mark.provision("B6")
def test_b6_api_renewal_list_and_prefilled_renewal(renewal_due, fse_user, manager):
    response = api_as(manager).get("/api/v1/permit-renewals/", {"within_days": 400})
    rows = response.json()["results"]
    assert [r["number"] for r in rows] == [renewal_due.number] and rows[0]["renewal_open"] is False
    assert api_as(manager).get("/api/v1/permit-renewals/", {"within_days": 10}).json()["count"] == 0
    assert api_as(manager).get("/api/v1/permit-renewals/", {"within_days": "soon"}).status_code == 400
    renewal = api_as(fse_user).post(f"/api/v1/permits/{renewal_due.pk}/renew/")
    assert renewal.status_code == 201
    assert renewal.json()["kind"] == "renewal" and renewal.json()["dining_capacity"] == 60
    assert (
        api_as(manager)
        .get("/api/v1/permit-renewals/", {"within_days": 400})
        .json()["results"][0]["renewal_open"]
    )


@pytest.mark.provision("B7")
def test_b7_api_modification_with_the_ten_day_notice(issued, manager):
    # A change of conditions: the frequency is the device's (POST /api/v1/devices/{id}/frequency/).
    client = api_as(manager)
    too_soon = client.post(
        f"/api/v1/permits/{issued.pk}/modify/",
        {
            "changes": {"conditions": "Drain screens on every floor drain (C1)."},
            "reason": "Fill at 24%",
            "effective_on": str(town_today()),
        },
        format="json",
    )
    assert too_soon.status_code == 400 and "effective_on" in too_soon.json()
    response = client.post(
        f"/api/v1/permits/{issued.pk}/modify/",
        {"changes": {"conditions": "Drain screens on every floor drain (C1)."}, "reason": "Fill at 24%"},
        format="json",
    )  # fmt: skip
    assert response.status_code == 201
    assert response.json()["effective_on"] == str(town_today() + dt.timedelta(days=10))
    notices = client.get("/api/v1/permit-notices/", {"permit": issued.pk}).json()["results"]
    assert notices[0]["kind"] == "modification"
    letter = client.get(f"/api/v1/permit-notices/{notices[0]['id']}/letter/")
    assert letter.status_code == 200 and letter.content.startswith(b"%PDF")


@pytest.mark.provision("B8")
def test_b8_api_change_of_ownership_opens_a_new_application(issued, fse_user):
    bad = api_as(fse_user).post(
        f"/api/v1/permits/{issued.pk}/change/", {"change_reasons": ["haircut"]}, format="json"
    )
    assert bad.status_code == 400
    ok = api_as(fse_user).post(
        f"/api/v1/permits/{issued.pk}/change/", {"change_reasons": ["ownership"]}, format="json"
    )
    assert ok.status_code == 201 and ok.json()["kind"] == "change"


@pytest.mark.provision("B6")
def test_b6_api_expired_permit_is_listed_without_permit(issued_2025, manager):
    services.permits_expire_lapsed(on=dt.date(2026, 7, 2))
    assert api_as(manager).get(f"/api/v1/permits/{issued_2025.pk}/").json()["status"] == PermitStatus.EXPIRED
    rows = api_as(manager).get("/api/v1/permits/without-permit/").json()["results"]
    assert "Blue Plate Diner" in [r["business_name"] for r in rows]


@pytest.mark.provision("L5")
def test_l5_api_revoked_permit_cannot_be_renewed_409(issued, manager, fse_user):
    order = final_order(issued, manager, kind="revocation")  # L1-L6: the process, recorded first
    assert (
        api_as(manager)
        .post(
            f"/api/v1/permits/{issued.pk}/revoke/", {"order": order.pk, "reason": "Order 12"}, format="json"
        )
        .status_code
        == 200
    )
    response = api_as(fse_user).post(f"/api/v1/permits/{issued.pk}/renew/")
    assert response.status_code == 409 and "L5" in response.json()["detail"]


@pytest.mark.provision("G1")
def test_g1_api_remodel_notice_flags_late_notice(town, fse_user, fees):
    response = api_as(fse_user).post(
        "/api/v1/remodel-notices/",
        {"establishment": town.own_fse.pk, "kind": "remodel", "description": "New hood",
         "planned_start": str(town_today() + dt.timedelta(days=30))},
        format="json",
    )  # fmt: skip
    assert response.status_code == 201 and response.json()["late"] is True


def test_api_fee_schedule_set_by_the_fog_manager(town, manager):
    client = api_as(manager)
    missing = client.post(
        "/api/v1/fee-schedules/",
        {"effective_from": "2027-01-01", "label": "2027", "amounts": {"new_permit": "10"}},
        format="json",
    )
    assert missing.status_code == 400 and "renewal" in missing.json()
    amounts = {"new_permit": "400.00", "renewal": "250.00", "reissue": "300.00", "plan_review": "500.00"}
    created = client.post(
        "/api/v1/fee-schedules/",
        {"effective_from": "2027-01-01", "label": "2027", "amounts": amounts},
        format="json",
    )
    assert created.status_code == 201 and len(created.json()["lines"]) == 4
    assert (
        api_as(town.users[Role.FSE])
        .post(
            "/api/v1/fee-schedules/",
            {"effective_from": "2028-01-01", "label": "x", "amounts": amounts},
            format="json",
        )
        .status_code
        == 403
    )


def test_application_status_values_are_the_documented_ones():
    assert {
        "draft",
        "submitted",
        "under_review",
        "information_requested",
        "inspection_scheduled",
        "issued",
    } <= set(ApplicationStatus.values)


def test_a_pdf_asked_for_a_permit_that_is_not_there_is_refused_in_json(town):
    """Found by schemathesis: with `Accept: application/pdf` the 404 was JSON labelled as a PDF."""
    client = api_as(town.users[Role.FOG_MANAGER])

    response = client.get("/api/v1/permits/999999/pdf/", HTTP_ACCEPT="application/pdf")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["detail"]
