"""A ruleset version is an act of the Town Council, and its numbers stay within sensible ranges.

A new version names the ordinance or resolution that adopted it and its adoption date, takes effect
after today, and every value lies within the range declared for it (program/ruleset_bounds.py).
The same refusal, naming the field, the provision and the range, comes from the service, the page
and the API.
"""

import dataclasses
import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from conftest import api_as
from fogcontrol.audit.selectors import audit_entries_for
from fogcontrol.program import services
from fogcontrol.program.forms import ruleset_initial
from fogcontrol.program.models import RulesetVersion
from fogcontrol.program.ruleset_bounds import BOUNDS, bounds_problem
from fogcontrol.rules.ruleset import CHAPTER_10_02, Ruleset

pytestmark = pytest.mark.django_db

ADOPTED = dt.date(2023, 3, 30)
FUTURE = dt.date(2027, 1, 1)
ADOPTION = {"adoption_reference": "Res. 2026-41", "adopted_on": dt.date(2026, 6, 1)}
RULESETS = "/api/v1/program/rulesets/"

# (value name, a value out of range, the provision and the range the refusal names)
OUT_OF_RANGE = [
    pytest.param("allowed_frequencies_days", [0, 30, 60], "E1", "at least 1 and at most 365 days", id="E1-0"),
    pytest.param(
        "allowed_frequencies_days", [30, 60, 400], "E1", "at least 1 and at most 365 days", id="E1-400"
    ),
    pytest.param("default_frequency_trap_days", 400, "E2", "at least 1 and at most 365 days", id="E2-400"),
    pytest.param("fill_limit_ratio", "1.5", "E3", "strictly between 0 and 1", id="E3-1.5"),
    pytest.param("fill_limit_ratio", "1", "E3", "strictly between 0 and 1", id="E3-1"),
    pytest.param("fill_limit_ratio", "0", "E3", "strictly between 0 and 1", id="E3-0"),
    pytest.param(
        "penalty_cap_per_sso", "-5000", "P7", "more than $0 and at most $100,000 per SSO", id="P7-negative"
    ),
    pytest.param(
        "penalty_cap_no_permit_per_day", "0", "P7", "more than $0 and at most $100,000 per day", id="P7-zero"
    ),
    pytest.param(
        "judicial_penalty_cap_per_day", "0", "P11", "more than $0 and at most $100,000 per day", id="P11-zero"
    ),
    pytest.param("frequency_change_notice_days", 0, "B7", "at least 1 and at most 180 days", id="B7-0"),
    pytest.param("fee_delinquency_days", 4500, "Q1", "at least 1 and at most 365 days", id="Q1-4500"),
    pytest.param("revocation_hearing_max_days", 4500, "L2", "at least 1 and at most 365 days", id="L2-4500"),
    pytest.param("max_discharge_temperature_f", 1400, "K4", "at least 33 and at most 212 °F", id="K4-1400"),
]


def _create(manager, **overrides):
    arguments = {
        "acting_user": manager,
        "effective_from": FUTURE,
        "label": "Resolution 2026-41",
        "values": {"fee_delinquency_days": 30},
        **ADOPTION,
    }
    arguments.update(overrides)
    return services.ruleset_version_create(**arguments)


def client_as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _form(**changes):
    data = {}
    for name, value in ruleset_initial(CHAPTER_10_02).items():
        data[name] = value.isoformat() if isinstance(value, dt.date) else str(value)
    data.update(effective_from=FUTURE.isoformat(), label="Resolution 2026-41", notes="")
    data.update(adoption_reference="Res. 2026-41", adopted_on="2026-06-01")
    data.update(
        {
            name: ", ".join(map(str, value)) if isinstance(value, list) else str(value)
            for name, value in changes.items()
        }
    )
    return data


# --- the adopting act ---------------------------------------------------------------------------


def test_a_version_without_the_number_of_its_adopting_ordinance_or_resolution_is_refused(today, manager):
    with pytest.raises(ValidationError) as refused:
        _create(manager, adoption_reference="  ")
    assert (
        "ordinance or resolution that adopted this version"
        in refused.value.message_dict["adoption_reference"][0]
    )
    with pytest.raises(ValidationError) as refused:
        _create(manager, adoption_reference="", adopted_on=None)
    assert set(refused.value.message_dict) == {"adoption_reference", "adopted_on"}
    assert "YYYY-MM-DD" in refused.value.message_dict["adopted_on"][0]
    assert RulesetVersion.objects.count() == 1  # only Chapter 10.02 as adopted


