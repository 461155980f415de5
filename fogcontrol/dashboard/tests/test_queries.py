"""The "today" figures and trends take a fixed number of queries, whatever the size of the town:
one per source (an aggregate), one per trend, never one per row."""

import datetime as dt

import pytest

from fogcontrol.billing.tests.helpers import invoice
from fogcontrol.core.roles import Role
from fogcontrol.enforcement.tests.helpers import a_case
from fogcontrol.inspections.tests.helpers import scheduled
from fogcontrol.permits.tests.factories import PermitFactory
from fogcontrol.program.selectors import town_today
from fogcontrol.servicing.models import ManifestFlag
from fogcontrol.servicing.tests.helpers import submit
from fogcontrol.spills.tests.helpers import fog_spill
from fogcontrol.testing.factories import DeviceFactory
from fogcontrol.testing.queries import assert_queries_do_not_grow

pytestmark = pytest.mark.django_db

# The home page: the session, the user, the Town, then the dashboard for the FOG Manager: one read
# of the kept counts (issue 16, kept.py: the registry's tiles and haulers, the device states, the
# permits' expiry bands and applications, flags and frequency requests, this month's inspections,
# this week's hearings, the invoices and what they owe, the manifests', inspections' and payments'
# trends), the open cases by stage, this year's spills and their trend; and the background queue's
# (fogcontrol.core.queue.queue_health: the workers' beats in one aggregate, and on the database
# queue the jobs' counts in another; the beats were two queries before 2026-12-01). Before the kept
# counts: 27; with the registry's and servicing's kept: 19. The API: the figures and trends without
# the tiles or the queue (18, then 16). The page reads the Town once since it reads the program once
# (`program_read_once`: the middleware's profile serves `town_today`): 10 before.
HOME_QUERIES = 8
API_QUERIES = 8


def add_rows(town):
    hauler = town.users[Role.HAULER]

    def add(count):
        for _ in range(count):
            device = DeviceFactory(establishments=[town.own_fse], parcel=town.own_fse.parcel)
            manifest = submit(hauler, device)
            ManifestFlag.objects.create(
                manifest=manifest, code="fill_high", provision="E4", message="Fill high"
            )
            a_case(town)
            invoice(town)
            fog_spill(town, day=town_today())
            scheduled(town.own_fse, town.users[Role.INSPECTOR], scheduled_on=town_today())
            PermitFactory(valid_until=town_today() + dt.timedelta(days=20))

    return add


def test_the_dashboard_takes_the_same_queries_at_two_sizes(client, town):
    client.force_login(town.users[Role.FOG_MANAGER])
    assert_queries_do_not_grow(client, add_rows(town), {"/": HOME_QUERIES, "/api/v1/dashboard/": API_QUERIES})
