"""Factories for tests: realistic records with the fewest fields a test must name."""

import datetime as dt
from decimal import Decimal

import factory
from factory.django import DjangoModelFactory

from fogcontrol.accounts.models import User
from fogcontrol.core.roles import Role
from fogcontrol.registry.models import (
    FoodServiceEstablishment,
    GreaseControlDevice,
    HaulerCompany,
    HaulerVehicle,
    Parcel,
    Party,
    ReceivingFacility,
)


class UserFactory(DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    first_name = factory.Faker("first_name")
    last_name = factory.Faker("last_name")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    role = Role.STAFF_READONLY
    password = factory.PostGenerationMethodCall("set_password", "correct horse battery")

    @factory.post_generation
    def save_password(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class PartyFactory(DjangoModelFactory):
    class Meta:
        model = Party

    name = factory.Faker("company")
    email = factory.Faker("company_email")
    phone = "(650) 555-0100"
    mailing_address_line1 = factory.Faker("street_address")
    mailing_city = "Los Robles"
    mailing_postal_code = "94022"


class ParcelFactory(DjangoModelFactory):
    class Meta:
        model = Parcel

    apn = factory.Sequence(lambda n: f"175-{n // 100:02d}-{n % 100:03d}")
    situs_address = factory.Sequence(lambda n: f"{100 + n} Main Street")
    city = "Los Robles"
    postal_code = "94022"
    owner = factory.SubFactory(PartyFactory)


class HaulerCompanyFactory(DjangoModelFactory):
    class Meta:
        model = HaulerCompany

    name = factory.Sequence(lambda n: f"Bay Grease Services {n}")
    state_registration_number = factory.Sequence(lambda n: f"LWH-{4000 + n}")
    phone = "(408) 555-0142"


class HaulerVehicleFactory(DjangoModelFactory):
    class Meta:
        model = HaulerVehicle

    hauler = factory.SubFactory(HaulerCompanyFactory)
    plate = factory.Sequence(lambda n: f"8T{n:05d}")
    tank_capacity_gallons = 3000


class ReceivingFacilityFactory(DjangoModelFactory):
    class Meta:
        model = ReceivingFacility

    name = factory.Sequence(lambda n: f"Regional Digester {n}")
    permit_number = factory.Sequence(lambda n: f"WDR-{n:04d}")


class EstablishmentFactory(DjangoModelFactory):
    class Meta:
        model = FoodServiceEstablishment

    business_name = factory.Sequence(lambda n: f"Taqueria El Sol {n}")
    licence_number = factory.Sequence(lambda n: f"BL-{20000 + n}")
    licence_expires_on = dt.date(2027, 6, 30)
    site_address = factory.Sequence(lambda n: f"{200 + n} El Camino Real")
    parcel = factory.SubFactory(ParcelFactory)
    operator = factory.SubFactory(PartyFactory)
    category = FoodServiceEstablishment.Category.FULL_SERVICE
    food_types = "Mexican; fried foods"
    meals_per_day = 250
    dining_capacity = 60
    employees = 12


class DeviceFactory(DjangoModelFactory):
    class Meta:
        model = GreaseControlDevice
        skip_postgeneration_save = True

    identifier = factory.Sequence(lambda n: f"GI-{n:05d}")
    kind = GreaseControlDevice.Kind.GRAVITY_INTERCEPTOR
    capacity_gallons = 1000
    total_design_depth_in = Decimal("48.00")
    compartments = 2
    manhole_diameter_in = Decimal("24.0")
    installed_on = dt.date(2015, 5, 1)

    @factory.post_generation
    def establishments(obj, create, extracted, **kwargs):
        if create and extracted:
            obj.establishments.set(extracted)
