"""Rows for the registry's query-count tests: every relation the lists show, visible to one user."""

from fogcontrol.core.roles import Role
from fogcontrol.testing import factories


def add_registry_rows(town, count: int, *, bound_user) -> None:
    """`count` more FSEs, each on its own parcel with its own device, a shared interceptor per pair,
    a hauler with vehicles, a contact and a receiving facility. The FSEs are bound to `bound_user`
    when it is an FSE user, and their parcels are owned by it when it is a property owner, so the
    outside user's lists grow too."""
    for number in range(count):
        hauler = factories.HaulerCompanyFactory()
        factories.HaulerVehicleFactory.create_batch(2, hauler=hauler)
        fse = factories.EstablishmentFactory(contact=factories.PartyFactory())
        if bound_user.role == Role.FSE:
            fse.users.add(bound_user)
        if bound_user.role == Role.PROPERTY_OWNER:
            fse.parcel.owner_users.add(bound_user)
        if bound_user.role == Role.HAULER:
            hauler.users.add(bound_user)
        fse.haulers.add(hauler, town.hauler)
        factories.DeviceFactory(establishments=[fse], parcel=fse.parcel)
        if number % 2:
            neighbour = factories.EstablishmentFactory(parcel=fse.parcel)
            factories.DeviceFactory(establishments=[fse, neighbour], parcel=fse.parcel)
        factories.ReceivingFacilityFactory()
