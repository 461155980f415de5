"""Every servicing route x every role, from access_table.ACCESS (fogcontrol.testing.access)."""

import types

import pytest

from fogcontrol.core.roles import Role
from fogcontrol.servicing.tests.access_table import ACCESS
from fogcontrol.servicing.tests.helpers import submit
from fogcontrol.testing.access import check_row


@pytest.fixture
def world(town):
    manifest = submit(town.users[Role.HAULER], town.own_device)
    return types.SimpleNamespace(town=town, manifest=manifest, device=town.own_device, missing=999_999)


@pytest.mark.parametrize("route", ACCESS, ids=str)
def test_access(route, world, town):
    check_row(route, world, town.users)
