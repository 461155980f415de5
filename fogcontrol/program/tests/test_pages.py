"""The program settings pages: who may see and change them, forms, the htmx calendar, query counts."""

import datetime as dt
from decimal import Decimal

import pytest
from django.test import Client

from fogcontrol.core.roles import OUTSIDE_ROLES, STAFF_ROLES, Role
from fogcontrol.program import services
from fogcontrol.program.forms import ruleset_initial
from fogcontrol.program.models import Holiday, RulesetVersion
from fogcontrol.program.selectors import ruleset_on, town_profile
from fogcontrol.rules.holidays import standard_town_holidays
from fogcontrol.rules.ruleset import CHAPTER_10_02
from fogcontrol.testing.queries import assert_queries_do_not_grow

pytestmark = pytest.mark.django_db

ADOPTED = dt.date(2023, 3, 30)
# The resolution that adopts the test versions: every new version names its adopting act.
ADOPTION = {"adoption_reference": "Res. 2026-41", "adopted_on": dt.date(2026, 6, 1)}


def client_as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _adopted_pk():
    return RulesetVersion.objects.get(effective_from=ADOPTED).pk


READ_PAGES = [
    "/program/",
    "/program/profile/",
    "/program/holidays/",
    "/program/holidays/?year=2027",
    "/program/rulesets/",
    "/program/rulesets/?on=2024-01-01",
    "/program/rulesets/{adopted}/",
]
WRITE_PAGES = ["/program/profile/edit/", "/program/rulesets/new/"]


@pytest.mark.parametrize("role", sorted(STAFF_ROLES))
def test_town_staff_see_every_program_page(town, today, role):
    client = client_as(town.users[role])
    for url in READ_PAGES:
        assert client.get(url.format(adopted=_adopted_pk())).status_code == 200, url


@pytest.mark.parametrize("role", sorted(OUTSIDE_ROLES))
def test_outside_users_are_told_the_program_pages_do_not_exist(town, today, role):
    client = client_as(town.users[role])
    for url in READ_PAGES + WRITE_PAGES:
        assert client.get(url.format(adopted=_adopted_pk())).status_code == 404, url
    assert client.post("/program/holidays/add/", {"date": "2026-08-07", "name": "x"}).status_code == 404
    assert not Holiday.objects.filter(date=dt.date(2026, 8, 7)).exists()


@pytest.mark.parametrize("role", sorted(STAFF_ROLES - {Role.FOG_MANAGER}))
def test_staff_other_than_the_fog_manager_may_look_but_not_change(town, today, role):
    client = client_as(town.users[role])
    for url in WRITE_PAGES:
        assert client.get(url).status_code == 403, url
    response = client.post(
        "/program/holidays/add/", {"date": "2026-08-07", "name": "Closure", "kind": "closure"}
    )
    assert response.status_code == 403
    assert not Holiday.objects.filter(date=dt.date(2026, 8, 7)).exists()
    assert client.post("/program/profile/edit/", {"name": "Hacked"}).status_code == 403
    assert town_profile().name == "The Town"
    # The read pages offer no edit buttons.
    assert "Edit the profile" not in client.get("/program/profile/").content.decode()


def test_anonymous_visitors_are_sent_to_sign_in(db):
    response = Client().get("/program/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")


# --- Town profile -------------------------------------------------------------------------------


def _profile_data(**changes):
    data = {
        "name": "Town of Los Robles",
        "time_zone": "America/Los_Angeles",
        "office_hours": "Monday to Friday, 8:00 a.m. to 5:00 p.m.",
        "wastewater_division_phone": "(650) 555-0134",
        "after_hours_emergency_phone": "(650) 555-0199",
        "code_enforcement_phone": "",
        "fog_manager_name": "Dana Whitfield",
        "fog_manager_address": "1 North San Antonio Road\nLos Robles, CA 94022",
        "fog_manager_email": "fog@losrobles.example",
        "fog_manager_phone": "",
    }
    data.update(changes)
    return data


