"""Who may open and change what in the registry: the table in access_table.py, every route × every
role (fogcontrol/testing/access.py)."""

import pytest

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.registry.models import FoodServiceEstablishment, HaulerCompany, Parcel, Party
from fogcontrol.registry.tests.access_table import EDITORS, POSTS, ROUTES, build
from fogcontrol.testing.access import access_cases, check_access, request, town_fixture

pytestmark = pytest.mark.django_db

town = town_fixture(build)


@pytest.mark.parametrize("route, role", access_cases(ROUTES))
def test_who_may_do_what(town, route, role):
    check_access(route, role, town)


def _state():
    return (
        AuditEntry.objects.count(),
        sorted(FoodServiceEstablishment.objects.values_list("business_name", "status")),
        Parcel.objects.count(),
        Party.objects.count(),
        sorted(HaulerCompany.objects.values_list("name", flat=True)),
    )


@pytest.mark.parametrize("role", sorted(set(Role) - EDITORS), ids=str)
def test_users_who_may_not_edit_change_nothing(town, role):
    before = _state()
    for route in POSTS:
        response = request(route, role, town, route.path(town))
        assert response.status_code == route.expected(role), route
    assert _state() == before
