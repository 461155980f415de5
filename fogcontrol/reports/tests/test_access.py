"""Who may see the map and the annual report: the table in access_table.py, every route × every
role (fogcontrol/testing/access.py)."""

import pytest

from fogcontrol.reports.tests.access_table import ROUTES
from fogcontrol.testing.access import access_cases, check_access, town_fixture

pytestmark = pytest.mark.django_db

town = town_fixture()


@pytest.mark.parametrize("route, role", access_cases(ROUTES))
def test_who_may_do_what(town, route, role):
    check_access(route, role, town)
