"""Many routine renewals approved at once (B5, B6): a confirmation, select-all on the filtered set,
each accepted and issued by the permits services in its own transaction (audited), and a summary
of what was renewed and what was refused, with why; the API's equivalent."""

import datetime as dt

import pytest

from conftest import api_as
from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.permits import services
from fogcontrol.permits.models import ApplicationStatus, PermitApplication
from fogcontrol.permits.tests.conftest import B3_ANSWERS, FIXTURES, fees, pay_fees, profile  # noqa: F401
from fogcontrol.program.selectors import town_today

pytestmark = pytest.mark.django_db

URL = "/dashboard/queues/renewals/"


def _permit(fse, device, manager):
    application = services.application_create(
        acting_user=manager, establishment=fse, fixtures=FIXTURES, device=device, device_kind=device.kind,
        **B3_ANSWERS | {"applicant_name": fse.business_name},
    )  # fmt: skip
    application = services.application_submit(application=application, acting_user=manager)
    application = services.application_accept(application=application, acting_user=manager)
    pay_fees(application, manager)
    return services.permit_issue(
        application=application,
        acting_user=manager,
        issued_on=town_today() - dt.timedelta(days=320),  # inside the B6 renewal window
    )


def _renewals(town, *, paid: bool):
    """Two renewals filed: the own FSE's and the other FSE's; the other's fee paid only if `paid`."""
    manager = town.users[Role.FOG_MANAGER]
    filed = []
    for fse, device in ((town.own_fse, town.own_device), (town.other_fse, town.other_device)):
        application = services.renewal_application_start(
            permit=_permit(fse, device, manager), acting_user=manager
        )
        filed.append(services.application_submit(application=application, acting_user=manager))
    pay_fees(filed[0], manager)
    if paid:
        pay_fees(filed[1], manager)
    return filed


@pytest.mark.provision("B6")
def test_the_manager_approves_all_matching_and_reads_who_was_refused(client, town, profile, fees):  # noqa: F811
    renewed, owing = _renewals(town, paid=False)
    client.force_login(town.users[Role.FOG_MANAGER])
    page = client.get(URL).content.decode()
    assert "2 renewals" in page and 'name="application"' in page
    confirm = client.post(URL, {"select_all": "on"})
    assert "Confirm the approval of 2 renewals" in confirm.content.decode()
    assert PermitApplication.objects.get(pk=renewed.pk).status == ApplicationStatus.SUBMITTED
    done = client.post(URL, {"select_all": "on", "confirmed": "yes"}).content.decode()
    assert "1 done, 1 refused" in done
    renewed.refresh_from_db(), owing.refresh_from_db()
    assert renewed.status == ApplicationStatus.ISSUED
    assert owing.status == ApplicationStatus.SUBMITTED  # left as it was: its fee is owed (B3)
    assert "B3" in done or "fee" in done
    assert AuditEntry.objects.filter(action="application.accept", object_id=str(renewed.pk)).exists()


def test_only_the_manager_may_approve_renewals(client, town, profile, fees):  # noqa: F811
    (first, _second) = _renewals(town, paid=True)
    client.force_login(town.users[Role.INSPECTOR])
    assert 'name="application"' not in client.get(URL).content.decode()
    assert client.post(URL, {"application": [first.pk], "confirmed": "yes"}).status_code == 403
    first.refresh_from_db()
    assert first.status == ApplicationStatus.SUBMITTED


@pytest.mark.provision("B6")
def test_the_api_approves_named_renewals_and_counts_on_a_dry_run(town, profile, fees):  # noqa: F811
    first, second = _renewals(town, paid=True)
    api = api_as(town.users[Role.FOG_MANAGER])
    dry = api.post("/api/v1/queues/renewals/approve/", {"all_matching": True, "dry_run": True}, format="json")
    assert dry.status_code == 200 and dry.json()["matched"] == 2
    answer = api.post(
        "/api/v1/queues/renewals/approve/", {"ids": [first.pk, second.pk]}, format="json"
    ).json()
    assert sorted(answer["done"]) == sorted([first.pk, second.pk]) and answer["refused"] == []
    again = api.post("/api/v1/queues/renewals/approve/", {"ids": [first.pk]}, format="json")
    assert again.status_code == 400  # no longer a routine renewal waiting: nothing to approve
