"""Program settings writes: versioned rules, the Town calendar, the Town profile, and their audit."""

import dataclasses
import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from hypothesis import given, settings
from hypothesis import strategies as st

from fogcontrol.audit.models import AuditEntry
from fogcontrol.audit.selectors import audit_entries_for
from fogcontrol.core.roles import Role
from fogcontrol.program import services
from fogcontrol.program.models import Holiday, RulesetVersion
from fogcontrol.program.ruleset_bounds import BOUNDS
from fogcontrol.program.selectors import ruleset_on, town_calendar, town_profile
from fogcontrol.rules.deadlines import spill_report_due
from fogcontrol.rules.fees import fee_status
from fogcontrol.rules.holidays import standard_town_holidays
from fogcontrol.rules.ruleset import CHAPTER_10_02, Ruleset

pytestmark = pytest.mark.django_db

ADOPTED = dt.date(2023, 3, 30)
# The resolution that adopts the test versions: every new version names its adopting act.
ADOPTION = {"adoption_reference": "Res. 2026-41", "adopted_on": dt.date(2026, 6, 1)}


def _future_version(manager, **values):
    return services.ruleset_version_create(
        acting_user=manager,
        effective_from=dt.date(2027, 1, 1),
        label="Resolution 2026-41",
        **ADOPTION,
        values=values or {"fee_delinquency_days": 30},
    )


# --- ruleset versions ---------------------------------------------------------------------------


@pytest.mark.provision("Q1")
def test_q1_changing_a_number_in_a_new_version_changes_results_from_its_effective_date_on_and_not_before(
    today, manager
):
    _future_version(manager, fee_delinquency_days=30)

    assert ruleset_on(dt.date(2026, 12, 31)).fee_delinquency_days == 45
    assert ruleset_on(dt.date(2027, 1, 1)).fee_delinquency_days == 30
    assert ruleset_on(dt.date(2030, 1, 1)).fee_delinquency_days == 30

    # Through the rules engine: a notice under the old rules gets 45 days, under the new 30.
    calendar = town_calendar()
    old_notice, new_notice = dt.date(2026, 12, 28), dt.date(2027, 1, 4)
    paid = dt.date(2027, 2, 5)
    under_old = fee_status(
        notice_date=old_notice, paid_on=None, on=paid, ruleset=ruleset_on(old_notice), calendar=calendar
    )
    under_new = fee_status(
        notice_date=new_notice, paid_on=None, on=paid, ruleset=ruleset_on(new_notice), calendar=calendar
    )
    assert under_old.last_day_to_pay == dt.date(2027, 2, 11)  # 45 days
    assert under_new.last_day_to_pay == dt.date(2027, 2, 3)  # 30 days
    assert not under_old.delinquent and under_new.delinquent


@pytest.mark.provision("Q1")
def test_q1_a_version_stores_only_its_amendments_and_keeps_the_others_as_adopted(today, manager):
    version = _future_version(manager, fee_delinquency_days=30, appeal_days=15, fill_limit_ratio="0.25")
    assert version.values == {"fee_delinquency_days": 30}
    assert version.as_ruleset().appeal_days == 15


def test_the_adopted_version_is_read_only_because_old_decisions_are_judged_by_it(today, manager):
    adopted = RulesetVersion.objects.get(effective_from=ADOPTED)
    with pytest.raises(services.RulesetVersionLocked, match="read-only"):
        services.ruleset_version_update(
            acting_user=manager, version=adopted, values={"fee_delinquency_days": 30}
        )
    with pytest.raises(services.RulesetVersionLocked):
        services.ruleset_version_delete(acting_user=manager, version=adopted)
    adopted.refresh_from_db()
    assert adopted.values == {}


def test_a_version_taking_effect_today_is_already_read_only(today, manager):
    version = _future_version(manager)
    RulesetVersion.objects.filter(pk=version.pk).update(effective_from=today)
    version.refresh_from_db()
    with pytest.raises(services.RulesetVersionLocked):
        services.ruleset_version_update(acting_user=manager, version=version, label="Changed")


def test_a_future_version_can_be_changed_and_withdrawn_and_each_write_is_audited(today, manager):
    version = _future_version(manager)
    services.ruleset_version_update(
        acting_user=manager, version=version, values={"fee_delinquency_days": 40}, label="Resolution 2026-42"
    )
    version.refresh_from_db()
    assert version.values == {"fee_delinquency_days": 40}
    assert [entry.action for entry in audit_entries_for(version)] == [
        "ruleset_version.update",
        "ruleset_version.create",
    ]
    update = audit_entries_for(version)[0]
    assert update.before["values"] == {"fee_delinquency_days": 30}
    assert update.after["values"] == {"fee_delinquency_days": 40}
    pk = version.pk
    services.ruleset_version_delete(acting_user=manager, version=version)
    assert not RulesetVersion.objects.filter(pk=pk).exists()
    assert AuditEntry.objects.filter(action="ruleset_version.delete", object_id=str(pk)).exists()


