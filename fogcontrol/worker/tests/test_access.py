"""Who may see the background work: the table in access_table.py, every route × every role."""

import pytest

from fogcontrol.testing.access import access_cases, check_access, town_fixture
from fogcontrol.worker.tests.access_table import ROUTES

pytestmark = pytest.mark.django_db

town = town_fixture()


@pytest.mark.parametrize("route, role", access_cases(ROUTES))
def test_who_may_do_what(town, route, role):
    check_access(route, role, town)
