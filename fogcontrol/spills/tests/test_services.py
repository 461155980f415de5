"""Recording spills (I1), costs and who owes them (I2, N1, N2), FSE notices (J1-J3) and the nightly
sweep turning late written reports into findings (J2)."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.errors import RecordImmutable, StateConflict
from fogcontrol.core.roles import Role
from fogcontrol.findings.models import Finding
from fogcontrol.program.models import Holiday
from fogcontrol.program.selectors import town_today
from fogcontrol.spills import services
from fogcontrol.spills.models import SpillCost
from fogcontrol.spills.services.sweep import overdue_written_reports_sweep
from fogcontrol.spills.tasks import nightly_overdue_written_reports
from fogcontrol.spills.tests.helpers import at, fog_spill, notice, photo_upload

pytestmark = pytest.mark.django_db


@pytest.mark.provision("I1")
def test_i1_spill_gets_its_state_category_and_a_linked_fog_spill_opens_one_finding(town):
    spill = fog_spill(town, links=[(town.own_fse, "Upstream of the blocked main")], gallons="1200")
    assert spill.category == "2"
    findings = Finding.objects.filter(source=Finding.Source.SPILL, source_id=spill.pk)
    assert [(f.establishment, f.provision) for f in findings] == [(town.own_fse, "I1")]
    # A second FSE linked later gets its own finding; the first is not found twice.
    services.spill_link(
        spill=spill,
        establishment=town.other_fse,
        reason="Shares the lateral",
        acting_user=town.users[Role.FOG_MANAGER],
    )
    assert findings.all().count() == 2
    with pytest.raises(StateConflict):
        services.spill_link(
            spill=spill, establishment=town.own_fse, reason="again", acting_user=town.users[Role.INSPECTOR]
        )
    assert AuditEntry.objects.filter(action="spill.link").count() == 2


@pytest.mark.provision("I1")
def test_i1_a_root_caused_spill_opens_no_finding_and_surface_water_is_category_1(town):
    spill = fog_spill(
        town, links=[(town.own_fse, "upstream")], cause="roots", volume_reached_surface_water=Decimal("3")
    )
    assert spill.category == "1"
    assert not Finding.objects.filter(source=Finding.Source.SPILL).exists()


def test_i1_bad_volumes_name_the_field(town):
    with pytest.raises(ValidationError) as refused:
        fog_spill(town, volume_recovered=Decimal("500"))
    assert "volume_recovered" in refused.value.message_dict
    with pytest.raises(ValidationError) as refused:
        fog_spill(town, cause="other")
    assert "cause_explanation" in refused.value.message_dict


def test_i1_only_staff_who_record_spills_may(town):
    with pytest.raises(PermissionDenied):
        services.spill_record(acting_user=town.users[Role.FSE], address="1 Main", cause="grease")


@pytest.mark.provision("I2")
def test_i2_n1_costs_owed_by_the_fse_are_due_45_days_from_invoicing_and_never_deleted(town):
    spill = fog_spill(town, links=[(town.own_fse, "upstream")])
    manager = town.users[Role.FOG_MANAGER]
    cost = services.cost_record(
        spill=spill, kind="contractor", amount=Decimal("1850.00"), debtor="fse", debtor_name="Blue Plate Diner",
        establishment=town.own_fse, invoiced_on=dt.date(2026, 6, 4), acting_user=manager,
    )  # fmt: skip
    # Day 45 is Sunday July 19: a payment owed moves to Monday July 20 (N1, Counting days).
    assert cost.due_on == dt.date(2026, 7, 20) and cost.provision == "N1" and cost.status == "owed"
    fine = services.cost_record(
        spill=spill, kind="agency_fine", amount=Decimal("5000"), debtor="property_owner", debtor_name="Owner LLC",
        invoiced_on=dt.date(2026, 6, 1), acting_user=manager,
    )  # fmt: skip
    assert fine.provision == "N2"
    with pytest.raises(ValidationError) as refused:
        services.cost_record(
            spill=spill, kind="staff", amount=Decimal("10"), debtor="fse", debtor_name="Golden Wok",
            establishment=town.other_fse, invoiced_on=dt.date(2026, 6, 1), acting_user=manager,
        )  # fmt: skip
    assert "establishment" in refused.value.message_dict
    services.cost_cancel(cost=cost, reason="Invoiced twice", acting_user=manager)
    assert SpillCost.objects.get(pk=cost.pk).status == "cancelled"
    assert AuditEntry.objects.filter(action__startswith="spill_cost.").count() == 3


@pytest.mark.provision("J2")
def test_j2_written_report_due_counts_working_days_across_a_town_holiday(town):
    Holiday.objects.get_or_create(date=dt.date(2026, 6, 8), defaults={"name": "Town closure"})
    report = notice(town, day=dt.date(2026, 6, 3))
    # Wednesday June 3: Jun 4, 5, (8 closed), 9, 10, 11 → Thursday June 11.
    assert report.written_due_on == dt.date(2026, 6, 11)
    assert "June 8, 2026" in services.written_deadline(report).explanation.text()


@pytest.mark.provision("J1")
def test_j1_fse_reports_in_the_portal_and_j3_the_record_says_notice_relieves_no_liability(town):
    report = notice(town, day=dt.date(2026, 6, 3))
    assert report.channel == "portal" and report.reported_by == town.users[Role.FSE]
    assert "does not relieve" in report.liability
    with pytest.raises(PermissionDenied):
        services.report_record(
            establishment=town.other_fse, occurred_at=at(dt.date(2026, 6, 3)), location="x", what="y",
            acting_user=town.users[Role.FSE],
        )  # fmt: skip
    phoned = notice(town, day=dt.date(2026, 6, 3), user=town.users[Role.INSPECTOR])
    assert phoned.channel == "phone"


@pytest.mark.provision("J2")
def test_j2_written_report_is_a_copy_of_record_sent_once(town):
    report = notice(town, day=dt.date(2026, 6, 3))
    written = services.written_report_submit(
        report=report, incident_on=dt.date(2026, 6, 3), cause="Bin lid broke", steps_taken="Absorbent, vactor",
        prevention="New bin with a locking lid", acting_user=town.users[Role.FSE],
    )  # fmt: skip
    assert written.record_hash and written.record_sequence == 1
    with pytest.raises(RecordImmutable):
        written.prevention = "changed"
        written.save()
    with pytest.raises(StateConflict):
        services.written_report_submit(
            report=report, incident_on=dt.date(2026, 6, 3), cause="a", steps_taken="b", prevention="c",
            acting_user=town.users[Role.FSE],
        )  # fmt: skip
    with pytest.raises(ValidationError) as refused:
        services.written_report_submit(
            report=notice(town, day=dt.date(2026, 6, 3)), incident_on=dt.date(2026, 6, 3), cause="",
            steps_taken="b", prevention="c", acting_user=town.users[Role.FSE],
        )  # fmt: skip
    assert "cause" in refused.value.message_dict


@pytest.mark.provision("J2")
def test_j2_overdue_written_report_becomes_a_finding_exactly_once(town, django_assert_max_num_queries):
    today = town_today()
    late = notice(town, day=today - dt.timedelta(days=1))
    on_time = notice(town, day=today - dt.timedelta(days=1))
    services.written_report_submit(
        report=on_time, incident_on=on_time.occurred_at.date(), cause="a", steps_taken="b", prevention="c",
        acting_user=town.users[Role.FSE],
    )  # fmt: skip
    due = late.written_due_on
    assert overdue_written_reports_sweep(today=due) == 0
    # One SELECT of the notices, one of the findings made, one INSERT of findings and one of audit
    # entries (plus the Town profile, a content type and the savepoints).
    with django_assert_max_num_queries(10):
        assert overdue_written_reports_sweep(today=due + dt.timedelta(days=1)) == 1
    finding = Finding.objects.get(source=Finding.Source.SPILL, source_id=late.pk)
    assert finding.provision == "J2" and finding.began_on == due + dt.timedelta(days=1)
    assert finding.opened_by_label == "spills.nightly" and "not received" in finding.description
    assert overdue_written_reports_sweep(today=due + dt.timedelta(days=30)) == 0
    assert Finding.objects.filter(source=Finding.Source.SPILL).count() == 1


def test_j2_nightly_task_runs_the_sweep(town):
    notice(town, day=dt.date(2026, 6, 3))
    assert nightly_overdue_written_reports.call() == {"findings_opened": 1}


@pytest.mark.provision("I1")
def test_i1_a_spill_photo_is_reencoded_as_a_fresh_jpeg_and_a_non_image_is_refused(town, media_in_tmp):
    spill = fog_spill(town)
    photo = services.spill_photo_add(
        spill=spill,
        uploaded_file=photo_upload(),
        caption="Overflowing manhole",
        acting_user=town.users[Role.INSPECTOR],
    )
    assert photo.file.read(3) == b"\xff\xd8\xff" and (photo.width, photo.height) == (40, 30)
    not_image = SimpleUploadedFile("x.png", b"%PDF-1.4 not an image", content_type="image/png")
    with pytest.raises(ValidationError) as refused:
        services.spill_photo_add(spill=spill, uploaded_file=not_image, acting_user=town.users[Role.INSPECTOR])
    assert "file" in refused.value.message_dict