def test_a_version_adopted_after_today_is_refused(today, manager):
    with pytest.raises(ValidationError) as refused:
        _create(manager, adopted_on=today + dt.timedelta(days=1))
    assert "after today (2026-06-15)" in refused.value.message_dict["adopted_on"][0]
    assert RulesetVersion.objects.count() == 1
    # Adopted today and in force from tomorrow is the earliest a version can be.
    version = _create(manager, effective_from=today + dt.timedelta(days=1), adopted_on=today)
    assert version.adopted_on == today


def test_a_version_taking_effect_in_the_past_is_refused(today, manager):
    with pytest.raises(ValidationError) as refused:
        _create(manager, effective_from=dt.date(2026, 1, 1), adopted_on=dt.date(2025, 12, 1))
    assert "must take effect after today (2026-06-15)" in refused.value.message_dict["effective_from"][0]
    assert RulesetVersion.objects.count() == 1


def test_the_version_records_its_adopting_act_and_the_audit_entry_says_so(today, manager):
    version = _create(manager, adoption_reference=" Res. 2026-41 ")
    assert version.adoption_reference == "Res. 2026-41"
    assert version.adopted_on == dt.date(2026, 6, 1)
    after = audit_entries_for(version)[0].after
    assert after["adoption_reference"] == "Res. 2026-41" and after["adopted_on"] == "2026-06-01"


def test_a_future_version_recorded_without_its_adopting_act_must_name_it_before_it_is_changed(today, manager):
    legacy = RulesetVersion.objects.create(effective_from=FUTURE, label="Draft from before", values={})
    with pytest.raises(ValidationError) as refused:
        services.ruleset_version_update(acting_user=manager, version=legacy, label="Draft, renamed")
    assert set(refused.value.message_dict) == {"adoption_reference", "adopted_on"}
    services.ruleset_version_update(acting_user=manager, version=legacy, label="Draft, renamed", **ADOPTION)
    legacy.refresh_from_db()
    assert legacy.adoption_reference == "Res. 2026-41" and legacy.label == "Draft, renamed"


def test_chapter_10_02_as_adopted_names_ord_564_and_still_validates(today):
    adopted = RulesetVersion.objects.get(effective_from=ADOPTED)
    assert adopted.adoption_reference == "Ord. No. 564"
    assert adopted.adopted_on == dt.date(2023, 2, 28)
    adopted.full_clean()
    assert services.clean_ruleset_values(adopted.values) == {}
    assert services.clean_ruleset_values(CHAPTER_10_02.to_dict()) == {}


# --- ranges ---------------------------------------------------------------------------------------


def test_every_number_of_the_ruleset_has_a_declared_range_and_the_adopted_numbers_lie_within_it():
    numeric = [
        field.name
        for field in dataclasses.fields(Ruleset)
        if isinstance(getattr(CHAPTER_10_02, field.name), int | Decimal | tuple | dict)
    ]
    missing = [name for name in numeric if name not in BOUNDS]
    assert not missing, f"Declare a range in fogcontrol/program/ruleset_bounds.py for: {', '.join(missing)}"
    assert not set(BOUNDS) - {field.name for field in dataclasses.fields(Ruleset)}
    for name in numeric:
        assert bounds_problem(name, getattr(CHAPTER_10_02, name)) is None, name


@pytest.mark.parametrize(("name", "value", "provision", "allowed"), OUT_OF_RANGE)
def test_a_value_out_of_range_is_refused_by_the_service_naming_the_provision_and_the_range(
    today, manager, name, value, provision, allowed
):
    with pytest.raises(ValidationError) as refused:
        _create(manager, values={name: value})
    message = " ".join(refused.value.message_dict[name])
    assert message.startswith(f"{provision} · ") and allowed in message
    assert RulesetVersion.objects.count() == 1


@pytest.mark.provision("E1")
def test_e1_a_future_version_cannot_be_changed_to_a_frequency_out_of_range(today, manager):
    version = _create(manager)
    with pytest.raises(ValidationError) as refused:
        services.ruleset_version_update(
            acting_user=manager, version=version, values={"allowed_frequencies_days": [30, 400]}
        )
    assert "E1" in refused.value.message_dict["allowed_frequencies_days"][0]
    version.refresh_from_db()
    assert version.values == {"fee_delinquency_days": 30}


@pytest.mark.provision("E3")
def test_e3_a_limit_just_inside_the_range_is_accepted(today, manager):
    version = _create(manager, values={"fill_limit_ratio": "0.3"})
    assert version.as_ruleset().fill_limit_ratio == Decimal("0.3")


# --- the page -----------------------------------------------------------------------------------


def test_the_page_refuses_a_version_without_its_adopting_act_beside_the_field(today, manager):
    form = _form(fee_delinquency_days=30)
    form.pop("adoption_reference")
    form["adopted_on"] = ""
    response = client_as(manager).post("/program/rulesets/new/", form)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Give the number of the ordinance or resolution that adopted this version" in page
    assert "Give the day the Town Council adopted the ordinance or resolution" in page
    assert RulesetVersion.objects.count() == 1


