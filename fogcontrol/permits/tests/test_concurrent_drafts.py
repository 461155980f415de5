"""Two people filling in the same permit application draft (the FSE, and staff helping it) from the
same copy (issue 15, optimistic concurrency; fogcontrol/core/concurrency.py): the first save wins,
the second is refused (409 on the page, with its input kept, and in the API), nothing is overwritten."""

import pytest
from django.test import Client

from conftest import api_as
from fogcontrol.permits import services
from fogcontrol.permits.models import PermitApplication
from fogcontrol.permits.tests.conftest import B3_ANSWERS
from fogcontrol.permits.tests.test_pages import management

STALE = "Someone else saved this record after you opened it"


@pytest.fixture
def as_user():
    def login(user) -> Client:
        client = Client()
        client.force_login(user)
        return client

    return login


def _form(version, **changes):
    answers = {f"app-{k}": v for k, v in (B3_ANSWERS | changes).items()}
    return answers | management(total=0) | {"app-version": version, "save": "1"}


@pytest.mark.provision("B3")
def test_b3_a_stale_draft_page_save_is_refused_with_the_input_kept(as_user, town, fse_user, manager, fees):
    draft = services.application_create(acting_user=fse_user, establishment=town.own_fse)
    opened_at = draft.version
    page = as_user(fse_user).get(f"/permits/applications/{draft.pk}/edit/").content.decode()
    assert f'name="app-version" value="{opened_at}"' in page

    won = as_user(manager).post(
        f"/permits/applications/{draft.pk}/edit/", _form(opened_at, dining_capacity=80)
    )
    assert won.status_code == 302
    refused = as_user(fse_user).post(
        f"/permits/applications/{draft.pk}/edit/", _form(opened_at, dining_capacity=45)
    )
    assert refused.status_code == 409
    html = refused.content.decode()
    assert STALE in html and 'value="45"' in html
    assert PermitApplication.objects.get(pk=draft.pk).dining_capacity == 80

    current = PermitApplication.objects.get(pk=draft.pk).version
    again = as_user(fse_user).post(
        f"/permits/applications/{draft.pk}/edit/", _form(current, dining_capacity=45)
    )
    assert again.status_code == 302
    assert PermitApplication.objects.get(pk=draft.pk).dining_capacity == 45


@pytest.mark.provision("B3")
def test_b3_a_stale_draft_api_save_is_refused_409_and_a_fresh_one_accepted(town, fse_user, manager, fees):
    draft = services.application_create(acting_user=fse_user, establishment=town.own_fse)
    fse, staff = api_as(fse_user), api_as(manager)
    etag = fse.get(f"/api/v1/permit-applications/{draft.pk}/")["ETag"]
    won = staff.patch(f"/api/v1/permit-applications/{draft.pk}/", {"dining_capacity": 80}, format="json",
                      HTTP_IF_MATCH=etag)  # fmt: skip
    assert won.status_code == 200, won.content
    assert won["ETag"] != etag
    refused = fse.patch(f"/api/v1/permit-applications/{draft.pk}/", {"dining_capacity": 45}, format="json",
                        HTTP_IF_MATCH=etag)  # fmt: skip
    assert refused.status_code == 409 and refused.json()["code"] == "stale_record"
    assert PermitApplication.objects.get(pk=draft.pk).dining_capacity == 80
    fresh = fse.patch(f"/api/v1/permit-applications/{draft.pk}/", {"dining_capacity": 45}, format="json",
                      HTTP_IF_MATCH=won["ETag"])  # fmt: skip
    assert fresh.status_code == 200