def test_a_new_version_must_take_effect_after_today(today, manager):
    with pytest.raises(ValidationError) as refused:
        services.ruleset_version_create(
            acting_user=manager, effective_from=today, label="Too soon", values={}
        )
    assert "after today" in refused.value.message_dict["effective_from"][0]
    version = _future_version(manager)
    with pytest.raises(ValidationError) as refused:
        services.ruleset_version_update(
            acting_user=manager, version=version, effective_from=dt.date(2020, 1, 1)
        )
    assert "effective_from" in refused.value.message_dict


def test_two_versions_cannot_take_effect_on_the_same_day(today, manager):
    _future_version(manager)
    with pytest.raises(ValidationError) as refused:
        _future_version(manager)
    assert "Resolution 2026-41 already takes effect" in refused.value.message_dict["effective_from"][0]


@pytest.mark.parametrize(
    ("values", "field", "hint"),
    [
        ({"fee_delinquncy_days": 30}, "fee_delinquncy_days", "Not a ruleset value"),
        ({"fee_delinquency_days": "thirty"}, "fee_delinquency_days", "whole number"),
        ({"fee_delinquency_days": -1}, "fee_delinquency_days", "at least 1"),
        ({"fill_limit_ratio": "1.5"}, "fill_limit_ratio", "between 0 and 1"),
        ({"allowed_frequencies_days": [90, 30]}, "allowed_frequencies_days", "increasing order"),
        ({"allowed_frequencies_days": []}, "allowed_frequencies_days", "at least one"),
        ({"chapter_effective_date": "March 2023"}, "chapter_effective_date", "YYYY-MM-DD"),
        ({"revocation_hearing_min_days": 50}, "revocation_hearing_max_days", "L2"),
        ({"cpc_fixture_dfu": {"hand_sink": 0}}, "cpc_fixture_dfu", "positive whole number"),
        ({"cpc_fixture_dfu": [1, 2]}, "cpc_fixture_dfu", "hand_sink"),
    ],
)
def test_bad_values_are_refused_naming_the_value_and_how_to_fix_it(today, manager, values, field, hint):
    with pytest.raises(ValidationError) as refused:
        _future_version(manager, **values)
    assert hint in " ".join(refused.value.message_dict[field])
    assert RulesetVersion.objects.count() == 1  # only the adopted version


def test_only_the_fog_manager_changes_the_rules(today, town):
    for role in (Role.INSPECTOR, Role.HEARING_OFFICER, Role.BILLING_CLERK, Role.STAFF_READONLY, Role.FSE):
        with pytest.raises(PermissionDenied):
            _future_version(town.users[role])
    assert RulesetVersion.objects.count() == 1


# --- the Town calendar --------------------------------------------------------------------------


def test_counting_days_the_standard_holidays_are_installed_for_2023_to_2035():
    for year in (2023, 2026, 2035):
        installed = dict(Holiday.objects.filter(date__year=year).values_list("date", "name"))
        assert installed == standard_town_holidays(year)
    assert not Holiday.objects.filter(date__year=2036).exists()


@pytest.mark.provision("J2")
def test_j2_a_closure_day_added_by_the_town_moves_the_written_spill_report_deadline(manager):
    # A spill on Monday, June 1, 2026: 5 working days is Monday, June 8.
    spill = dt.date(2026, 6, 1)
    assert spill_report_due(spill, ruleset=ruleset_on(spill), calendar=town_calendar()).due == dt.date(
        2026, 6, 8
    )
    closure = services.holiday_add(
        acting_user=manager, date=dt.date(2026, 6, 5), name="9/80 closure Friday", kind=Holiday.Kind.CLOSURE
    )
    assert spill_report_due(spill, ruleset=ruleset_on(spill), calendar=town_calendar()).due == dt.date(
        2026, 6, 9
    )
    closure_id = str(closure.pk)
    services.holiday_remove(acting_user=manager, holiday=closure)
    assert spill_report_due(spill, ruleset=ruleset_on(spill), calendar=town_calendar()).due == dt.date(
        2026, 6, 8
    )
    assert [e.action for e in AuditEntry.objects.filter(object_id=closure_id).order_by("id")] == [
        "holiday.add",
        "holiday.remove",
    ]


