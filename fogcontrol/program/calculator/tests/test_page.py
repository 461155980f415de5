"""The rules calculator page (/rules/): what staff see, with and without htmx.

Without JavaScript each form is a plain GET that reloads the page with its answer; with htmx
(the HX-Request header) only the form's card comes back. Outside users are told the page does not
exist; anonymous visitors are sent to sign in.
"""

import datetime as dt
import re

import pytest

from fogcontrol.core.roles import OUTSIDE_ROLES, STAFF_ROLES, Role
from fogcontrol.program.models import RulesetVersion
from fogcontrol.program.selectors import town_today
from fogcontrol.rules.deadlines import DEADLINE_RULES

pytestmark = pytest.mark.django_db

PAGE = "/rules/"
ROW = "/rules/observation-row/"
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def staff(client, town):
    client.force_login(town.users[Role.HEARING_OFFICER])
    return client


def text(response) -> str:
    """The page as a reader sees it: tags dropped, whitespace collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


# --- who may open it ---------------------------------------------------------------------------


@pytest.mark.parametrize("role", sorted(STAFF_ROLES))
def test_staff_open_the_calculator(client, town, role):
    client.force_login(town.users[role])

    assert client.get(PAGE).status_code == 200
    assert client.get(ROW).status_code == 200


@pytest.mark.parametrize("role", sorted(OUTSIDE_ROLES))
def test_outside_users_open_the_calculator_too(client, town, role):
    """The rules are public law, and the rules API answers every signed-in user: the page does too
    (issue #9; this test asserted a 404 before that decision)."""
    client.force_login(town.users[role])

    assert client.get(PAGE).status_code == 200
    assert client.get(f"{PAGE}?provision=L2&start=2026-06-18").status_code == 200
    assert client.get(ROW).status_code == 200


def test_anonymous_visitors_are_sent_to_sign_in(client, db):
    response = client.get(PAGE)

    assert response.status_code == 302
    assert response["Location"].startswith("/login/")


def test_the_page_only_answers_get(staff):
    assert staff.post(PAGE, {"provision": "L2", "start": "2026-06-18"}).status_code == 405


# --- the deadline calculator -------------------------------------------------------------------


def test_the_blank_page_offers_every_rule_by_section_and_starts_today(staff):
    response = staff.get(PAGE)

    html = response.content.decode()
    for slug in DEADLINE_RULES:
        assert f'<option value="{slug}"' in html
    assert '<optgroup label="L. Suspension and revocation (10.02.260)">' in html
    assert "start: date the notice was mailed" in html
    assert f'value="{town_today():%Y-%m-%d}"' in html
    assert 'id="deadline-result"' not in html


@pytest.mark.provision("L2")
def test_L2_window_on_the_page_shows_the_dates_and_the_full_explanation(staff):
    response = staff.get(PAGE, {"provision": "L2", "start": "2026-06-18"})

    page = text(response)
    assert response.status_code == 200
    assert "<html" in response.content.decode()  # without htmx: the whole page
    assert "Earliest day (the floor: never moves earlier) Friday, July 3, 2026" in page
    assert "First business day in the window Monday, July 6, 2026" in page
    # Day 45 is Sunday, August 2: the Town's maximum never moves later (Counting days, revised).
    assert "Latest day the Town may use Friday, July 31, 2026" in page
    assert "the last business day before it; the Town's maximum never moves later" in page
    assert "Friday, July 3, 2026 is a Town holiday: Independence Day (observed)" in page
    assert (
        "The hearing may be set on any business day from Monday, July 6, 2026 to Friday, July 31, 2026."
        in page
    )
    assert "Chapter 10.02 as adopted" in page


@pytest.mark.provision("L2")
def test_an_htmx_request_gets_only_the_deadline_card(staff):
    response = staff.get(PAGE, {"provision": "L2", "start": "2026-06-18"}, **HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert html.strip().startswith('<section id="deadline-card"')
    assert 'id="frequency-card"' not in html
    assert "Friday, July 31, 2026" in html


@pytest.mark.provision("Q1")
def test_the_page_names_the_ruleset_version_in_force_on_the_start_date(staff):
    version = RulesetVersion.objects.create(
        effective_from=dt.date(2026, 7, 1), label="Fee amendment 2026", values={"fee_delinquency_days": 30}
    )

    before = text(staff.get(PAGE, {"provision": "Q1", "start": "2026-06-30"}, **HTMX))
    after = staff.get(PAGE, {"provision": "Q1", "start": "2026-07-01"}, **HTMX)

    assert "Due Friday, August 14, 2026" in before
    assert "Chapter 10.02 as adopted" in before
    assert "Due Friday, July 31, 2026" in text(after)
    assert f'<a href="/program/rulesets/{version.pk}/">Fee amendment 2026</a>' in after.content.decode()


@pytest.mark.parametrize(
    "query, says",
    [
        ({"provision": "L2", "start": "2026-02-30"}, "Not a date on the calendar"),
        ({"provision": "L2", "start": ""}, "Give the start date"),
        ({"provision": "L2", "start": "1850-06-01"}, "Give a date between 1900-01-01 and 2199-12-31"),
        ({"provision": "", "start": "2026-06-18"}, "Choose the rule to count."),
        ({"provision": "Z9", "start": "2026-06-18"}, "Choose one of the rules in the list."),
    ],
    ids=["impossible date", "no date", "too early", "no rule", "unknown rule"],
)
def test_bad_deadline_input_is_explained_beside_the_field_and_kept(staff, query, says):
    response = staff.get(PAGE, query, **HTMX)

    html = response.content.decode()
    assert response.status_code == 200  # so that htmx swaps the card in
    assert f'<p class="field-error">{says}' in html
    assert 'id="deadline-result"' not in html
    assert f'value="{query["start"]}"' in html or not query["start"]


# --- the frequency calculator ------------------------------------------------------------------


def frequency_query(rows, kind="gravity_interceptor", total="48"):
    return {
        "device_kind": kind,
        "total_depth_in": total,
        "days_since_pumpout": [row[0] for row in rows],
        "fog_depth_in": [row[1] for row in rows],
        "solids_depth_in": [row[2] for row in rows],
    }


@pytest.mark.provision("E1")
def test_E1_E4_the_frequency_card_recommends_from_the_rows_and_ignores_blank_ones(staff):
    rows = [("30", "1", "2"), ("60", "2", "4"), ("", "", ""), ("90", "3", "6")]

    response = staff.get(PAGE, frequency_query(rows), **HTMX)

    page = text(response)
    assert response.content.decode().strip().startswith('<section id="frequency-card"')
    assert "Recommended: every 120 days" in page  # 25.0% at 120 days: the limit, not over it (E3)
    assert "18.8% full" in page
    assert "within the 25.0% limit" in page
    assert "3 usable observations" in page
    assert "120 days (recommended)" in page
    assert "Recommended: every 120 calendar days, the longest supported frequency within the limit." in page
    assert "with a safety margin of 1.25" in page and "would be every 90 calendar days" in page


@pytest.mark.provision("E3")
def test_E3_a_reading_deeper_than_the_device_is_refused_beside_the_row(staff):
    response = staff.get(PAGE, frequency_query([("30", "1", "2"), ("60", "20", "30")]), **HTMX)

    html = response.content.decode()
    assert "FOG + solids (50 in) is deeper than the device&#x27;s total design depth (48 in)" in html
    assert 'id="frequency-result"' not in html
    assert 'value="30"' in html  # what was typed is kept


@pytest.mark.parametrize(
    "query, says",
    [
        (frequency_query([("30", "-1", "2")]), "A depth cannot be negative"),
        (frequency_query([("0", "1", "2")]), "Give 1 or more days."),
        (frequency_query([("30", "1", "")]), "Give the depth in inches (0 if none)."),
        (
            frequency_query([("30", "1", "2")], total="0"),
            "The total design depth must be more than 0 inches.",
        ),
        (frequency_query([("30", "1", "2")], kind="septic"), "Choose a kind in the list."),
    ],
    ids=["negative depth", "zero days", "half-filled row", "zero total depth", "unknown kind"],
)
def test_bad_frequency_input_is_explained_on_the_page(staff, query, says):
    response = staff.get(PAGE, query, **HTMX)

    assert response.status_code == 200
    assert f'<p class="field-error">{says}' in response.content.decode()
    assert 'id="frequency-result"' not in response.content.decode()


def test_add_a_row_with_htmx_returns_one_blank_row(staff):
    response = staff.get(ROW, **HTMX)

    html = response.content.decode().strip()
    assert html.startswith("<tr>") and html.endswith("</tr>")
    assert html.count('name="days_since_pumpout"') == 1


def test_add_a_row_without_javascript_reloads_the_form_one_row_longer_without_judging_it(staff):
    query = frequency_query([("30", "1", "2"), ("60", "2", "4"), ("90", "3", "6")]) | {"add_row": "1"}

    response = staff.get(PAGE, query)

    html = response.content.decode()
    assert html.count('name="days_since_pumpout"') == 4
    assert 'value="90"' in html
    assert 'id="frequency-result"' not in html
    assert "field-error" not in html


# --- the penalty calculator --------------------------------------------------------------------


@pytest.mark.provision("P7")
def test_P7_the_penalty_card_shows_the_cap_and_the_factors_to_weigh(staff):
    response = staff.get(PAGE, {"violation_kind": "maintenance", "days": "10"}, **HTMX)

    page = text(response)
    assert response.content.decode().strip().startswith('<section id="penalty-card"')
    assert "Cap: $30,000.00" in page
    assert "$3,000.00 × 10" in page
    assert "corrective action attempted or taken" in page
    assert "Each day is a separate offence (P3): 10 days." in page


@pytest.mark.provision("P7")
def test_P7_an_sso_under_an_order_without_javascript(staff):
    response = staff.get(PAGE, {"violation_kind": "sso", "occurrences": "2", "under_order": "on"})

    assert "<html" in response.content.decode()
    assert "Cap: $20,000.00" in text(response)


@pytest.mark.provision("P10")
def test_P10_judicial_recovery_leaves_no_administrative_penalty(staff):
    response = staff.get(
        PAGE, {"violation_kind": "records", "days": "4", "judicially_recovered": "on"}, **HTMX
    )

    assert "Cap: $0.00" in text(response)


@pytest.mark.parametrize(
    "query, says",
    [
        ({"violation_kind": "maintenance", "days": "0"}, "Give 1 or more days."),
        ({"violation_kind": "maintenance", "days": ""}, "Give the number of days the violation continued"),
        ({"violation_kind": "sso", "days": "3"}, "Leave the days empty"),
        (
            {"violation_kind": "records", "days": "3", "under_order": "on"},
            "Being under an order raises only the SSO cap",
        ),
        ({"violation_kind": "theft", "days": "3"}, "Choose a violation in the list."),
    ],
    ids=["zero days", "no days", "days for an SSO", "order for a per-day violation", "unknown violation"],
)
def test_bad_penalty_input_is_explained_beside_the_field(staff, query, says):
    response = staff.get(PAGE, query, **HTMX)

    assert response.status_code == 200
    assert f'<p class="field-error">{says}' in response.content.decode()
    assert 'id="penalty-result"' not in response.content.decode()


def test_the_page_takes_a_fixed_number_of_queries(staff, django_assert_num_queries):
    # Session and user, the Town profile, the ruleset version; each kind of answer adds its own
    # reads, the same for 3 observations and for 30.
    queries = [
        ({}, 4),
        ({"provision": "L2", "start": "2026-06-18"}, 6),
        (frequency_query([("30", "1", "2")] * 3), 5),
        (frequency_query([("30", "1", "2")] * 30), 5),
        ({"violation_kind": "maintenance", "days": "10"}, 5),
    ]
    for query, expected in queries:
        with django_assert_num_queries(expected):
            assert staff.get(PAGE, query).status_code == 200
