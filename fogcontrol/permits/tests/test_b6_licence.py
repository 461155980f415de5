"""B6: the permit is issued for a one-year period and renewed annually and concurrently with the
applicant's business licence: expiry aligned to the licence (never more than the B6 term from its
start), no permit on an expired or missing licence, a licence's new expiry reaching the permit."""

import datetime as dt
import html

import pytest

from conftest import api_as
from fogcontrol.audit.selectors import audit_entries_for
from fogcontrol.permits import services
from fogcontrol.permits.models import Permit, PermitNotice, PermitStatus
from fogcontrol.permits.states import TransitionNotAllowed
from fogcontrol.permits.tests.conftest import pay_fees
from fogcontrol.permits.tests.factories import PermitFactory
from fogcontrol.program.selectors import town_today
from fogcontrol.registry.imports.testing import HEADER, csv_upload, import_upload
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.registry.services import establishment_update
from fogcontrol.testing.factories import EstablishmentFactory

D = dt.date


def licence_expires(establishment, day):
    """Set the licence's expiry as the licence records have it (not through the audited service)."""
    FoodServiceEstablishment.objects.filter(pk=establishment.pk).update(licence_expires_on=day)


def page_text(response) -> str:
    return " ".join(html.unescape(response.content.decode()).split())


@pytest.mark.provision("B6")
def test_b6_issue_on_an_expired_licence_is_refused_naming_the_licence_and_its_expiry(accepted, manager, town):
    yesterday = town_today() - dt.timedelta(days=1)
    licence_expires(town.own_fse, yesterday)
    with pytest.raises(TransitionNotAllowed) as error:
        services.permit_issue(application=accepted, acting_user=manager)
    words = str(error.value)
    assert town.own_fse.licence_number in words
    assert f"{yesterday:%B} {yesterday.day}, {yesterday.year}" in words and "B6" in words
    assert not Permit.objects.exists()


@pytest.mark.provision("B6")
def test_b6_issue_on_a_licence_with_no_expiry_on_record_is_refused(accepted, manager, town):
    licence_expires(town.own_fse, None)
    with pytest.raises(TransitionNotAllowed, match="no expiry date on record"):
        services.permit_issue(application=accepted, acting_user=manager)


@pytest.mark.provision("B6")
def test_b6_api_and_page_refuse_an_expired_licence_with_409_and_the_reason(accepted, manager, town, client):
    licence_expires(town.own_fse, D(2026, 6, 30))
    response = api_as(manager).post(f"/api/v1/permit-applications/{accepted.pk}/issue/", {}, format="json")
    assert response.status_code == 409
    assert town.own_fse.licence_number in response.json()["detail"]
    assert "Tuesday, June 30, 2026" in response.json()["detail"]
    client.force_login(manager)
    page = client.post(f"/permits/applications/{accepted.pk}/issue/", {
        "issue-device_kind": "gravity_interceptor", "issue-device_capacity_gallons": "1000",
        "issue-service_frequency_days": "90"})  # fmt: skip
    assert page.status_code == 409
    assert f"Business licence {town.own_fse.licence_number} expired on Tuesday, June 30, 2026" in page_text(
        page
    )