@pytest.mark.provision("B2")
def test_b2_j1_the_fog_manager_edits_the_contacts_permits_print(town, manager):
    client = client_as(manager)
    response = client.post("/program/profile/edit/", _profile_data())
    assert response.status_code == 302
    page = client.get("/program/profile/").content.decode()
    assert "(650) 555-0199" in page and "1 North San Antonio Road" in page
    assert town_profile().after_hours_emergency_phone == "(650) 555-0199"


def test_a_bad_time_zone_is_named_beside_the_field_and_nothing_is_saved(town, manager):
    response = client_as(manager).post(
        "/program/profile/edit/", _profile_data(time_zone="Pacific/Los_Robles")
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "is not a time zone name" in page and "America/Los_Angeles" in page
    assert 'value="(650) 555-0199"' in page  # what was typed is kept
    assert town_profile().name == "The Town"


# --- holiday calendar ---------------------------------------------------------------------------


def test_the_calendar_lists_a_years_holidays(town, today):
    page = client_as(town.users[Role.STAFF_READONLY]).get("/program/holidays/?year=2026").content.decode()
    assert "Cesar Chavez Day" in page and "2026-03-31" in page
    assert "Independence Day (observed)" in page and "2026-07-03" in page
    assert "Install the standard year" not in page


@pytest.mark.provision("Counting days")
def test_counting_days_the_fog_manager_adds_a_closure_day_with_an_htmx_swap_of_the_years_table(
    town, manager, today
):
    client = client_as(manager)
    response = client.post(
        "/program/holidays/add/",
        {"date": "2026-08-07", "name": "9/80 closure Friday", "kind": "closure", "year": "2026"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert page.lstrip().startswith('<section id="year-panel"')  # the partial, not the whole page
    assert "<html" not in page
    assert "9/80 closure Friday" in page and "Offices closed on Friday, August 7, 2026" in page
    holiday = Holiday.objects.get(date=dt.date(2026, 8, 7))

    response = client.post(f"/program/holidays/{holiday.pk}/remove/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    page = response.content.decode()
    assert "removed: the offices count as open" in page
    assert "9/80 closure Friday" not in page.split("<table")[1].split("</table>")[0]
    assert not Holiday.objects.filter(date=dt.date(2026, 8, 7)).exists()


def test_a_closure_on_a_day_already_closed_is_refused_beside_the_date(town, manager, today):
    response = client_as(manager).post(
        "/program/holidays/add/",
        {"date": "2026-12-25", "name": "Office party", "kind": "closure", "year": "2026"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert "already on the calendar as Christmas Day" in response.content.decode()
    assert Holiday.objects.get(date=dt.date(2026, 12, 25)).name == "Christmas Day"


def test_the_fog_manager_installs_a_standard_year(town, manager, today):
    client = client_as(manager)
    response = client.post("/program/holidays/install-standard/", {"year": "2041"})
    assert response.status_code == 302 and response["Location"].endswith("?year=2041")
    expected = len(standard_town_holidays(2041))
    assert Holiday.objects.filter(date__year=2041).count() == expected
    page = client.get("/program/holidays/?year=2041").content.decode()
    assert f"{expected} standard holidays of 2041 added" in page
    response = client.post("/program/holidays/install-standard/", {"year": "2041"}, HTTP_HX_REQUEST="true")
    assert "already on the calendar" in response.content.decode()


def test_the_calendar_page_takes_the_same_queries_whatever_its_length(town, today):
    added = iter(range(30))

    def add_rows(count):
        Holiday.objects.bulk_create(
            [
                Holiday(date=dt.date(2045, 1, 1) + dt.timedelta(days=i), name=f"Closure {i}", kind="closure")
                for i in [next(added) for _ in range(count)]
            ]
        )

    url = "/program/holidays/?year=2045"
    # Session, user, Town profile and the page's own reads: the same for 3 holidays and 30.
    responses = assert_queries_do_not_grow(
        client_as(town.users[Role.FOG_MANAGER]), add_rows, {url: 7}, small=3, large=30
    )
    for rows, response in zip((3, 30), responses[url], strict=True):
        assert response.content.decode().count("Closure ") >= rows


# --- ruleset versions ---------------------------------------------------------------------------


def _ruleset_form(**changes):
    data = {}
    for name, value in ruleset_initial(CHAPTER_10_02).items():
        data[name] = value.isoformat() if isinstance(value, dt.date) else str(value)
    data.update(
        effective_from="2027-01-01",
        label="Resolution 2026-41",
        adoption_reference="Res. 2026-41",
        adopted_on="2026-06-01",
        notes="Fees: 30 days.",
    )
    data.update({name: str(value) for name, value in changes.items()})
    return data


@pytest.mark.provision("Q1")
def test_q1_the_fog_manager_creates_a_future_version_in_the_page_and_it_applies_from_its_date(
    town, manager, today
):
    client = client_as(manager)
    response = client.post("/program/rulesets/new/", _ruleset_form(fee_delinquency_days=30))
    assert response.status_code == 302
    version = RulesetVersion.objects.get(effective_from=dt.date(2027, 1, 1))
    assert version.values == {"fee_delinquency_days": 30}
    assert ruleset_on(dt.date(2026, 12, 31)).fee_delinquency_days == 45
    assert ruleset_on(dt.date(2027, 1, 1)).fee_delinquency_days == 30
    page = client.get(response["Location"]).content.decode()
    assert "Q1" in page and "Fees delinquent when unpaid after the notice date" in page
    assert "amended" in page and "Future: takes effect later" in page


def test_the_form_carries_every_value_of_the_ruleset_unchanged(town, manager, today):
    """Posting the form as shown amends nothing: every kind of value survives the round trip."""
    response = client_as(manager).post("/program/rulesets/new/", _ruleset_form())
    assert response.status_code == 302
    assert RulesetVersion.objects.get(effective_from=dt.date(2027, 1, 1)).values == {}


@pytest.mark.provision("A4")
def test_a4_a_town_amends_the_fixture_units_table_in_the_page(town, manager, today):
    form = _ruleset_form()
    form["cpc_fixture_dfu"] += "\nwok_station: 4"
    response = client_as(manager).post("/program/rulesets/new/", form)
    assert response.status_code == 302
    assert ruleset_on(dt.date(2027, 1, 1)).cpc_fixture_dfu["wok_station"] == 4
    assert "wok_station" not in ruleset_on(dt.date(2026, 12, 31)).cpc_fixture_dfu


def test_a_new_version_starts_from_a_chosen_version_and_an_unknown_one_is_not_found(town, manager, today):
    client = client_as(manager)
    assert client.get(f"/program/rulesets/new/?from={_adopted_pk()}").status_code == 200
    assert client.get("/program/rulesets/new/?from=abc").status_code == 404
    assert client.get("/program/rulesets/new/?from=99999").status_code == 404


def test_a_new_version_dated_today_is_refused_beside_the_date_and_the_values_are_kept(town, manager, today):
    response = client_as(manager).post(
        "/program/rulesets/new/", _ruleset_form(effective_from=today.isoformat(), fee_delinquency_days=31)
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "must take effect after today" in page
    assert 'value="31"' in page
    assert RulesetVersion.objects.count() == 1


def test_a_bad_value_is_named_beside_its_field(town, manager, today):
    response = client_as(manager).post(
        "/program/rulesets/new/", _ruleset_form(allowed_frequencies_days="90, 30, sixty")
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Give whole numbers separated by commas" in page
    response = client_as(manager).post("/program/rulesets/new/", _ruleset_form(fill_limit_ratio="1.5"))
    assert "between 0 and 1" in response.content.decode()
    assert RulesetVersion.objects.count() == 1


def test_a_version_already_in_effect_is_refused_for_edit_with_the_reason(town, manager, today):
    client = client_as(manager)
    pk = _adopted_pk()
    response = client.get(f"/program/rulesets/{pk}/edit/")
    assert response.status_code == 409
    assert "is read-only: decisions made while it was in force are judged by it" in response.content.decode()
    response = client.post(f"/program/rulesets/{pk}/edit/", _ruleset_form(fee_delinquency_days=30))
    assert response.status_code == 409
    response = client.post(f"/program/rulesets/{pk}/delete/")
    assert response.status_code == 409
    assert RulesetVersion.objects.get(pk=pk).values == {}
    # The page offers no edit for it.
    assert f"/program/rulesets/{pk}/edit/" not in client.get(f"/program/rulesets/{pk}/").content.decode()


def test_a_future_version_is_edited_and_withdrawn_in_the_page(town, manager, today):
    version = services.ruleset_version_create(
        acting_user=manager,
        effective_from=dt.date(2027, 1, 1),
        label="Draft",
        values={"appeal_days": 20},
        **ADOPTION,
    )
    client = client_as(manager)
    assert client.get(f"/program/rulesets/{version.pk}/edit/").status_code == 200
    response = client.post(
        f"/program/rulesets/{version.pk}/edit/", _ruleset_form(appeal_days=21, label="Draft 2")
    )
    assert response.status_code == 302
    version.refresh_from_db()
    assert version.values == {"appeal_days": 21} and version.label == "Draft 2"
    assert client.post(f"/program/rulesets/{version.pk}/delete/").status_code == 302
    assert not RulesetVersion.objects.filter(pk=version.pk).exists()


def test_the_version_page_shows_each_value_with_its_provision_and_the_amendments(town, manager, today):
    version = services.ruleset_version_create(
        acting_user=manager,
        effective_from=dt.date(2027, 1, 1),
        label="Resolution 2026-41",
        values={"interceptor_min_manhole_inches": 24, "penalty_cap_per_sso": "6000"},
        **ADOPTION,
    )
    page = (
        client_as(town.users[Role.HEARING_OFFICER]).get(f"/program/rulesets/{version.pk}/").content.decode()
    )
    assert "A. Registry and responsibility" in page and "P. Enforcement and penalties" in page
    assert "Access manhole diameter, at least" in page and ">A4<" in page
    differences = page.split("What differs from Chapter 10.02 as adopted")[1].split("</section>")[0]
    assert "<strong>24</strong>" in differences and "<strong>6000</strong>" in differences
    assert "Fees delinquent" not in differences


def test_the_list_says_which_version_was_in_force_on_a_day(town, manager, today):
    services.ruleset_version_create(
        acting_user=manager,
        effective_from=dt.date(2027, 1, 1),
        label="Resolution 2026-41",
        values={},
        **ADOPTION,
    )
    client = client_as(town.users[Role.BILLING_CLERK])
    assert "On Friday, January 1, 2027: <a" in client.get("/program/rulesets/?on=2027-01-01").content.decode()
    page = client.get("/program/rulesets/?on=2026-12-31").content.decode()
    assert "Chapter 10.02 as adopted (Ord. No. 564" in page.split("On Thursday, December 31, 2026:")[1][:200]
    assert "Give the date as YYYY-MM-DD" in client.get("/program/rulesets/?on=31/12/2026").content.decode()


def test_the_ruleset_list_takes_the_same_queries_whatever_its_length(town, manager, today):
    added = iter(range(30))

    def add_rows(count):
        RulesetVersion.objects.bulk_create(
            [
                RulesetVersion(
                    effective_from=dt.date(2030, 1, 1) + dt.timedelta(days=i),
                    label=f"Version {i}",
                    values={"penalty_cap_per_sso": str(Decimal(5000 + i))},
                    created_by=manager,
                )
                for i in [next(added) for _ in range(count)]
            ]
        )

    url = "/program/rulesets/"
    # Session, user, Town profile and the page's own reads: the same for 3 versions and 30.
    responses = assert_queries_do_not_grow(client_as(manager), add_rows, {url: 7}, small=3, large=30)
    for rows, response in zip((3, 30), responses[url], strict=True):
        assert response.content.decode().count("Version ") >= rows
