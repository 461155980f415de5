"""Late and missing reports become findings of the same kind inspections produce (F3, F4), through
the nightly sweep: set-based, audited, never twice for one report."""

import datetime as dt

import pytest
from django.utils import timezone

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.findings.models import Finding
from fogcontrol.records import services
from fogcontrol.records.services.sweep import late_reports_sweep
from fogcontrol.records.tasks import nightly_late_reports
from fogcontrol.records.tests.helpers import pdf_upload


@pytest.mark.provision("F3")
def test_f3_f4_missing_reports_become_findings_once_and_on_time_ones_do_not(
    town, django_assert_max_num_queries
):
    manager = town.users[Role.FOG_MANAGER]
    monthly = services.requirement_set(
        establishment=town.own_fse, kind="self_monitoring", unit="months", every=1,
        first_due_on=dt.date(2026, 3, 2), requested_on=dt.date(2026, 2, 1), acting_user=manager,
    )  # fmt: skip
    plan = services.requirement_set(
        establishment=town.other_fse, kind="contingency_plan", first_due_on=dt.date(2026, 4, 1),
        requested_on=dt.date(2026, 2, 1), acting_user=manager,
    )  # fmt: skip
    # Report 1 is due Monday March 2, report 2 April 2, report 3 May 4 (May 2 is a Saturday): none came in.
    before = AuditEntry.objects.filter(action="finding.open").count()
    with django_assert_max_num_queries(12):
        opened = late_reports_sweep(today=dt.date(2026, 5, 5))
    findings = Finding.objects.filter(source=Finding.Source.RECORDS).order_by("establishment_id", "item")
    by_item = {finding.item: finding for finding in findings}
    assert f"report {plan.pk}/1" in by_item
    late_plan = by_item[f"report {plan.pk}/1"]
    assert late_plan.provision == "D7" and late_plan.began_on == dt.date(2026, 4, 2)
    assert "F4" in late_plan.description and late_plan.opened_by_label == "records.nightly"
    monthly_items = {item for item in by_item if item.startswith(f"report {monthly.pk}/")}
    assert monthly_items == {f"report {monthly.pk}/{number}" for number in (1, 2, 3)}
    assert by_item[f"report {monthly.pk}/3"].provision == "F3"
    assert by_item[f"report {monthly.pk}/3"].began_on == dt.date(2026, 5, 5)
    assert AuditEntry.objects.filter(action="finding.open").count() == before + opened
    # Run again: nothing new.
    assert late_reports_sweep(today=dt.date(2026, 5, 5)) == 0


@pytest.mark.provision("F4")
def test_f4_a_report_received_by_its_due_date_is_no_finding(town):
    manager, fse = town.users[Role.FOG_MANAGER], town.users[Role.FSE]
    today = timezone.localdate()
    requirement = services.requirement_set(
        establishment=town.own_fse, kind="cctv", first_due_on=today, requested_on=today, acting_user=manager
    )
    services.submission_submit(requirement=requirement, uploaded_file=pdf_upload(), acting_user=fse)
    assert late_reports_sweep(today=today + dt.timedelta(days=40)) == 0
    assert not Finding.objects.filter(source=Finding.Source.RECORDS).exists()


@pytest.mark.provision("F3")
def test_f3_the_nightly_task_runs_the_sweep(town):
    services.requirement_set(
        establishment=town.own_fse, kind="bmp_status", unit="days", every=30, first_due_on=dt.date(2026, 1, 5),
        requested_on=dt.date(2026, 1, 1), acting_user=town.users[Role.FOG_MANAGER],
    )  # fmt: skip
    result = nightly_late_reports.call()
    assert result["findings_opened"] >= 1
    assert Finding.objects.filter(source=Finding.Source.RECORDS, provision="C5").exists()
