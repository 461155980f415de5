"""A device's page judges its compliance from the manifests and readings its history has read, when
the history holds them all (issue 16: not two queries of their own), and says exactly what reading
them again says (D4, E1-E4): the same effective manifests (not withdrawn, not corrected), the same
days, the same order and bounds."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fogcontrol.core.roles import Role
from fogcontrol.program.selectors import town_today
from fogcontrol.servicing import selectors
from fogcontrol.servicing.models import Manifest
from fogcontrol.servicing.services import reading_record
from fogcontrol.servicing.services.manifests import manifest_correct
from fogcontrol.servicing.services.state import device_events
from fogcontrol.servicing.tests.helpers import days_ago, submission, submit


@pytest.mark.provision("D4")
@pytest.mark.provision("E4")
def test_d4_e4_the_page_judges_compliance_from_the_history_rows_as_from_its_own_queries(town):
    manager, hauler, device = town.users[Role.FOG_MANAGER], town.users[Role.HAULER], town.own_device
    for days in (90, 60, 30, 30, 10):  # two on the same day and hour: the later id comes first
        submit(hauler, device, serviced_at=days_ago(days), full_pumpout=days != 60)
    # Withdrawn by a correction: the manifest is corrected, the correction withdrawn; neither counts.
    withdrawn = submit(hauler, device, serviced_at=days_ago(20))
    manifest_correct(manifest=withdrawn, acting_user=manager, submission=submission(device, serviced_at=days_ago(20)),
                     reason="Filed twice.", channel=Manifest.Channel.PORTAL, withdraw=True)  # fmt: skip
    wrong = submit(hauler, device, serviced_at=days_ago(5), fog_depth_in=Decimal("9"))
    manifest_correct(manifest=wrong, acting_user=manager, submission=submission(device, serviced_at=days_ago(5)),
                     reason="Depth misread.", channel=Manifest.Channel.PORTAL)  # fmt: skip
    for days in (40, 15):
        reading_record(device=device, acting_user=manager, taken_on=days_ago(days).date(),
                       fog_depth_in=Decimal("5"), solids_depth_in=Decimal("2"), source="inspection")  # fmt: skip

    history = selectors.device_history(manager, device.pk)
    assert history.manifests is not None and history.readings is not None
    for on in (town_today(), town_today() - dt.timedelta(days=25), town_today() - dt.timedelta(days=100)):
        assert selectors._events_from_history(history, on) == device_events(history.device, up_to=on)
        with CaptureQueriesContext(connection) as queries:
            from_rows = selectors.compliance_of(history.device, on=on, history=history)
        assert from_rows == selectors.compliance_of(history.device, on=on)
        assert not [q for q in queries.captured_queries if "servicing_manifest" in q["sql"]]


def test_a_history_that_does_not_hold_every_manifest_leaves_the_rules_to_read_them(town):
    manager, hauler, device = town.users[Role.FOG_MANAGER], town.users[Role.HAULER], town.own_device
    for days in (30, 10):
        submit(hauler, device, serviced_at=days_ago(days))
    assert selectors.device_history(manager, device.pk, limit_events=2).manifests is None  # cut at the limit
    # A hauler's timeline holds its own manifests only.
    assert selectors.device_history(hauler, device.pk).manifests is None
    history = selectors.device_history(hauler, device.pk)
    assert selectors.compliance_of(
        history.device, on=town_today(), history=history
    ) == selectors.compliance_of(history.device, on=town_today())
