"""Late training becomes a finding like a late report (C4; the F3/F4 sweep's pattern): a new hire
not trained by the due date, and annual training overdue, each found once by the nightly sweep."""

import datetime as dt

import pytest
from django.core.management import call_command

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.findings.models import Finding
from fogcontrol.records import services
from fogcontrol.records.models import Employee
from fogcontrol.records.services.training_sweep import late_training_sweep
from fogcontrol.records.tests.helpers import days_ago, signature_data_url
from fogcontrol.testing import factories

ALL_SUBJECTS = ["dry_wipe", "food_waste", "absorbents", "waste_oil"]


def _train(town, establishment, held_on, *names_and_hires):
    fse = town.users[Role.FSE] if establishment == town.own_fse else town.users[Role.FOG_MANAGER]
    session = services.training_session_record(
        establishment=establishment, held_on=held_on, trainer="Ana", subjects=ALL_SUBJECTS, acting_user=fse
    )
    for name, hire_date in names_and_hires:
        services.training_attendance_sign(
            session=session, employee_name=name, hire_date=hire_date, signature=signature_data_url(),
            acting_user=fse,
        )  # fmt: skip
    return session


def _training_findings():
    return {f.item: f for f in Finding.objects.filter(source=Finding.Source.RECORDS, provision="C4")}


@pytest.mark.provision("C4")
def test_c4_a_new_hire_not_trained_by_the_due_date_becomes_a_finding_once(town):
    fse = town.users[Role.FSE]
    hired = services.employee_add(
        establishment=town.own_fse, name="Alex Moreno", hire_date=days_ago(10), acting_user=fse
    )
    before = AuditEntry.objects.filter(action="finding.open").count()
    assert late_training_sweep() == 1
    finding = _training_findings()[f"training hire {hired.pk}"]
    assert finding.establishment == town.own_fse and finding.source_id == hired.pk
    assert "Alex Moreno" in finding.description and "not trained" in finding.description
    assert "(C4)" in finding.description and finding.began_on <= days_ago(0)
    assert finding.opened_by_label == "records.nightly"
    assert AuditEntry.objects.filter(action="finding.open").count() == before + 1
    assert late_training_sweep() == 0  # once


@pytest.mark.provision("C4")
def test_c4_a_hire_trained_on_time_or_first_recorded_at_the_training_is_no_finding(town):
    _train(town, town.own_fse, days_ago(3), ("Dana Ruiz", days_ago(3)), ("Long Timer", days_ago(900)))
    # A hire whose due date has not come yet (the ruleset gives 0 days: due on the hire date itself).
    services.employee_add(
        establishment=town.own_fse,
        name="Starts Today",
        hire_date=days_ago(0),
        acting_user=town.users[Role.FSE],
    )
    assert late_training_sweep() == 0
    assert not _training_findings()


@pytest.mark.provision("C4")
def test_c4_a_hire_on_record_and_trained_after_the_due_date_is_found_trained_late(town):
    hired = services.employee_add(
        establishment=town.own_fse,
        name="Sam Okafor",
        hire_date=days_ago(20),
        acting_user=town.users[Role.FSE],
    )
    Employee.objects.filter(pk=hired.pk).update(
        created_at=dt.datetime.combine(days_ago(20), dt.time(12), dt.UTC)
    )
    _train(town, town.own_fse, days_ago(2), ("Sam Okafor", days_ago(20)))
    assert late_training_sweep() == 1
    assert "trained late, on" in _training_findings()[f"training hire {hired.pk}"].description


@pytest.mark.provision("C4")
def test_c4_annual_training_overdue_becomes_a_finding_once(town):
    _train(town, town.own_fse, days_ago(400))
    _train(town, town.other_fse, days_ago(100))  # not due for months
    assert late_training_sweep() == 1
    ((item, finding),) = _training_findings().items()
    assert item.startswith("training annual ") and finding.establishment == town.own_fse
    assert finding.source_id == town.own_fse.pk and "at least once a year" in finding.description
    assert late_training_sweep() == 0
    # A year on: the other FSE's training lapses too; the first FSE's lapse is still the one found.
    assert late_training_sweep(today=days_ago(-400)) == 1
    assert Finding.objects.filter(provision="C4", establishment=town.other_fse).count() == 1


@pytest.mark.provision("C4")
def test_c4_the_training_sweep_keeps_its_queries_whatever_the_number_of_establishments(
    town, django_assert_num_queries
):
    manager = town.users[Role.FOG_MANAGER]
    _train(town, town.own_fse, days_ago(400))
    assert late_training_sweep() == 1
    for count in (1, 3):
        for number in range(count):
            services.employee_add(
                establishment=factories.EstablishmentFactory(), name=f"Hire {number}", hire_date=days_ago(5),
                acting_user=manager,
            )  # fmt: skip
        # The Town's profile (twice), ruleset and calendar; then per batch: establishments, findings
        # made, employees, last sessions, INSERT findings, INSERT audit; two savepoints each way.
        with django_assert_num_queries(14):
            assert late_training_sweep() == count


@pytest.mark.provision("C4")
def test_c4_the_nightly_command_runs_the_training_sweep_too(town, capsys):
    services.employee_add(
        establishment=town.own_fse,
        name="Alex Moreno",
        hire_date=days_ago(10),
        acting_user=town.users[Role.FSE],
    )
    call_command("records_nightly")
    assert "training findings opened: 1" in capsys.readouterr().out
