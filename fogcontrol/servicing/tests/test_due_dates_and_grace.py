"""E1 due dates in calendar days, and the grace period shown wherever "overdue" is (Counting days,
revised 2026-11-30).

The Town calendar is the one the migrations install: in 2026 July 4 is a Saturday, so Independence
Day is observed on Friday, July 3.
"""

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.program.models import RulesetVersion
from fogcontrol.servicing.tests.helpers import days_ago, submit


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def serviced_on(day: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(10, 0)))


def grace(days: int) -> RulesetVersion:
    return RulesetVersion.objects.create(
        effective_from=dt.date(2026, 1, 1), label="Grace period", values={"service_grace_days": days}
    )


def compliance(town, on: str) -> dict:
    url = f"/api/v1/devices/{town.own_device.pk}/compliance/"
    return api_as(town.users[Role.FSE]).get(url, {"on": on}).json()


@pytest.mark.provision("E1")
def test_e1_a_90_day_device_pumped_2026_04_04_is_due_2026_07_03_and_overdue_the_next_day(town):
    submit(town.users[Role.HAULER], town.own_device, serviced_at=serviced_on(dt.date(2026, 4, 4)))

    on_the_holiday = compliance(town, "2026-07-03")
    next_day = compliance(town, "2026-07-04")

    # July 3 is a Town holiday, but a pump-out is done at the establishment: the date does not move.
    assert on_the_holiday["next_due"] == "2026-07-03"
    assert on_the_holiday["status"] == "due_soon"
    assert next_day["status"] == "overdue"
    assert next_day["grace_days"] == 0
    assert next_day["overdue_from"] == "2026-07-04"
    assert any("does not move for weekends, holidays" in step for step in next_day["explanation"]["steps"])


@pytest.mark.provision("E1")
def test_e1_the_grace_period_of_the_ruleset_in_force_delays_overdue_and_the_api_says_so(town):
    grace(3)
    submit(town.users[Role.HAULER], town.own_device, serviced_at=serviced_on(dt.date(2026, 4, 4)))

    within = compliance(town, "2026-07-06")
    after = compliance(town, "2026-07-07")

    assert within["next_due"] == "2026-07-03"
    assert within["status"] == "due_soon"
    assert within["grace_days"] == 3
    assert within["overdue_from"] == "2026-07-07"
    assert any(
        "within the grace period of 3 calendar days" in step for step in within["explanation"]["steps"]
    )
    assert after["status"] == "overdue"


@pytest.mark.provision("E1")
def test_e1_the_device_page_shows_the_grace_period_and_the_first_overdue_day(town):
    grace(3)
    submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(92))
    due = (days_ago(92) + dt.timedelta(days=90)).date()
    overdue_from = due + dt.timedelta(days=4)

    page = login(town.users[Role.FSE]).get(f"/servicing/devices/{town.own_device.pk}/").content.decode()

    assert "Grace period" in page
    assert (
        f"3 days: overdue from {overdue_from:%A}, {overdue_from:%b} {overdue_from.day}, {overdue_from.year}"
        in page
    )
    assert "Due soon" in page  # two days past due, within the grace period


@pytest.mark.provision("E1")
def test_e1_the_status_page_states_when_a_device_becomes_overdue(town):
    client = login(town.users[Role.FOG_MANAGER])

    assert "(the ruleset sets no grace period)" in client.get("/servicing/").content.decode()
    grace(5)
    page = client.get("/servicing/").content.decode()
    assert "the day after its due date and a grace period of 5 days" in page


@pytest.mark.provision("E1")
def test_e1_a_pump_out_within_the_grace_period_is_not_flagged_late(town):
    grace(3)
    hauler = town.users[Role.HAULER]
    submit(hauler, town.own_device, serviced_at=serviced_on(dt.date(2026, 4, 4)))

    within = submit(hauler, town.own_device, serviced_at=serviced_on(dt.date(2026, 7, 6)))
    late = submit(hauler, town.own_device, serviced_at=serviced_on(dt.date(2026, 10, 9)))

    assert "serviced_late" not in set(within.flags.values_list("code", flat=True))
    assert "serviced_late" in set(late.flags.values_list("code", flat=True))
