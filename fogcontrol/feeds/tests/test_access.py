"""Who may reach the calendar feeds: the table in access_table.py, every route × every role
(fogcontrol/testing/access.py)."""

import pytest

from fogcontrol.feeds.tests.access_table import ROUTES, build
from fogcontrol.testing.access import access_cases, check_access, town_fixture

pytestmark = pytest.mark.django_db

town = town_fixture(build)


@pytest.mark.parametrize("route, role", access_cases(ROUTES))
def test_who_may_do_what(town, route, role):
    check_access(route, role, town)
