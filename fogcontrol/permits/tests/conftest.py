"""Fixtures for the permits tests: a Town profile with its contacts, a fee schedule, ready applications."""

import datetime as dt

import pytest

from fogcontrol.core.roles import Role
from fogcontrol.permits import services
from fogcontrol.permits.tests.factories import fee_schedule
from fogcontrol.program.selectors import town_profile, town_today

B3_ANSWERS = {
    "applicant_name": "Blue Plate Diner LLC",
    "applicant_address": "12 Main Street\nLos Robles, CA 94022",
    "applicant_email": "owner@blueplate.example",
    "wastewater_volume_gpd": 900,
    "wastewater_type": "Dishwashing, food preparation and mopping",
    "food_preparation_hours": "06:00-14:00",
    "cleaning_hours": "14:00-15:00",
    "food_preparation_description": "Breakfast and lunch: griddle, fryer, soups",
    "food_types": "American diner; fried foods",
    "meals_per_day": 300,
    "clean_up_procedures": "Dry wipe, scrape to bin, three-compartment sink wash",
    "dining_capacity": 60,
    "employees": 12,
    "kitchen_size_sqft": 600,
}
FIXTURES = [
    {
        "kind": "sink_three_compartment",
        "count": 1,
        "compartments": 3,
        "compartment_length_in": "24",
        "compartment_width_in": "24",
        "compartment_depth_in": "14",
    },
    {"kind": "floor_drain", "count": 2},
    {"kind": "hand_sink", "count": 1, "drains_to_device": False},
    {"kind": "fryer", "count": 2},
]


@pytest.fixture
def profile(db):
    profile = town_profile()
    profile.name = "Town of Los Robles"
    profile.wastewater_division_phone = "(650) 555-0199"
    profile.after_hours_emergency_phone = "(650) 555-0911"
    profile.fog_manager_name = "Dana Whitfield"
    profile.fog_manager_address = "Town Hall, 1 Civic Center Plaza\nLos Robles, CA 94022"
    profile.fog_manager_email = "fog@losrobles.example"
    profile.save()
    return profile


@pytest.fixture
def fees(db):
    return fee_schedule()


@pytest.fixture
def manager(town):
    return town.users[Role.FOG_MANAGER]


@pytest.fixture
def inspector(town):
    return town.users[Role.INSPECTOR]


@pytest.fixture
def fse_user(town):
    return town.users[Role.FSE]


@pytest.fixture
def draft(town, fse_user, fees, profile):
    """A complete draft for the FSE user's own establishment, ready to submit."""
    return services.application_create(
        acting_user=fse_user, establishment=town.own_fse, fixtures=FIXTURES, **B3_ANSWERS
    )


def pay_fees(application, acting_user):
    """B3: record the payment of the application's fees, as the FOG Manager's staff do at the counter."""
    for fee in application.fees.all():
        services.fee_record_payment(
            charge=fee,
            acting_user=acting_user,
            amount=fee.amount,
            paid_on=town_today(),
            reference=f"R-{fee.pk}",
        )


@pytest.fixture
def accepted_fee_owed(draft, fse_user, manager):
    """Submitted and accepted, with its application fee still owed (B3)."""
    application = services.application_submit(application=draft, acting_user=fse_user)
    return services.application_accept(application=application, acting_user=manager)


@pytest.fixture
def accepted(accepted_fee_owed, manager):
    """Submitted, its fee paid (B3), and accepted: ready to issue."""
    pay_fees(accepted_fee_owed, manager)
    return accepted_fee_owed


@pytest.fixture
def issued(accepted, manager):
    """A permit issued a month ago: in force today, with most of its term to run."""
    return services.permit_issue(
        application=accepted, acting_user=manager, issued_on=town_today() - dt.timedelta(days=30)
    )


@pytest.fixture
def renewal_due(accepted, manager):
    """A permit issued eleven months ago: in force, inside its renewal window (B6)."""
    return services.permit_issue(
        application=accepted, acting_user=manager, issued_on=town_today() - dt.timedelta(days=330)
    )


@pytest.fixture
def issued_2025(accepted, manager):
    """A permit issued on Tuesday, July 1, 2025: its term ends Wednesday, July 1, 2026 (B6)."""
    return services.permit_issue(application=accepted, acting_user=manager, issued_on=dt.date(2025, 7, 1))