@pytest.mark.provision("B6")
def test_b6_expiry_is_aligned_to_the_licence_and_never_more_than_one_year(accepted, manager, town, fse_user):
    today = town_today()
    licence_expires(town.own_fse, D(2027, 4, 28))
    permit = services.permit_issue(application=accepted, acting_user=manager, issued_on=today)
    assert permit.valid_until == D(2027, 4, 28)  # the licence's expiry, a Wednesday
    version = permit.versions.get()
    assert version.valid_until == D(2027, 4, 28) and version.licence_expires_on == D(2027, 4, 28)
    client_page = api_as(manager).get(f"/api/v1/permits/{permit.pk}/").json()
    assert client_page["valid_until"] == "2027-04-28"
    assert "valid until Wednesday, April 28, 2027" in PermitNotice.objects.get(permit=permit).body

    # A licence that runs longer than the term: the permit still runs one year (B6), then is renewed.
    other = EstablishmentFactory(licence_expires_on=D(2028, 6, 30))
    application = services.application_create(acting_user=manager, establishment=other, device_kind="gravity_interceptor",
                                              device_capacity_gallons=1000, fixtures=[], route="in_lieu",
                                              applicant_name="x", building_permit_number="B-1")  # fmt: skip
    from django.core.files.uploadedfile import SimpleUploadedFile

    services.application_add_document(application=application, acting_user=manager, kind="building_permit",
                                      uploaded_file=SimpleUploadedFile("bp.pdf", b"%PDF-1.4\n"))  # fmt: skip
    application = services.application_submit(application=application, acting_user=manager)
    pay_fees(application, manager)
    application = services.application_accept(application=application, acting_user=manager)
    capped = services.permit_issue(application=application, acting_user=manager, issued_on=D(2026, 1, 5))
    assert capped.valid_until == D(2027, 1, 5)  # one year from issue, not the licence's 2028


@pytest.mark.provision("B6")
def test_b6_the_permit_page_shows_the_licence_and_the_aligned_working(accepted, manager, town, client):
    licence_expires(town.own_fse, D(2027, 4, 28))
    permit = services.permit_issue(application=accepted, acting_user=manager)
    client.force_login(manager)
    page = page_text(client.get(f"/permits/{permit.pk}/"))
    assert f"{town.own_fse.licence_number}, expires April 28, 2027" in page
    assert "aligned to the licence" in page


@pytest.mark.provision("B6")
def test_b6_renewal_is_refused_while_the_licence_ends_before_the_renewed_term(
    issued_2025, fse_user, manager, town
):
    licence_expires(town.own_fse, D(2026, 6, 30))
    application = services.renewal_application_start(permit=issued_2025, acting_user=fse_user)
    application = services.application_submit(application=application, acting_user=fse_user)
    pay_fees(application, manager)
    application = services.application_accept(application=application, acting_user=manager)
    with pytest.raises(TransitionNotAllowed) as error:
        services.permit_issue(application=application, acting_user=manager, issued_on=D(2026, 6, 15))
    assert town.own_fse.licence_number in str(error.value) and "June 30, 2026" in str(error.value)
    licence_expires(town.own_fse, D(2027, 6, 30))  # the licence is renewed: so is the permit, with it
    permit = services.permit_issue(application=application, acting_user=manager, issued_on=D(2026, 6, 15))
    assert (permit.term_start, permit.valid_until) == (D(2026, 7, 1), D(2027, 6, 30))


@pytest.mark.provision("B6")
def test_b6_a_licence_import_changing_the_expiry_moves_the_permits_expiry_audited(issued, town):
    assert issued.valid_until == D(2027, 6, 30)  # aligned to the licence as issued
    fse = town.own_fse
    row = [fse.licence_number, fse.business_name, fse.site_address, "4/28/2027", "", ""]
    import_upload(csv_upload([HEADER, row]))
    issued.refresh_from_db()
    assert issued.valid_until == D(2027, 6, 30)  # a dry run changes nothing
    import_upload(csv_upload([HEADER, row]), apply=True, acting_user="licence-import")
    issued.refresh_from_db()
    assert issued.valid_until == D(2027, 4, 28) and issued.version_number == 2
    version = issued.versions.get(number=2)
    assert version.reason == "licence" and version.valid_until == D(2027, 4, 28)
    entry = audit_entries_for(issued).get(action="permit.licence_expiry")
    assert entry.before["valid_until"] == "2027-06-30" and entry.after["valid_until"] == "2027-04-28"
    assert entry.actor_label == "licence-import"
    assert issued.events.filter(action="permit.licence_expiry").exists()
    notice = PermitNotice.objects.get(permit=issued, kind="licence_expiry")
    assert "Wednesday, April 28, 2027" in notice.body and fse.licence_number in notice.body


