"""Every permits route x every role, from access_table.ACCESS (fogcontrol.testing.access)."""

import datetime as dt
import types

import pytest

from fogcontrol.audit.models import AuditEntry
from fogcontrol.permits import services
from fogcontrol.permits.models import (
    FeeCharge,
    Permit,
    PermitApplication,
    PermitModification,
    PermitNotice,
    PermitOrder,
    RemodelNotice,
)
from fogcontrol.permits.tests.access_table import ACCESS
from fogcontrol.permits.tests.orders import noticed_order
from fogcontrol.program.selectors import town_today
from fogcontrol.testing.access import check_row, snapshot


def _snapshot():
    return snapshot(
        AuditEntry,
        PermitApplication,
        Permit,
        PermitOrder,
        FeeCharge,
        PermitModification,
        PermitNotice,
        RemodelNotice,
    )


@pytest.fixture
def world(town, fees, accepted, issued, manager, fse_user):
    order = noticed_order(issued, manager)
    modification = services.permit_modification_propose(
        permit=issued,
        acting_user=manager,
        changes={"conditions": "Keep the lid bolted."},
        reason="Lid found loose (B7)",
    )
    remodel = services.remodel_notice_file(
        acting_user=fse_user,
        establishment=town.own_fse,
        kind="remodel",
        description="New fryer line",
        planned_start=town_today() + dt.timedelta(days=90),
    )
    world = types.SimpleNamespace(
        town=town,
        draft=accepted,
        permit=issued,
        order=order,
        notice=PermitNotice.objects.filter(permit=issued).first(),
        modification=modification,
        remodel=remodel,
        schedule=fees,
        charge=accepted.fees.first(),
        snapshot=_snapshot,
    )
    world.ids = lambda: {
        k: getattr(world, k).pk for k in ("draft", "permit", "order", "modification", "remodel", "charge")
    }
    return world


@pytest.mark.parametrize("route", ACCESS, ids=str)
def test_access(route, world, town):
    check_row(route, world, town.users)
