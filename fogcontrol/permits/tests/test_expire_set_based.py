"""B6 expiry in the daily run is set-based (issue 16): every lapsed permit expires with its timeline
event and audit entry, in queries that do not grow with the number of permits."""

import datetime as dt

import pytest

from fogcontrol.audit.models import AuditEntry
from fogcontrol.permits import services
from fogcontrol.permits.models import Permit, PermitEvent, PermitStatus
from fogcontrol.permits.services import permit_status
from fogcontrol.permits.tests.factories import PermitFactory

pytestmark = pytest.mark.django_db
LAST_DAY = dt.date(2026, 6, 30)


def _lapsed(count: int) -> list[Permit]:
    return [PermitFactory(valid_until=LAST_DAY) for _ in range(count)]


@pytest.mark.provision("B6")
def test_b6_each_lapsed_permit_expires_with_its_event_and_audit_entry(monkeypatch):
    monkeypatch.setattr(permit_status, "EXPIRE_BATCH", 2)  # several batches
    permits = _lapsed(5)
    in_force = PermitFactory(valid_until=LAST_DAY + dt.timedelta(days=1))
    result = services.permits_daily(on=LAST_DAY + dt.timedelta(days=1), acting_user="permits.nightly")
    assert result["permits_expired"] == 5
    assert set(Permit.objects.filter(status=PermitStatus.EXPIRED).values_list("pk", flat=True)) == {
        p.pk for p in permits
    }
    in_force.refresh_from_db()
    assert in_force.status == PermitStatus.ISSUED
    events = PermitEvent.objects.filter(action="permit.expire")
    assert sorted(events.values_list("permit_id", flat=True)) == sorted(p.pk for p in permits)
    assert {e.note for e in events} == {"Not renewed by 2026-06-30 (B6)"}
    assert {(e.actor_label, e.from_status, e.to_status) for e in events} == {
        ("permits.nightly", "issued", "expired")
    }
    entries = AuditEntry.objects.filter(action="permit.expire")
    assert sorted(int(e.object_id) for e in entries) == sorted(p.pk for p in permits)
    for entry in entries:
        assert (entry.before["status"], entry.after["status"]) == ("issued", "expired")
    # Idempotent: run again for the same day, nothing more changes.
    again = services.permits_daily(on=LAST_DAY + dt.timedelta(days=1), acting_user="permits.nightly")
    assert again["permits_expired"] == 0
    assert AuditEntry.objects.filter(action="permit.expire").count() == 5


@pytest.mark.parametrize("count", [2, 20])
def test_expiring_takes_the_same_queries_for_2_and_20_permits(count, django_assert_num_queries):
    _lapsed(count)
    # In a savepoint: the transition check needs none; the lapsed permits (locked), one UPDATE, one
    # INSERT of events, the audit content type and one INSERT of entries.
    with django_assert_num_queries(7):
        expired = services.permits_expire_lapsed(on=LAST_DAY + dt.timedelta(days=1))
    assert len(expired) == count


def _entry_content(entry) -> tuple:
    return (entry.actor_id, entry.actor_label, entry.action, entry.content_type_id, entry.object_id,
            entry.object_repr, entry.before, entry.after, entry.note)  # fmt: skip


@pytest.mark.provision("B6")
def test_b6_the_entries_written_in_sql_equal_those_the_python_path_writes():
    """The audit entries built by the database (audit.set_sql) hold what ``audit_entries`` (the
    per-row snapshots) would write for the same permits: same keys, same values."""
    from fogcontrol.audit.services import audit_entries, snapshot

    permits = _lapsed(3)
    Permit.objects.filter(pk=permits[0].pk).update(number=None)  # "(unnumbered)"
    befores = {p.pk: snapshot(Permit.objects.get(pk=p.pk)) for p in permits}
    services.permits_daily(on=LAST_DAY + dt.timedelta(days=1), acting_user="permits.nightly")
    after = list(Permit.objects.filter(pk__in=befores).order_by("pk"))
    expected = audit_entries(
        acting_user="permits.nightly",
        action="permit.expire",
        changes=[(permit, befores[permit.pk], snapshot(permit)) for permit in after],
    )
    written = list(AuditEntry.objects.filter(action="permit.expire").order_by("pk"))
    assert [_entry_content(e) for e in written] == [_entry_content(e) for e in expected]
    assert written[0].object_repr == "FOG permit (unnumbered)"
