"""The enforcement sweep opens violations set-based (issue 16): one INSERT of the violations and
one INSERT … SELECT of their audit entries, whatever their number; the entries built by the
database hold what the per-row snapshots would."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fogcontrol.audit.models import AuditEntry
from fogcontrol.audit.services import audit_entries, snapshot
from fogcontrol.enforcement.models import Violation
from fogcontrol.enforcement.services.sweep import enforcement_sweep
from fogcontrol.servicing.models import DeviceServiceState
from fogcontrol.testing import factories

pytestmark = pytest.mark.django_db
TODAY = dt.date(2026, 6, 15)


def _overdue_devices(town, count: int) -> None:
    for number in range(count):
        device = factories.DeviceFactory(establishments=[town.own_fse], parcel=town.own_fse.parcel)
        DeviceServiceState.objects.create(
            device=device, status="overdue", status_on=TODAY, frequency_days=90,
            next_due=dt.date(2026, 5, 1) + dt.timedelta(days=number),
        )  # fmt: skip


def _entry_content(entry) -> tuple:
    return (entry.actor_id, entry.actor_label, entry.action, entry.content_type_id, entry.object_id,
            entry.object_repr, entry.before, entry.after, entry.note)  # fmt: skip


@pytest.mark.provision("E1")
def test_e1_b1_the_entries_written_in_sql_equal_those_the_python_path_writes(town):
    _overdue_devices(town, 3)  # and no FSE holds a permit (B1)
    counts = enforcement_sweep(today=TODAY, acting_user="enforcement.nightly")
    assert counts["service_opened"] == 3 and counts["permits_opened"] >= 2
    written = list(AuditEntry.objects.filter(action="violation.open").order_by("pk"))
    by_note: dict[str, list] = {}
    for entry in written:
        by_note.setdefault(entry.note, []).append(entry)
    expected = []
    for note, entries in by_note.items():
        violations = Violation.objects.filter(pk__in=[e.object_id for e in entries]).order_by("pk")
        expected += audit_entries(
            acting_user="enforcement.nightly", action="violation.open", note=note,
            changes=[(v, None, snapshot(v)) for v in violations],
        )  # fmt: skip
    assert [_entry_content(e) for e in written] == [_entry_content(e) for e in expected]
    assert len(written) == Violation.objects.count()


@pytest.mark.parametrize("count", [2, 12])
def test_opening_takes_the_same_queries_for_2_and_12_overdue_devices(town, count):
    _overdue_devices(town, count)
    with CaptureQueriesContext(connection) as queries:
        assert enforcement_sweep(today=TODAY)["service_opened"] == count
    # The candidates, the keys already open, one INSERT and one INSERT … SELECT of entries per
    # source, the cures and the milestones: the same number whatever the devices. (The violations
    # open for tonight's overdue rows are not checked for a cure: no device states read for them.)
    assert len(queries) == 19
