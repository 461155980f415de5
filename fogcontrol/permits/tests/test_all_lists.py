"""The "All permits" and "All applications" pages list every record the user may see (issue 19,
item 1): with no filter in the query string, the lists are not empty."""

import html

import pytest

from fogcontrol.permits.tests.factories import PermitFactory


def text(response) -> str:
    return " ".join(html.unescape(response.content.decode()).split())


def test_all_permits_with_no_filter_lists_every_permit(client, town, manager):
    PermitFactory(number="FOG-2025-00001", establishment=town.own_fse)
    PermitFactory(number="FOG-2025-00002", establishment=town.other_fse)
    client.force_login(manager)
    page = text(client.get("/permits/list/"))
    assert "FOG-2025-00001" in page and "FOG-2025-00002" in page


def test_all_applications_with_no_filter_lists_every_application(client, draft, manager):
    client.force_login(manager)
    page = text(client.get("/permits/applications/"))
    assert draft.establishment.business_name in page


def test_a_wrong_filter_lists_nothing(client, town, manager):
    PermitFactory(number="FOG-2025-00003", establishment=town.own_fse)
    client.force_login(manager)
    response = client.get("/permits/list/", {"valid_until_before": "not a date"})
    assert response.status_code == 200
    page = text(response)
    assert "FOG-2025-00003" not in page and "No permit matches these filters." in page


@pytest.mark.parametrize("query", [{"page": "1"}, {"status": ""}])
def test_paging_or_an_empty_filter_still_lists_every_permit(client, town, manager, query):
    PermitFactory(number="FOG-2025-00004", establishment=town.own_fse)
    client.force_login(manager)
    assert "FOG-2025-00004" in text(client.get("/permits/list/", query))
