"""Registry writes: validation with clear messages, the A2 and A4 rules, and the audit trail."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from fogcontrol.audit.models import AuditEntry
from fogcontrol.audit.selectors import audit_entries_for
from fogcontrol.core.roles import Role
from fogcontrol.registry import services
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogcontrol.registry.selectors import device_detail, responsibility_for
from fogcontrol.testing import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager():
    return factories.UserFactory(role=Role.FOG_MANAGER)


@pytest.mark.provision("A1")
def test_a1_establishment_keeps_the_licence_business_name_and_refuses_a_second_licence(manager):
    parcel = factories.ParcelFactory()
    fse = services.establishment_create(
        acting_user=manager,
        business_name="  Mama Rosa's Trattoria, LLC",
        licence_number="BL-1001",
        site_address="12 Main St",
        parcel=parcel,
    )
    assert fse.business_name == "  Mama Rosa's Trattoria, LLC"  # exactly as in the licence records
    with pytest.raises(ValidationError) as refused:
        services.establishment_create(
            acting_user=manager, business_name="Other", licence_number="BL-1001", site_address="14 Main St"
        )
    assert "licence_number" in refused.value.message_dict


def test_missing_required_fields_are_named(manager):
    with pytest.raises(ValidationError) as refused:
        services.establishment_create(
            acting_user=manager, business_name="", licence_number="", site_address=""
        )
    assert {"business_name", "licence_number", "site_address"} <= set(refused.value.message_dict)
    assert FoodServiceEstablishment.objects.count() == 0


def test_every_registry_write_is_audited_with_before_and_after(manager):
    fse = services.establishment_create(
        acting_user=manager, business_name="Pho 88", licence_number="BL-2001", site_address="88 Elm St"
    )
    services.establishment_update(establishment=fse, acting_user=manager, employees=14)
    entries = list(audit_entries_for(fse))
    assert [e.action for e in entries] == ["establishment.update", "establishment.create"]
    update = entries[0]
    assert update.actor == manager
    assert update.before["employees"] is None and update.after["employees"] == 14
    assert ("employees", None, 14) in update.changed_fields()


def test_an_update_that_changes_nothing_leaves_no_entry(manager):
    fse = factories.EstablishmentFactory()
    services.establishment_update(establishment=fse, acting_user=manager, business_name=fse.business_name)
    assert AuditEntry.objects.count() == 0


def test_closing_an_establishment_keeps_it_and_its_devices(manager):
    fse = factories.EstablishmentFactory()
    device = factories.DeviceFactory(establishments=[fse])
    services.establishment_close(establishment=fse, acting_user=manager)
    fse.refresh_from_db()
    assert fse.status == FoodServiceEstablishment.Status.CLOSED
    assert fse.closed_on is not None
    assert list(fse.devices.all()) == [device]


@pytest.mark.parametrize(
    "role", [Role.STAFF_READONLY, Role.BILLING_CLERK, Role.FSE, Role.HAULER, Role.PROPERTY_OWNER]
)
def test_only_registry_editors_may_write(role):
    user = factories.UserFactory(role=role)
    with pytest.raises(PermissionDenied):
        services.establishment_create(
            acting_user=user, business_name="X", licence_number="BL-9", site_address="1 A St"
        )


@pytest.mark.provision("A4")
def test_a4_an_interceptor_with_one_compartment_and_a_small_manhole_is_stored_and_flagged(manager):
    device = services.device_create(
        acting_user=manager,
        identifier="GI-0001",
        kind=GreaseControlDevice.Kind.GRAVITY_INTERCEPTOR,
        capacity_gallons=750,
        total_design_depth_in=Decimal("42"),
        compartments=1,
        manhole_diameter_in=Decimal("18"),
    )
    device.refresh_from_db()
    assert len(device.a4_flags) == 2
    assert any("1 compartment" in flag and "at least 2" in flag for flag in device.a4_flags)
    assert any("18" in flag and "at least 20 in" in flag for flag in device.a4_flags)


@pytest.mark.provision("A4")
def test_a4_flags_clear_when_the_device_is_corrected(manager):
    device = services.device_create(
        acting_user=manager,
        identifier="GI-0002",
        kind="gravity_interceptor",
        compartments=1,
        manhole_diameter_in=24,
    )
    services.device_update(device=device, acting_user=manager, compartments=2)
    device.refresh_from_db()
    assert device.a4_flags == []


@pytest.mark.provision("A4")
def test_a4_does_not_apply_to_grease_traps(manager):
    device = services.device_create(
        acting_user=manager, identifier="GT-0001", kind="hydromechanical_interceptor", rated_flow_gpm=35
    )
    assert device.a4_flags == []


def test_device_depth_must_be_positive(manager):
    with pytest.raises(ValidationError) as refused:
        services.device_create(
            acting_user=manager,
            identifier="GI-0003",
            kind="gravity_interceptor",
            total_design_depth_in=Decimal("-4"),
        )
    assert "total_design_depth_in" in refused.value.message_dict


@pytest.mark.provision("A2")
def test_a2_a_device_serving_several_fses_on_one_parcel_is_the_property_owners(town):
    device = device_detail(town.users[Role.FOG_MANAGER], town.shared_device.pk)
    responsibility = responsibility_for(device)
    assert responsibility.responsible == "property_owner"
    assert not responsibility.needs_review
    assert "A2" in responsibility.explanation.provisions


@pytest.mark.provision("A2")
def test_a2_a_device_serving_one_fse_is_that_fses(town):
    device = device_detail(town.users[Role.FOG_MANAGER], town.own_device.pk)
    assert responsibility_for(device).responsible == "fse"


@pytest.mark.provision("A2")
def test_a2_a_device_serving_fses_on_different_parcels_goes_to_review(town):
    device = factories.DeviceFactory(establishments=[town.own_fse, town.other_fse])
    responsibility = responsibility_for(device_detail(town.users[Role.FOG_MANAGER], device.pk))
    assert responsibility.responsible == "property_owner"
    assert responsibility.needs_review


def test_closing_a_closed_establishment_is_refused_and_keeps_the_closing_date(manager):
    from fogcontrol.core.errors import StateConflict

    fse = factories.EstablishmentFactory()
    services.establishment_close(establishment=fse, acting_user=manager, closed_on=dt.date(2026, 3, 1))
    with pytest.raises(StateConflict, match="already closed"):
        services.establishment_close(establishment=fse, acting_user=manager, closed_on=dt.date(2026, 5, 1))
    fse.refresh_from_db()
    assert fse.closed_on == dt.date(2026, 3, 1)


def test_closing_is_denied_to_a_role_that_never_edits_the_registry_even_when_already_closed(manager):
    """The role is refused first (403), as establishment_actions says, not the closed state (409)."""
    from fogcontrol.registry.actions import establishment_actions

    fse = factories.EstablishmentFactory()
    services.establishment_close(establishment=fse, acting_user=manager, closed_on=dt.date(2026, 3, 1))
    clerk = factories.UserFactory(role=Role.BILLING_CLERK)
    verdict = establishment_actions(clerk, fse)["close"]
    assert not verdict and verdict.reason == "Only the FOG Manager and inspectors may change the registry."
    with pytest.raises(PermissionDenied, match="Only the FOG Manager and inspectors"):
        services.establishment_close(establishment=fse, acting_user=clerk)
