"""Every sampling list (and the D6 charges list) takes the same, exact number of queries with 2
rows and with 7 (fogcontrol/testing/queries.py), for staff and for the FSE; the sample page with 2
and with 7 hand-offs and results alike."""

import datetime as dt
import itertools

import pytest
from django.test import Client

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.inspections.services import compliance_charge_record
from fogcontrol.program.selectors import town_today
from fogcontrol.sampling.services import custody_add, facility_require, limit_set, results_record
from fogcontrol.sampling.tests.helpers import at, fog_row, sample_of, schedule_with_rates
from fogcontrol.testing.queries import assert_queries_do_not_grow, assert_same_exact_queries

pytestmark = pytest.mark.django_db


def _adder(town):
    inspector, manager = town.users[Role.INSPECTOR], town.users[Role.FOG_MANAGER]
    schedule_with_rates()
    numbers = itertools.count(1)

    def add_rows(count):
        for _ in range(count):
            n = next(numbers)
            sample = sample_of(town.own_fse, inspector, device=town.own_device)
            results_record(sample=sample, rows=[fog_row(str(n))], acting_user=inspector)
            limit_set(
                establishment=town.own_fse, analyte="fog", unit="mg/L", max_value=n,
                effective_from=dt.date(2024, 1, 1) + dt.timedelta(days=n), acting_user=manager,
            )  # fmt: skip
            facility_require(
                establishment=town.own_fse, kind="sampling", description=f"Box {n}", location="Lot",
                required_on=town_today() - dt.timedelta(days=n), acting_user=manager,
            )  # fmt: skip
            compliance_charge_record(
                establishment=town.own_fse, kind="sampling", quantity=1, reason=f"Case {n}",
                incurred_on=town_today(), acting_user=inspector,
            )  # fmt: skip

    return add_rows


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    "role, pages",
    [
        # The FOG Manager's limits and facilities pages carry the form (its establishment choices).
        (Role.FOG_MANAGER, {"/sampling/": 6, "/sampling/limits/": 8, "/sampling/facilities/": 10, "/inspections/charges/": 6}),
        (Role.FSE, {"/sampling/": 6, "/sampling/limits/": 6, "/sampling/facilities/": 8, "/inspections/charges/": 6}),
    ],
)  # fmt: skip
def test_lists_take_a_fixed_number_of_queries(town, role, pages):
    assert_queries_do_not_grow(_client(town.users[role]), _adder(town), pages)


@pytest.mark.parametrize(
    "role, apis",
    [
        (Role.FOG_MANAGER, {"/api/v1/samples/": 3, "/api/v1/discharge-limits/": 3, "/api/v1/monitoring-facilities/": 3, "/api/v1/compliance-charges/": 3}),
        (Role.FSE, {"/api/v1/samples/": 3, "/api/v1/discharge-limits/": 3, "/api/v1/monitoring-facilities/": 3, "/api/v1/compliance-charges/": 3}),
    ],
)  # fmt: skip
def test_api_lists_take_a_fixed_number_of_queries(town, role, apis):
    assert_queries_do_not_grow(api_as(town.users[role]), _adder(town), apis)


def test_the_sample_page_takes_the_same_queries_whatever_its_custody_and_results(town):
    inspector = town.users[Role.INSPECTOR]
    pages = []
    for size in (2, 7):
        sample = sample_of(town.own_fse, inspector)
        holder = sample.sampled_by
        for i in range(size):
            custody_add(
                sample=sample, released_by=holder, received_by=f"Person {i}",
                at=at(sample.sampled_at.date(), 10, i), acting_user=inspector,
            )  # fmt: skip
            holder = f"Person {i}"
        results_record(sample=sample, rows=[fog_row(str(i)) for i in range(size)], acting_user=inspector)
        pages.append(f"/sampling/{sample.pk}/")
    assert_same_exact_queries(_client(inspector), pages, 11)
    assert_same_exact_queries(api_as(inspector), [f"/api/v1/samples/{p.split('/')[2]}/" for p in pages], 5)
