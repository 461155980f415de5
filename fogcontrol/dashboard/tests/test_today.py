"""The staff home is the "today" dashboard: each role sees its panels, each figure a link to its
list; trends are server-drawn SVG with titles; the API returns the same figures; outside users have
none of it."""

import pytest
from django.test import Client

from conftest import api_as
from fogcontrol.core.roles import OUTSIDE_ROLES, Role
from fogcontrol.dashboard.tests.helpers import open_flags

pytestmark = pytest.mark.django_db

EXPECTED_PANELS = {
    Role.FOG_MANAGER: ["servicing", "permits", "inspections", "enforcement", "money", "spills"],
    Role.STAFF_READONLY: ["servicing", "permits", "inspections", "enforcement", "money", "spills"],
    Role.INSPECTOR: ["servicing", "permits", "inspections", "spills"],
    Role.HEARING_OFFICER: ["enforcement"],
    Role.BILLING_CLERK: ["money"],
}


def test_each_staff_role_sees_its_panels_and_the_api_says_the_same(town):
    open_flags(town, 3)
    for role, expected in EXPECTED_PANELS.items():
        client = Client()
        client.force_login(town.users[role])
        response = client.get("/")
        assert [panel.key for panel in response.context["panels"]] == expected, role
        body = api_as(town.users[role]).get("/api/v1/dashboard/").json()
        assert [panel["key"] for panel in body["panels"]] == expected, role
        page_figures = {f.key: f.count for p in response.context["panels"] for f in p.figures}
        api_figures = {f["key"]: f["count"] for p in body["panels"] for f in p["figures"]}
        assert page_figures == api_figures


def test_the_manager_sees_the_flags_waiting_and_may_review_them_in_bulk(client, town):
    open_flags(town, 3)
    client.force_login(town.users[Role.FOG_MANAGER])
    page = client.get("/").content.decode()
    assert 'data-figure="flags_open"><strong class="figure-count">3</strong> manifest flags to review' in page
    assert "/servicing/flags/?review=open" in page
    assert "Review many flags at once" in page


def test_read_only_staff_see_the_figures_but_no_work_queue_action(client, town):
    open_flags(town, 1)
    client.force_login(town.users[Role.STAFF_READONLY])
    page = client.get("/").content.decode()
    assert "manifest flags to review" in page
    assert "Review many flags at once" not in page


def test_an_inspector_counts_its_own_inspections(client, town):
    inspector = town.users[Role.INSPECTOR]
    client.force_login(inspector)
    response = client.get("/")
    (panel,) = [p for p in response.context["panels"] if p.key == "inspections"]
    assert panel.title == "Your inspections"
    assert all(f"inspector={inspector.pk}" in figure.url for figure in panel.figures)


def test_the_trends_are_svg_drawn_on_the_server_with_titles(client, town):
    open_flags(town, 2)
    client.force_login(town.users[Role.FOG_MANAGER])
    page = client.get("/").content.decode()
    assert page.count('<svg class="trend-svg"') == 4  # manifests, inspections, payments, spills
    assert 'role="img"' in page and "<desc id=" in page
    assert "Manifests filed, by service date, last 12 months" in page
    assert ": 2 manifests</title>" in page  # the month's bar, named
    assert "http://" not in page.split("<svg", 1)[1].split("</svg>", 1)[0].replace("http://www.w3.org", "")


@pytest.mark.parametrize("role", sorted(OUTSIDE_ROLES))
def test_outside_users_have_no_dashboard(client, town, role):
    client.force_login(town.users[role])
    assert "panels" not in client.get("/").context
    assert api_as(town.users[role]).get("/api/v1/dashboard/").status_code == 404