@pytest.mark.provision("B6")
def test_b6_a_registry_edit_of_the_licence_moves_the_permit_within_the_one_year_cap(issued, town, manager):
    establishment_update(establishment=town.own_fse, acting_user=manager, licence_expires_on=D(2028, 6, 30))
    issued.refresh_from_db()
    # The term began October 31, 2026: one year ends Sunday, October 31, 2027, renewable Monday (CCP §12a).
    assert issued.valid_until == D(2027, 11, 1)
    assert audit_entries_for(issued).filter(action="permit.licence_expiry").count() == 1


@pytest.mark.provision("B6")
def test_b6_an_expired_permit_does_not_come_back_with_the_licence(issued_2025, town, manager):
    services.permits_expire_lapsed(on=D(2026, 7, 2))
    establishment_update(establishment=town.own_fse, acting_user=manager, licence_expires_on=D(2027, 12, 31))
    issued_2025.refresh_from_db()
    assert issued_2025.status == PermitStatus.EXPIRED and issued_2025.valid_until == D(2026, 7, 1)


@pytest.mark.provision("B6")
def test_b6_renewal_list_is_selected_and_ordered_by_the_licence_expiry(town, manager, client):
    today = town_today()
    soon_licence = PermitFactory(
        establishment=EstablishmentFactory(business_name="Licence Soon", licence_expires_on=today + dt.timedelta(days=20)),
        valid_until=today + dt.timedelta(days=300),
    )  # fmt: skip
    soon_permit = PermitFactory(
        establishment=EstablishmentFactory(business_name="Term Soon", licence_expires_on=today + dt.timedelta(days=400)),
        valid_until=today + dt.timedelta(days=40),
    )  # fmt: skip
    PermitFactory(
        establishment=EstablishmentFactory(business_name="Later", licence_expires_on=today + dt.timedelta(days=200)),
        valid_until=today + dt.timedelta(days=200),
    )  # fmt: skip
    rows = api_as(manager).get("/api/v1/permit-renewals/", {"within_days": 60}).json()["results"]
    assert [r["number"] for r in rows] == [soon_licence.number, soon_permit.number]
    assert rows[0]["renew_by"] == str(today + dt.timedelta(days=20))
    assert rows[0]["licence_expires_on"] == str(today + dt.timedelta(days=20))
    client.force_login(manager)
    page = page_text(client.get("/permits/renewals/", {"within": 60}))
    assert page.index("Licence Soon") < page.index("Term Soon") and "Later" not in page


@pytest.mark.provision("B6")
def test_b6_q2_renewal_on_a_licence_held_for_a_delinquent_debt_is_refused_with_the_amount(
    issued_2025, fse_user, manager, town
):
    """Q2: no licence is renewed while a debt to the Town is delinquent, so neither is the permit
    that runs with it (B6); billing answers through core.owed, and paying lifts the hold."""
    from fogcontrol.billing.services import payment_record
    from fogcontrol.billing.tests.helpers import clerk, days_ago, invoice

    licence_expires(town.own_fse, D(2027, 6, 30))
    application = services.renewal_application_start(permit=issued_2025, acting_user=fse_user)
    application = services.application_submit(application=application, acting_user=fse_user)
    pay_fees(application, manager)
    application = services.application_accept(application=application, acting_user=manager)
    late = invoice(town, "120.00", notice_date=days_ago(100))
    with pytest.raises(TransitionNotAllowed, match=r"held \(Q2\): \$120.00"):
        services.permit_issue(application=application, acting_user=manager, issued_on=D(2026, 6, 15))
    payment_record(acting_user=clerk(town), debtor=late.debtor, amount="120.00", method="cash")
    permit = services.permit_issue(application=application, acting_user=manager, issued_on=D(2026, 6, 15))
    assert permit.valid_until == D(2027, 6, 30)
