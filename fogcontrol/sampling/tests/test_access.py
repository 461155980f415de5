"""Who may open and change what in sampling: the table in access_table.py, every route × every
role (fogcontrol/testing/access.py)."""

import pytest

from fogcontrol.sampling.tests.access_table import ROUTES, build
from fogcontrol.testing.access import access_cases, check_access, media_fixture, town_fixture

pytestmark = pytest.mark.django_db

_media_in_tmp = media_fixture()
town = town_fixture(build)


@pytest.mark.parametrize("route, role", access_cases(ROUTES))
def test_who_may_do_what(town, route, role):
    check_access(route, role, town)