def test_the_page_refuses_a_past_effective_date(today, manager):
    response = client_as(manager).post(
        "/program/rulesets/new/", _form(effective_from="2026-01-01", adopted_on="2025-12-01")
    )
    assert response.status_code == 200
    assert "must take effect after today" in response.content.decode()
    assert RulesetVersion.objects.count() == 1


@pytest.mark.parametrize(("name", "value", "provision", "allowed"), OUT_OF_RANGE)
def test_the_page_refuses_a_value_out_of_range_beside_it_naming_the_provision_and_range(
    today, manager, name, value, provision, allowed
):
    response = client_as(manager).post("/program/rulesets/new/", _form(**{name: value}))
    assert response.status_code == 200
    page = response.content.decode()
    field_html = page.split(f'name="{name}"')[1].split("</label>")[0]
    assert f"{provision} · " in field_html and allowed.replace("&", "&amp;") in field_html
    assert RulesetVersion.objects.count() == 1


def test_the_form_states_the_range_of_each_value_and_the_adopting_act_it_needs(today, manager):
    page = client_as(manager).get("/program/rulesets/new/").content.decode()
    assert "Adopting ordinance or resolution" in page and "Adopted on" in page
    frequencies = page.split('name="allowed_frequencies_days"')[1].split("</label>")[0]
    assert "Allowed: each number at least 1 and at most 365 days." in frequencies
    limit = page.split('name="fill_limit_ratio"')[1].split("</label>")[0]
    assert "strictly between 0 and 1, e.g. 0.25 for 25%" in limit


def test_the_version_pages_show_the_adopting_act(today, manager):
    version = _create(manager)
    client = client_as(manager)
    assert (
        "Res. 2026-41, adopted June 1, 2026"
        in client.get(f"/program/rulesets/{version.pk}/").content.decode()
    )
    listing = client.get("/program/rulesets/").content.decode()
    assert "Ord. No. 564 (2023-02-28)" in listing and "Res. 2026-41 (2026-06-01)" in listing


# --- the API ------------------------------------------------------------------------------------


def _post(client, **changes):
    body = {"effective_from": "2027-01-01", "label": "Resolution 2026-41", **changes}
    return client.post(RULESETS, body, format="json")


def test_the_api_refuses_a_version_without_its_adopting_act_with_400_naming_the_fields(today, manager):
    response = _post(api_as(manager), values={"appeal_days": 20})
    assert response.status_code == 400
    body = response.json()
    assert "ordinance or resolution that adopted this version" in body["adoption_reference"][0]
    assert "YYYY-MM-DD" in body["adopted_on"][0]
    response = _post(api_as(manager), adoption_reference="Res. 2026-41", adopted_on="2026-07-01")
    assert response.status_code == 400 and "after today" in response.json()["adopted_on"][0]
    assert RulesetVersion.objects.count() == 1


def test_the_api_refuses_a_past_effective_date_with_400(today, manager):
    response = _post(
        api_as(manager),
        effective_from="2026-01-01",
        adoption_reference="Res. 2025-9",
        adopted_on="2025-12-01",
    )
    assert response.status_code == 400 and "after today" in response.json()["effective_from"][0]


@pytest.mark.parametrize(("name", "value", "provision", "allowed"), OUT_OF_RANGE)
def test_the_api_refuses_a_value_out_of_range_with_400_naming_the_value_the_provision_and_range(
    today, manager, name, value, provision, allowed
):
    response = _post(
        api_as(manager), values={name: value}, adoption_reference="Res. 2026-41", adopted_on="2026-06-01"
    )
    assert response.status_code == 400
    message = response.json()["values"][name][0]
    assert message.startswith(f"{provision} · ") and allowed in message
    assert RulesetVersion.objects.count() == 1


def test_the_api_shows_and_records_the_adopting_act(today, manager):
    client = api_as(manager)
    adopted = client.get(f"{RULESETS}{RulesetVersion.objects.get(effective_from=ADOPTED).pk}/").json()
    assert adopted["adoption_reference"] == "Ord. No. 564" and adopted["adopted_on"] == "2023-02-28"
    response = _post(client, values={"appeal_days": 20}, **{**ADOPTION, "adopted_on": "2026-06-01"})
    assert response.status_code == 201, response.json()
    assert response.json()["adoption_reference"] == "Res. 2026-41"
    response = client.patch(f"{RULESETS}{response.json()['id']}/", {"adoption_reference": ""}, format="json")
    assert response.status_code == 400 and "adoption_reference" in response.json()
