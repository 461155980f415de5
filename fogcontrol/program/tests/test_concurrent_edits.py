"""Two FOG Managers saving the Town profile from the same copy (issue 15, optimistic concurrency;
fogcontrol/core/concurrency.py): the first save wins, the second is refused (409 on the page,
with the input kept, and in the API), and nothing is silently overwritten."""

import pytest
from django.test import Client

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.program.selectors import town_profile
from fogcontrol.program.tests.test_pages import _profile_data
from fogcontrol.testing import factories

pytestmark = pytest.mark.django_db

STALE = "Someone else saved this record after you opened it"


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def two_managers(town):
    return town.users[Role.FOG_MANAGER], factories.UserFactory(role=Role.FOG_MANAGER)


def test_a_stale_profile_page_save_is_refused_with_the_input_kept(two_managers):
    first, second = (_client(user) for user in two_managers)
    opened_at = town_profile().version
    assert f'name="version" value="{opened_at}"' in first.get("/program/profile/edit/").content.decode()

    won = first.post("/program/profile/edit/", _profile_data(after_hours_emergency_phone="(650) 555-0111")
                     | {"version": opened_at})  # fmt: skip
    assert won.status_code == 302
    refused = second.post("/program/profile/edit/", _profile_data(after_hours_emergency_phone="(650) 555-0222")
                          | {"version": opened_at})  # fmt: skip

    assert refused.status_code == 409
    page = refused.content.decode()
    assert STALE in page and 'value="(650) 555-0222"' in page
    assert town_profile().after_hours_emergency_phone == "(650) 555-0111"

    # The refused form now carries the current version: sending it again is a deliberate overwrite.
    again = second.post("/program/profile/edit/", _profile_data(after_hours_emergency_phone="(650) 555-0222")
                        | {"version": town_profile().version})  # fmt: skip
    assert again.status_code == 302
    assert town_profile().after_hours_emergency_phone == "(650) 555-0222"


def test_a_stale_profile_api_save_is_refused_409_and_a_fresh_one_accepted(two_managers):
    first, second = (api_as(user) for user in two_managers)
    etag = second.get("/api/v1/program/profile/")["ETag"]
    won = first.patch("/api/v1/program/profile/", {"office_hours": "Weekdays 7 to 3"}, format="json",
                      HTTP_IF_MATCH=etag)  # fmt: skip
    assert won.status_code == 200 and won["ETag"] != etag

    refused = second.patch("/api/v1/program/profile/", {"office_hours": "Weekdays 9 to 5"}, format="json",
                           HTTP_IF_MATCH=etag)  # fmt: skip
    assert refused.status_code == 409 and refused.json()["code"] == "stale_record"
    assert town_profile().office_hours == "Weekdays 7 to 3"

    fresh = second.patch("/api/v1/program/profile/", {"office_hours": "Weekdays 9 to 5"}, format="json",
                         HTTP_IF_MATCH=refused["ETag"])  # fmt: skip
    assert fresh.status_code == 200
    assert town_profile().office_hours == "Weekdays 9 to 5"


# --- ruleset drafts: a version not yet in effect, edited in place ---------------------------------


@pytest.fixture
def draft(town, today):
    import datetime as dt

    from fogcontrol.program import services

    return services.ruleset_version_create(
        acting_user=town.users[Role.FOG_MANAGER], effective_from=dt.date(2027, 1, 1), label="Draft",
        values={"appeal_days": 20}, adoption_reference="Res. 2026-41", adopted_on=dt.date(2026, 6, 1),
    )  # fmt: skip


def test_a_stale_ruleset_draft_page_save_is_refused_with_the_input_kept(two_managers, draft):
    from fogcontrol.program.tests.test_pages import _ruleset_form

    first, second = (_client(user) for user in two_managers)
    url = f"/program/rulesets/{draft.pk}/edit/"
    assert f'name="version" value="{draft.version}"' in first.get(url).content.decode()

    won = first.post(url, _ruleset_form(appeal_days=21, label="First") | {"version": draft.version})
    assert won.status_code == 302
    refused = second.post(url, _ruleset_form(appeal_days=25, label="Second") | {"version": draft.version})

    assert refused.status_code == 409
    page = refused.content.decode()
    assert STALE in page and 'value="Second"' in page and 'value="25"' in page
    draft.refresh_from_db()
    assert draft.label == "First" and draft.values == {"appeal_days": 21}

    again = second.post(url, _ruleset_form(appeal_days=25, label="Second") | {"version": draft.version})
    assert again.status_code == 302
    draft.refresh_from_db()
    assert draft.label == "Second" and draft.values == {"appeal_days": 25}


def test_a_stale_ruleset_draft_api_save_is_refused_409_and_a_fresh_one_accepted(two_managers, draft):
    first, second = (api_as(user) for user in two_managers)
    url = f"/api/v1/program/rulesets/{draft.pk}/"
    read = second.get(url)
    etag = read["ETag"]
    assert etag == f'"{read.json()["version"]}"'
    won = first.patch(url, {"label": "First"}, format="json", HTTP_IF_MATCH=etag)
    assert won.status_code == 200 and won["ETag"] != etag

    refused = second.patch(url, {"label": "Second"}, format="json", HTTP_IF_MATCH=etag)
    assert refused.status_code == 409 and refused.json()["code"] == "stale_record"
    draft.refresh_from_db()
    assert draft.label == "First"

    fresh = second.patch(url, {"label": "Second"}, format="json", HTTP_IF_MATCH=refused["ETag"])
    assert fresh.status_code == 200
    draft.refresh_from_db()
    assert draft.label == "Second"
