"""An FSE's page and a device's service history take the same exact number of queries however many
devices the FSE has and however many manifests the device has (issue 16: two pages staff open
most, flat in the size of the town; fogcontrol.testing.queries). docs/performance.md, "The FSE page
and a device's history (2026-12-01)", gives their CPU beside the floor's."""

import itertools

from django.test import Client

from fogcontrol.core.roles import Role
from fogcontrol.servicing.tests.helpers import days_ago, submit
from fogcontrol.testing import factories
from fogcontrol.testing.queries import assert_queries_do_not_grow

# Session, user, Town profile; the FSE with its parcel, owner, designee, operator and contact; its
# devices, and their FSEs with their parcels; its haulers; its change history; what it owes (one
# query asks which of billing's invoices, charges and sources hold anything, and none does; the
# unpaid citations); the panels of the permit and of the devices' service states; the rules, read
# once for the page.
FSE_PAGE = 13
# Session, user, Town profile; the device and its FSEs; its manifests with their flags, readings,
# frequency changes and requirements; the ruleset versions (once for the page); the holidays (the
# status from the rules); the requests. The status is judged from the history's manifests and
# readings, and the pending change of frequency found among its frequency changes (issue 16: three
# queries of their own before).
DEVICE_PAGE = 13

_days = itertools.count(10, 20)


def _manager_client(town) -> Client:
    client = Client()
    client.force_login(town.users[Role.FOG_MANAGER])
    return client


def test_an_fse_page_takes_the_same_exact_queries_for_few_devices_and_many(town):
    hauler = town.users[Role.HAULER]

    def add_devices(count):
        for _ in range(count):
            device = factories.DeviceFactory(establishments=[town.own_fse], parcel=town.own_fse.parcel)
            submit(hauler, device, serviced_at=days_ago(next(_days)))
            submit(hauler, device, serviced_at=days_ago(5), baffles_cleaned=False)

    url = f"/registry/establishments/{town.own_fse.pk}/"
    few, many = assert_queries_do_not_grow(_manager_client(town), add_devices, {url: FSE_PAGE}, grows=False)[
        url
    ]
    assert len(many.context["devices"]) - len(few.context["devices"]) == 5


def test_a_device_history_takes_the_same_exact_queries_for_few_manifests_and_many(town):
    hauler = town.users[Role.HAULER]

    def add_manifests(count):
        for _ in range(count):
            # Baffles not cleaned: each manifest also carries a flag (F2) on the timeline.
            submit(hauler, town.own_device, serviced_at=days_ago(next(_days)), baffles_cleaned=False)

    url = f"/servicing/devices/{town.own_device.pk}/"
    few, many = assert_queries_do_not_grow(
        _manager_client(town), add_manifests, {url: DEVICE_PAGE}, grows=False
    )[url]
    manifests = [event for event in many.context["history"].events if event.kind == "manifest"]
    assert len(manifests) - sum(event.kind == "manifest" for event in few.context["history"].events) == 5
