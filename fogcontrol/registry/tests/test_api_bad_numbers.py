"""Numbers too large for any id are refused with a message, never a server error."""

import pytest

from conftest import api_as
from fogcontrol.core.roles import Role

HUGE = "99999999999999999999999"


@pytest.mark.parametrize(
    ("path", "parameter"),
    [
        ("/api/v1/devices/", "parcel"),
        ("/api/v1/devices/", "establishment"),
        ("/api/v1/establishments/", "parcel"),
    ],
)
@pytest.mark.parametrize("value", [HUGE, f"-{HUGE}", "1e400", "0"])
def test_an_id_filter_out_of_range_answers_400_naming_it(town, path, parameter, value):
    response = api_as(town.users[Role.FOG_MANAGER]).get(path, {parameter: value})
    assert response.status_code == 400
    assert parameter in response.json()


def test_a_huge_id_in_the_path_is_not_found(town):
    assert api_as(town.users[Role.FOG_MANAGER]).get(f"/api/v1/devices/{HUGE}/").status_code == 404


def test_the_device_list_page_ignores_an_impossible_parcel(town, client):
    client.force_login(town.users[Role.FOG_MANAGER])
    assert client.get("/registry/devices/", {"parcel": HUGE}).status_code in (200, 400)


def test_an_id_that_is_not_a_number_is_not_found_in_json(town):
    """Found by schemathesis: `/api/v1/devices/abc/` matched no URL and answered Django's HTML page."""
    response = api_as(town.users[Role.FOG_MANAGER]).get("/api/v1/devices/1.5e-7/")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": "Not found."}


def test_a_patch_answers_the_whole_record_with_its_empty_links_as_null(town):
    """Found by schemathesis: a PATCH left out every field whose source was empty (a parcel without
    a designee had no `owner_designee_name`), where GET gives it as null."""
    client = api_as(town.users[Role.FOG_MANAGER])
    parcel = town.owned_parcel

    patched = client.patch(f"/api/v1/parcels/{parcel.pk}/", {"situs_address": "402 Plaza Way"}, format="json")

    assert patched.status_code == 200
    assert patched.json()["situs_address"] == "402 Plaza Way"
    assert "owner_designee_name" in patched.json() and patched.json()["owner_designee_name"] is None
