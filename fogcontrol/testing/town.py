"""The small town every access test starts from: one user per role, each bound to one part of it."""

from __future__ import annotations

import dataclasses

from django.test import override_settings

from fogcontrol.core.roles import Role
from fogcontrol.testing import factories

# Tests create many users; the production hasher's deliberate slowness buys nothing there.
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@dataclasses.dataclass
class SmallTown:
    """Two FSEs on separate parcels, each with its own device, and a third parcel whose two FSEs
    share one interceptor (A2). Each outside user is bound to exactly one part of it.

    `records` holds what an app's access table adds (an application, a manifest, ...), by name."""

    users: dict
    own_fse: object
    other_fse: object
    own_device: object
    other_device: object
    owned_parcel: object
    shared_device: object
    mall_fses: list
    hauler: object
    records: dict = dataclasses.field(default_factory=dict)

    def __getitem__(self, name):
        return self.records[name]


def build_small_town() -> SmallTown:
    with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        users = {role: factories.UserFactory(username=role.value, role=role) for role in Role}
    hauler = factories.HaulerCompanyFactory(name="Peninsula Pumping")
    hauler.users.add(users[Role.HAULER])
    own_fse = factories.EstablishmentFactory(business_name="Blue Plate Diner")
    own_fse.users.add(users[Role.FSE])
    own_fse.haulers.add(hauler)
    other_fse = factories.EstablishmentFactory(business_name="Golden Wok")
    own_device = factories.DeviceFactory(establishments=[own_fse], parcel=own_fse.parcel)
    other_device = factories.DeviceFactory(establishments=[other_fse], parcel=other_fse.parcel)
    owned_parcel = factories.ParcelFactory(situs_address="400 Plaza Way")
    owned_parcel.owner_users.add(users[Role.PROPERTY_OWNER])
    mall_fses = [
        factories.EstablishmentFactory(business_name=name, parcel=owned_parcel)
        for name in ("Plaza Pizza", "Plaza Pho")
    ]
    shared_device = factories.DeviceFactory(
        establishments=mall_fses, parcel=owned_parcel, capacity_gallons=1500
    )
    return SmallTown(
        users=users,
        own_fse=own_fse,
        other_fse=other_fse,
        own_device=own_device,
        other_device=other_device,
        owned_parcel=owned_parcel,
        shared_device=shared_device,
        mall_fses=mall_fses,
        hauler=hauler,
    )
