"""L5: "any future application ... by any person associated with an order of suspension or revocation
may be denied". Only a person decides: the review page and the API's application detail warn of each
revoked permit the applicant's business is associated with (same establishment and licence, same
operator, same business name), naming the permit, the order and L5; the reviewer may deny under L5."""

import html

import pytest

from conftest import api_as
from fogcontrol.permits import services
from fogcontrol.permits.models import ApplicationStatus, PermitApplication
from fogcontrol.permits.tests.factories import PermitFactory
from fogcontrol.permits.tests.orders import final_order
from fogcontrol.rules.enforcement import Business, l5_associations
from fogcontrol.testing.factories import EstablishmentFactory

pytestmark = pytest.mark.django_db
APPS = "/api/v1/permit-applications/"


def text(response) -> str:
    return " ".join(html.unescape(response.content.decode()).split())


def revoked_permit(manager, establishment):
    permit = PermitFactory(establishment=establishment)
    order = final_order(permit, manager, kind="revocation")
    services.permit_revoke(permit=permit, acting_user=manager, order=order)
    return permit, order


@pytest.fixture
def submitted(draft, fse_user):
    return services.application_submit(application=draft, acting_user=fse_user)


@pytest.fixture
def same_operator_revoked(town, manager):
    """A permit revoked under L at another location run by the applicant's operator."""
    elsewhere = EstablishmentFactory(business_name="Harbor Grill", operator=town.own_fse.operator)
    return revoked_permit(manager, elsewhere)


@pytest.mark.provision("L5")
def test_l5_the_review_page_warns_of_the_revoked_permit_of_the_same_operator_and_offers_deny_under_l5(
    client, town, manager, submitted, same_operator_revoked
):
    permit, order = same_operator_revoked
    client.force_login(manager)
    page = text(client.get(f"/permits/applications/{submitted.pk}/"))
    assert "L5: associated with a revoked permit" in page
    assert f"L5: permit {permit.number} of Harbor Grill was revoked by order {order.reference}" in page
    assert f"the same operator ({town.own_fse.operator.name})" in page
    assert "Deny under L5" in page


@pytest.mark.provision("L5")
def test_l5_the_api_application_detail_names_the_revoked_permit_and_order_to_staff_only(
    town, manager, fse_user, submitted, same_operator_revoked
):
    permit, order = same_operator_revoked
    data = api_as(manager).get(f"{APPS}{submitted.pk}/").json()
    [warning] = data["l5_warnings"]
    assert warning["provision"] == "L5"
    assert (warning["permit_number"], warning["order_reference"]) == (permit.number, order.reference)
    assert warning["associations"] == [f"the same operator ({town.own_fse.operator.name})"]
    assert api_as(fse_user).get(f"{APPS}{submitted.pk}/").json()["l5_warnings"] == []


@pytest.mark.provision("L5")
def test_l5_deny_under_l5_on_the_page_gives_the_permit_and_order_as_the_reasons(
    client, manager, submitted, same_operator_revoked
):
    permit, order = same_operator_revoked
    client.force_login(manager)
    done = client.post(f"/permits/applications/{submitted.pk}/reject/",
                       {"reject-reasons": "Reviewed the records of the revoked permit.", "reject-deny_under_l5": "on"})  # fmt: skip
    assert done.status_code == 302
    application = PermitApplication.objects.get(pk=submitted.pk)
    assert application.status == ApplicationStatus.REJECTED
    assert application.decision_reason.startswith("Denied under L5 (Chapter 10.02)")
    assert permit.number in application.decision_reason and order.reference in application.decision_reason


@pytest.mark.provision("L5")
def test_l5_deny_under_l5_through_the_api(manager, submitted, same_operator_revoked):
    permit, _order = same_operator_revoked
    response = api_as(manager).post(f"{APPS}{submitted.pk}/reject/",
                                    {"reasons": "Reviewed.", "deny_under_l5": True}, format="json")  # fmt: skip
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "rejected" and permit.number in response.json()["decision_reason"]


@pytest.mark.provision("L5")
def test_l5_no_association_no_warning_and_deny_under_l5_is_refused(client, manager, submitted):
    revoked_permit(manager, EstablishmentFactory(business_name="Unrelated Noodles"))
    client.force_login(manager)
    page = text(client.get(f"/permits/applications/{submitted.pk}/"))
    assert "L5: associated with a revoked permit" not in page and "Deny under L5" not in page
    assert api_as(manager).get(f"{APPS}{submitted.pk}/").json()["l5_warnings"] == []
    refused = api_as(manager).post(f"{APPS}{submitted.pk}/reject/",
                                   {"reasons": "Reviewed.", "deny_under_l5": True}, format="json")  # fmt: skip
    assert refused.status_code == 400 and "L5" in refused.json()["deny_under_l5"][0]
    page_refused = client.post(f"/permits/applications/{submitted.pk}/reject/",
                               {"reject-reasons": "Reviewed.", "reject-deny_under_l5": "on"})  # fmt: skip
    assert page_refused.status_code == 400 and "L5: this application is not associated" in text(page_refused)
    assert PermitApplication.objects.get(pk=submitted.pk).status == ApplicationStatus.SUBMITTED


@pytest.mark.provision("L5")
def test_l5_association_by_establishment_operator_or_business_name():
    revoked = Business(establishment_id=1, licence_number="BL-1", business_name="Blue Plate  Diner",
                       operator_id=7, operator_name="Reyes LLC")  # fmt: skip
    assert l5_associations(Business(1, "BL-1", "Blue Plate Diner"), revoked) == [
        "the same business and business licence (BL-1)"
    ]
    assert l5_associations(Business(2, "BL-2", "blue plate diner", operator_id=7), revoked) == [
        "the same operator (Reyes LLC)",
        "the same business name (Blue Plate  Diner)",
    ]
    assert l5_associations(Business(3, "BL-3", "Harbor Grill", operator_id=8), revoked) == []
