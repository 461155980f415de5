"""Every spills list, page and API, takes an exact number of queries whatever its length
(docs/architecture.md, "Queries"): per role, the counts stated here."""

import datetime as dt
import itertools

import pytest
from django.test import Client
from rest_framework.test import APIClient

from fogcontrol.core.roles import Role
from fogcontrol.program.selectors import town_today
from fogcontrol.spills import services
from fogcontrol.spills.imports.services import spill_import_upload
from fogcontrol.spills.tests.ciwqs_files import plsd_row, plsd_upload
from fogcontrol.spills.tests.helpers import fog_spill, notice
from fogcontrol.testing.auth import force_login_verified
from fogcontrol.testing.queries import assert_queries_do_not_grow

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("media_in_tmp")]

# Pages: the Town profile, the session and user, the count, the establishments the filter offers,
# the page of rows and the linked FSEs (one prefetch); the spills page also the map's points (one
# query of the filtered spills' places, docs/spills.md "The map"); the reports page the ruleset in force (the
# page states J2's days) instead of the prefetch, its written reports joined. API lists: the count, the rows, the
# prefetch; the reports' J2 working reads the calendar and the rulesets once.
STAFF_LISTS = {
    "/spills/": 8,
    "/spills/reports/": 7,
    "/spills/imports/": 5,
    "/api/v1/spills/": 4,
    "/api/v1/spill-reports/": 6,
    "/api/v1/imports/spills/": 3,
}
FSE_LISTS = {"/spills/": 8, "/spills/reports/": 7, "/api/v1/spills/": 4, "/api/v1/spill-reports/": 6}


def _rows(town, *, imports: bool):
    numbers = itertools.count(1)
    inspector = town.users[Role.INSPECTOR]

    def add(count):
        for _ in range(count):
            n = next(numbers)
            spill = fog_spill(town, links=[(town.own_fse, "upstream")], address=f"{n} Main Street")
            services.spill_link(
                spill=spill, establishment=town.other_fse, reason="shares the lateral", acting_user=inspector
            )
            notice(town, day=town_today() - dt.timedelta(days=1))
            if imports:
                spill_import_upload(acting_user=inspector, uploaded_file=plsd_upload([plsd_row(700000 + n)]))

    return add


class _Both:
    """Pages through the session, the API through the same user's session too."""

    def __init__(self, user):
        self.page, self.api = Client(), APIClient()
        force_login_verified(self.page, user)
        self.api.force_authenticate(user)

    def get(self, url, data=None, **kwargs):
        return (self.api if url.startswith("/api/") else self.page).get(url, data or {}, **kwargs)


def test_staff_lists_take_a_fixed_number_of_queries(town):
    assert_queries_do_not_grow(_Both(town.users[Role.FOG_MANAGER]), _rows(town, imports=True), STAFF_LISTS)


def test_fse_lists_take_a_fixed_number_of_queries(town):
    assert_queries_do_not_grow(_Both(town.users[Role.FSE]), _rows(town, imports=False), FSE_LISTS)
