"""Sampling (D5): the chain of custody in order, results judged against the permit's limits with a
finding opened once, CSV uploads all or none with every row's reason; monitoring facilities (D7)
due by the rules and found overdue once; D6 charges priced from the schedule in force on their day."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.findings.models import Finding
from fogcontrol.inspections.models import ComplianceCharge
from fogcontrol.inspections.services import compliance_charge_cancel, compliance_charge_record
from fogcontrol.program.selectors import town_today
from fogcontrol.sampling.models import LabReport, LabResult, MonitoringFacility
from fogcontrol.sampling.services import (
    custody_add,
    facilities_overdue_sweep,
    facility_installed,
    facility_require,
    results_record,
    results_upload,
    sample_charge,
)
from fogcontrol.sampling.tests.helpers import at, fog_limit, fog_row, sample_of, schedule_with_rates

pytestmark = pytest.mark.django_db


@pytest.fixture
def inspector(town):
    return town.users[Role.INSPECTOR]


@pytest.fixture
def manager(town):
    return town.users[Role.FOG_MANAGER]


@pytest.fixture
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


# --- D5 chain of custody -----------------------------------------------------------------------


@pytest.mark.provision("D5")
def test_d5_custody_hand_offs_follow_each_other_from_the_holder(town, inspector):
    sample = sample_of(town.own_fse, inspector)
    day = sample.sampled_at.date()
    first = custody_add(
        sample=sample,
        released_by="Ines Inspector",
        received_by="Courier Co.",
        at=at(day, 11),
        acting_user=inspector,
    )
    second = custody_add(
        sample=sample, released_by="courier co.", received_by="Bay Analytical", at=at(day, 14), acting_user=inspector,
        condition="on ice, 3 °C",
    )  # fmt: skip
    assert (first.sequence, second.sequence) == (1, 2)
    assert [t.received_by for t in sample.custody.order_by("sequence")] == ["Courier Co.", "Bay Analytical"]


@pytest.mark.provision("D5")
def test_d5_a_hand_off_before_the_sampling_is_refused_saying_why(town, inspector):
    sample = sample_of(town.own_fse, inspector, hour=9)
    with pytest.raises(ValidationError) as refused:
        custody_add(
            sample=sample, released_by="Ines Inspector", received_by="Courier Co.",
            at=at(sample.sampled_at.date(), 8), acting_user=inspector,
        )  # fmt: skip
    assert "before the sample was taken" in refused.value.message_dict["at"][0]
    assert not sample.custody.exists()


@pytest.mark.provision("D5")
def test_d5_a_hand_off_going_back_in_time_or_from_someone_else_is_refused(town, inspector):
    sample = sample_of(town.own_fse, inspector)
    day = sample.sampled_at.date()
    custody_add(
        sample=sample,
        released_by="Ines Inspector",
        received_by="Courier Co.",
        at=at(day, 12),
        acting_user=inspector,
    )
    with pytest.raises(ValidationError) as backwards:
        custody_add(
            sample=sample, released_by="Courier Co.", received_by="Lab", at=at(day, 11), acting_user=inspector
        )
    assert "cannot come before the last one" in backwards.value.message_dict["at"][0]
    with pytest.raises(ValidationError) as stranger:
        custody_add(
            sample=sample, released_by="Somebody", received_by="Lab", at=at(day, 13), acting_user=inspector
        )
    assert "held by Courier Co." in stranger.value.message_dict["released_by"][0]
    assert sample.custody.count() == 1


@pytest.mark.provision("D5")
def test_d5_a_sample_time_without_a_zone_or_in_the_future_is_refused(town, inspector):
    with pytest.raises(ValidationError) as naive:
        sample_of(town.own_fse, inspector, sampled_at=dt.datetime(2026, 1, 5, 9, 0))
    assert "time zone" in naive.value.message_dict["sampled_at"][0]
    with pytest.raises(ValidationError) as future:
        sample_of(town.own_fse, inspector, sampled_at=at(town_today() + dt.timedelta(days=2), 9))
    assert "future" in future.value.message_dict["sampled_at"][0]


@pytest.mark.provision("D5")
def test_d5_a_device_of_another_establishment_is_refused(town, inspector):
    with pytest.raises(ValidationError) as refused:
        sample_of(town.own_fse, inspector, device=town.other_device)
    assert "does not serve" in refused.value.message_dict["device"][0]


# --- D5 results against the permit's limits ----------------------------------------------------------


@pytest.mark.provision("D5")
def test_d5_a_result_over_the_permit_limit_opens_one_finding_with_the_evidence(town, inspector, manager):
    fog_limit(town.own_fse, manager)
    sample = sample_of(town.own_fse, inspector, device=town.own_device)
    over, within = results_record(
        sample=sample,
        rows=[fog_row("212.5"), fog_row("80", analyte="FOG (oil and grease)")],
        acting_user=inspector,
    )
    assert over.outside and over.provision == "D5" and not within.outside
    assert "above the maximum of 100 mg/L" in " ".join(over.judgement["steps"])
    finding = Finding.objects.get(source=Finding.Source.SAMPLE)
    assert finding.source_id == over.pk and finding.provision == "D5" and finding.device == town.own_device
    assert "212.5 mg/L" in finding.reading and f"sample {sample.pk}" in finding.description
    assert finding.began_on == sample.sampled_at.date()
    # Another result on the same sample opens no second finding for the first one.
    results_record(sample=sample, rows=[fog_row("90")], acting_user=inspector)
    assert Finding.objects.filter(source=Finding.Source.SAMPLE).count() == 1


@pytest.mark.provision("D5")
def test_d5_the_limit_in_force_on_the_sampling_day_is_the_one_applied(town, inspector, manager):
    fog_limit(town.own_fse, manager, max_value="100", effective_from=dt.date(2024, 1, 1))
    fog_limit(town.own_fse, manager, max_value="300", effective_from=town_today())
    sample = sample_of(town.own_fse, inspector)  # three days ago: the 100 mg/L limit
    (result,) = results_record(sample=sample, rows=[fog_row("150")], acting_user=inspector)
    assert result.outside and result.limit.max_value == Decimal("100")


@pytest.mark.provision("D5")
def test_d5_a_limit_cites_its_own_provision_and_a_ph_minimum(town, inspector, manager):
    from fogcontrol.sampling.services import limit_set

    limit_set(
        establishment=town.own_fse, analyte="ph", unit="s.u.", min_value=Decimal("5.5"), max_value=Decimal("9.5"),
        effective_from=dt.date(2024, 1, 1), acting_user=manager,
    )  # fmt: skip
    fog_limit(town.own_fse, manager, provision="K4", analyte="temperature", unit="degF", max_value="140")
    sample = sample_of(town.own_fse, inspector)
    ph, temp = results_record(
        sample=sample, rows=[fog_row("4.9", analyte="ph", unit="su"), fog_row("160", analyte="temperature", unit="degF")],
        acting_user=inspector,
    )  # fmt: skip
    assert ph.outside and "below the minimum" in " ".join(ph.judgement["steps"])
    assert temp.outside and temp.provision == "K4"
    assert set(Finding.objects.values_list("provision", flat=True)) == {"D5", "K4"}


@pytest.mark.provision("D5")
def test_d5_without_a_limit_a_result_is_kept_and_says_so(town, inspector):
    sample = sample_of(town.own_fse, inspector)
    (result,) = results_record(sample=sample, rows=[fog_row("999")], acting_user=inspector)
    assert not result.outside and "No discharge limit" in result.judgement["steps"][0]
    assert not Finding.objects.exists()


@pytest.mark.provision("D5")
def test_d5_results_are_all_or_none_with_every_rows_reason(town, inspector, manager):
    fog_limit(town.own_fse, manager)
    sample = sample_of(town.own_fse, inspector)
    rows = [fog_row("120"), fog_row("lots"), fog_row("5", unit="kg"), fog_row("7", analysed_on="2001-01-01")]
    with pytest.raises(ValidationError) as refused:
        results_record(sample=sample, rows=rows, acting_user=inspector)
    reasons = refused.value.message_dict["results"]
    assert [r.split(":")[0] for r in reasons] == ["Row 2", "Row 3", "Row 4"]
    assert (
        "not a number" in reasons[0]
        and "unit 'kg'" in reasons[1]
        and "before the sample was taken" in reasons[2]
    )
    assert not LabResult.objects.exists() and not Finding.objects.exists()


def _csv(*lines: str) -> SimpleUploadedFile:
    text = "analyte,value,unit,method,analysed_on,reported_by\n" + "\n".join(lines) + "\n"
    return SimpleUploadedFile("bay-analytical.csv", text.encode(), content_type="text/csv")


@pytest.mark.provision("D5")
def test_d5_a_csv_upload_keeps_the_file_and_judges_each_row(town, inspector, manager, _media):
    fog_limit(town.own_fse, manager)
    sample = sample_of(town.own_fse, inspector)
    day = (town_today() - dt.timedelta(days=1)).isoformat()
    report, results = results_upload(
        sample=sample, file=_csv(f"FOG,140,mg/L,EPA 1664B,{day},Bay Analytical", f"tss,200,mg/L,SM 2540D,{day},"),
        acting_user=inspector,
    )  # fmt: skip
    assert [r.report_id for r in results] == [report.pk, report.pk]
    assert results[1].reported_by == "Bay Analytical"  # blank: the sample's laboratory
    assert report.original_name == "bay-analytical.csv" and len(report.sha256) == 64
    assert report.file.read().startswith(b"analyte,value")
    assert Finding.objects.filter(source=Finding.Source.SAMPLE).count() == 1


@pytest.mark.provision("D5")
def test_d5_a_csv_with_one_bad_row_saves_nothing_and_names_every_row(town, inspector, _media):
    sample = sample_of(town.own_fse, inspector)
    day = (town_today() - dt.timedelta(days=1)).isoformat()
    with pytest.raises(ValidationError) as refused:
        results_upload(
            sample=sample,
            file=_csv(
                f"fog,140,mg/L,EPA 1664B,{day},Lab", f"grease?,1,mg/L,X,{day},Lab", f"fog,2,mg/L,,{day},Lab"
            ),
            acting_user=inspector,
        )
    reasons = refused.value.message_dict["file"]
    assert reasons[0].startswith("Row 2: analyte 'grease?'") and reasons[1].startswith(
        "Row 3: method is missing"
    )
    assert not LabResult.objects.exists() and not LabReport.objects.exists()


@pytest.mark.provision("D5")
def test_d5_a_csv_without_the_columns_says_which_are_missing(town, inspector, _media):
    sample = sample_of(town.own_fse, inspector)
    bad = SimpleUploadedFile("x.csv", b"name,amount\nfog,3\n", content_type="text/csv")
    with pytest.raises(ValidationError) as refused:
        results_upload(sample=sample, file=bad, acting_user=inspector)
    assert (
        "lacks: analyte, value, unit, method, analysed_on, reported_by"
        in refused.value.message_dict["file"][0]
    )


# --- D7 monitoring facilities -------------------------------------------------------------------


@pytest.mark.provision("D7")
def test_d7_a_facility_is_due_the_ruleset_days_after_it_is_required(town, manager):
    # 2026-01-05 is a Monday; 90 days later is Monday 2026-04-05 … a Sunday: moved to Monday 6th.
    facility = facility_require(
        establishment=town.own_fse, kind="sampling", description="A sample box downstream of GI-1",
        location="Rear parking lot", required_on=dt.date(2026, 1, 5), acting_user=manager,
    )  # fmt: skip
    assert facility.due_on == dt.date(2026, 4, 6)
    assert "D7" in facility.due_explanation["provisions"]
    assert any("90 calendar days" in step for step in facility.due_explanation["steps"])


@pytest.mark.provision("D7")
def test_d7_an_overdue_facility_opens_one_finding_and_an_installed_one_none(town, manager, inspector):
    long_ago = town_today() - dt.timedelta(days=200)
    overdue = facility_require(
        establishment=town.own_fse, kind="metering", description="Flow meter", location="Vault 2",
        required_on=long_ago, acting_user=manager,
    )  # fmt: skip
    done = facility_require(
        establishment=town.other_fse, kind="sampling", description="Sample box", location="Alley",
        required_on=long_ago, acting_user=manager,
    )  # fmt: skip
    facility_installed(facility=done, installed_on=long_ago + dt.timedelta(days=30), acting_user=inspector)
    assert facilities_overdue_sweep() == 1
    assert facilities_overdue_sweep() == 0
    finding = Finding.objects.get(source=Finding.Source.FACILITY)
    assert finding.source_id == overdue.pk and finding.provision == "D7"
    assert finding.began_on == overdue.due_on + dt.timedelta(days=1)
    assert AuditEntry.objects.filter(action="finding.open", actor_label="sampling.nightly").count() == 1


@pytest.mark.provision("D7")
def test_d7_only_the_fog_manager_requires_a_facility(town):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        facility_require(
            establishment=town.own_fse, kind="sampling", description="x", location="y",
            required_on=town_today(), acting_user=town.users[Role.INSPECTOR],
        )  # fmt: skip
    assert not MonitoringFacility.objects.exists()


# --- D6 compliance charges ----------------------------------------------------------------------


@pytest.mark.provision("D6")
def test_d6_a_charge_is_priced_from_the_schedule_in_force_on_its_day(town, inspector):
    schedule_with_rates(effective_from=dt.date(2023, 3, 30))
    schedule_with_rates(effective_from=town_today() - dt.timedelta(days=10), staff_time=Decimal("80.00"))
    older = compliance_charge_record(
        establishment=town.own_fse, kind="staff_time", quantity="2.5", reason="Review of missing manifests",
        incurred_on=town_today() - dt.timedelta(days=20), acting_user=inspector,
    )  # fmt: skip
    newer = compliance_charge_record(
        establishment=town.own_fse, kind="staff_time", quantity="2.5", reason="Second review",
        incurred_on=town_today(), acting_user=inspector,
    )  # fmt: skip
    assert (older.rate, older.amount) == (Decimal("75.00"), Decimal("187.50"))
    assert (newer.rate, newer.amount) == (Decimal("80.00"), Decimal("200.00"))
    assert older.status == ComplianceCharge.Status.OWED and "D6" in older.pricing["provisions"]


@pytest.mark.provision("D6")
def test_d6_a_later_schedule_does_not_reprice_a_charge_already_recorded(town, inspector):
    schedule_with_rates()
    charge = compliance_charge_record(
        establishment=town.own_fse, kind="follow_up_inspection", quantity="1.25", reason="Follow-up of E3",
        incurred_on=town_today(), acting_user=inspector,
    )  # fmt: skip
    schedule_with_rates(effective_from=town_today(), follow_up_inspection=Decimal("500"))
    charge.refresh_from_db()
    assert charge.amount == Decimal("118.75")  # 1.25 h × $95.00, rounded half up to the cent


@pytest.mark.provision("D6")
def test_d6_without_a_rate_on_that_day_the_charge_is_refused_saying_what_to_do(town, inspector):
    from fogcontrol.permits.tests.factories import fee_schedule

    fee_schedule()  # the permit fees only
    with pytest.raises(ValidationError) as refused:
        compliance_charge_record(
            establishment=town.own_fse, kind="lab_analysis", quantity="1", reason="x",
            incurred_on=town_today(), acting_user=inspector,
        )  # fmt: skip
    assert "No rate is set" in refused.value.message_dict["kind"][0]


@pytest.mark.provision("D6")
def test_d6_a_sample_charge_names_its_sample_and_a_cancel_keeps_the_record(town, inspector, manager):
    schedule_with_rates()
    sample = sample_of(town.own_fse, inspector)
    charge = sample_charge(
        sample=sample, kind="lab_analysis", quantity="3", reason="Lab tests of the over-limit sample",
        incurred_on=town_today(), acting_user=inspector,
    )  # fmt: skip
    assert (charge.sample_id, charge.amount) == (sample.pk, Decimal("127.50"))
    with pytest.raises(ValidationError):
        sample_charge(
            sample=sample,
            kind="staff_time",
            quantity="1",
            reason="x",
            incurred_on=town_today(),
            acting_user=inspector,
        )
    cancelled = compliance_charge_cancel(charge=charge, reason="Entered twice", acting_user=manager)
    assert cancelled.status == "cancelled" and ComplianceCharge.objects.filter(pk=charge.pk).exists()
    entry = AuditEntry.objects.filter(action="compliance_charge.cancel").get()
    assert entry.note == "Entered twice"


@pytest.mark.provision("D5")
def test_d5_a_sample_of_a_cancelled_visit_is_refused_and_of_another_establishment_too(town, inspector):
    from fogcontrol.core.errors import StateConflict
    from fogcontrol.inspections.services import inspection_cancel
    from fogcontrol.inspections.tests.helpers import scheduled

    visit = scheduled(town.own_fse, inspector)
    with pytest.raises(ValidationError) as elsewhere:
        sample_of(town.other_fse, inspector, inspection=visit)
    assert "another establishment" in elsewhere.value.message_dict["inspection"][0]
    inspection_cancel(inspection=visit, acting_user=inspector, reason="Closed for remodel")
    visit.refresh_from_db()
    with pytest.raises(StateConflict):
        sample_of(town.own_fse, inspector, inspection=visit)