@pytest.mark.provision("Counting days")
def test_counting_days_removing_a_holiday_makes_it_a_business_day_again(manager):
    independence = Holiday.objects.get(date=dt.date(2026, 7, 3))  # July 4, 2026 is a Saturday
    assert not town_calendar().is_business_day(independence.date)
    services.holiday_remove(acting_user=manager, holiday=independence)
    assert town_calendar().is_business_day(independence.date)


def test_installing_a_standard_year_adds_only_the_missing_days(manager):
    Holiday.objects.filter(date=dt.date(2024, 7, 4)).delete()
    renamed = Holiday.objects.get(date=dt.date(2024, 12, 25))
    renamed.name = "Christmas (Town observance)"
    renamed.save()
    added = services.holidays_install_standard(year=2024, acting_user=manager)
    assert [(h.date, h.name) for h in added] == [(dt.date(2024, 7, 4), "Independence Day")]
    assert Holiday.objects.get(date=dt.date(2024, 12, 25)).name == "Christmas (Town observance)"
    assert services.holidays_install_standard(year=2024, acting_user=manager) == []
    added = services.holidays_install_standard(year=2040, acting_user=manager)
    assert len(added) == len(standard_town_holidays(2040))
    assert AuditEntry.objects.filter(action="holiday.add", note="Standard holidays of 2040").count() == len(
        added
    )


def test_a_day_already_closed_is_refused_naming_the_holiday(manager):
    with pytest.raises(ValidationError) as refused:
        services.holiday_add(acting_user=manager, date=dt.date(2026, 12, 25), name="Office party")
    assert "already on the calendar as Christmas Day" in refused.value.message_dict["date"][0]


def test_a_year_out_of_range_is_refused(manager):
    with pytest.raises(ValidationError) as refused:
        services.holidays_install_standard(year=20266, acting_user=manager)
    assert "year" in refused.value.message_dict


# --- the Town profile ---------------------------------------------------------------------------


@pytest.mark.provision("B2")
def test_b2_j1_the_fog_manager_sets_the_contacts_permits_print_and_the_change_is_audited(manager):
    profile = services.town_profile_update(
        acting_user=manager,
        wastewater_division_phone="(650) 555-0134",
        after_hours_emergency_phone="(650) 555-0199",
        fog_manager_address="1 North San Antonio Road\nLos Robles, CA 94022",
    )
    assert town_profile().after_hours_emergency_phone == "(650) 555-0199"
    entry = audit_entries_for(profile)[0]
    assert entry.action == "town_profile.update" and entry.actor == manager
    assert entry.before["after_hours_emergency_phone"] == ""
    assert entry.after["after_hours_emergency_phone"] == "(650) 555-0199"


def test_a_time_zone_that_does_not_exist_is_refused_and_nothing_is_saved(manager):
    with pytest.raises(ValidationError) as refused:
        services.town_profile_update(acting_user=manager, name="Los Robles", time_zone="America/Los_Robles")
    assert "America/Los_Angeles" in refused.value.message_dict["time_zone"][0]
    assert town_profile().time_zone == "America/Los_Angeles"
    assert town_profile().name == "The Town"


def test_saving_the_profile_unchanged_leaves_no_audit_entry(manager):
    profile = town_profile()
    services.town_profile_update(acting_user=manager, name=profile.name)
    assert not audit_entries_for(profile).exists()


# --- property: a version holds exactly its amendments -------------------------------------------

_WHOLE_NUMBER_VALUES = sorted(
    field.name
    for field in dataclasses.fields(Ruleset)
    if type(getattr(CHAPTER_10_02, field.name)) is int and not field.name.startswith("revocation_hearing")
)


# Each value drawn within its declared range (fogcontrol.program.ruleset_bounds).
_WITHIN_BOUNDS = {
    name: st.integers(int(BOUNDS[name].low), int(BOUNDS[name].high))
    for name in _WHOLE_NUMBER_VALUES
    if name in BOUNDS
}


@settings(max_examples=60, deadline=None)
@given(changes=st.fixed_dictionaries({}, optional=_WITHIN_BOUNDS))
def test_a_version_stores_exactly_what_differs_and_reads_back_every_value(changes):
    stored = services.clean_ruleset_values(changes)
    assert stored == {name: value for name, value in changes.items() if getattr(CHAPTER_10_02, name) != value}
    ruleset = Ruleset.from_dict(stored)
    for name, value in changes.items():
        assert getattr(ruleset, name) == value
