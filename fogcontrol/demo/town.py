"""Builds the Town of Los Robles: profile, holidays, haulers, parcels, FSEs and their devices.

Deterministic: the same seed gives the same names, numbers and links (``random.Random(seed)``; the
only clock is ``town_today()``, for dates relative to today). Every write is audited under the
acting user "seed_demo", so the audit trail shows where the demo data came from: the profile,
calendar, haulers, vehicles and facilities through the program and registry services; the hundreds
of parties, parcels, establishments and devices in bulk (fogcontrol.demo.bulk) with the same
audit entries the registry services write.

What the town holds (for 300 establishments): about 10 multi-tenant parcels (strip malls, food
halls) whose kitchens share one gravity interceptor (A2); most other FSEs with their own
interceptor or grease trap (A3); a few interceptors below the A4 minimums, so the flags show; a few
FSEs with no device on record and a few closed; 4-6 haulers with vehicles and customers (a larger
program also has regional haulers and more trucks, ``_haulers``), and 2-3 receiving facilities.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from collections.abc import Callable
from decimal import Decimal

from django.db import transaction

from fogcontrol.accounts.models import User
from fogcontrol.demo import names
from fogcontrol.demo.bulk import RegistryBatch
from fogcontrol.demo.maker import Maker, slug
from fogcontrol.demo.users import ACTING, create_demo_users
from fogcontrol.program import services as program_services
from fogcontrol.program.models import TownProfile
from fogcontrol.program.selectors import ruleset_on, town_today
from fogcontrol.registry import services as registry
from fogcontrol.registry.models import (
    FoodServiceEstablishment,
    GreaseControlDevice,
    HaulerCompany,
    HaulerVehicle,
    Parcel,
    Party,
    ReceivingFacility,
)
from fogcontrol.rules.ruleset import Ruleset

GRAVITY = GreaseControlDevice.Kind.GRAVITY_INTERCEPTOR
TRAP = GreaseControlDevice.Kind.HYDROMECHANICAL
INTERCEPTOR_GALLONS = (500, 750, 1000, 1250, 1500, 2000, 2500, 3000)
# The sites drawn before their rows are written (fogcontrol.demo.bulk.RegistryBatch.flush): a chunk
# ends with the first site that brings it to CHUNK establishments, so a program of any size holds
# one chunk in memory at a time (issue 16). The demo town (hundreds) is one chunk.
CHUNK = 5_000
QUICK_SERVICE_WORDS = ("Tacos", "Burgers", "Chicken", "Banh Mi", "Teriyaki", "Gyro", "Falafel", "Kabob")


@dataclasses.dataclass
class DemoTown:
    """What the demo created, handed to every seeder of fogcontrol.demo.seeders."""

    seed: int
    today: dt.date
    profile: TownProfile
    users: dict[str, User]
    haulers: list[HaulerCompany] = dataclasses.field(default_factory=list)
    vehicles: list[HaulerVehicle] = dataclasses.field(default_factory=list)
    facilities: list[ReceivingFacility] = dataclasses.field(default_factory=list)
    parties: list[Party] = dataclasses.field(default_factory=list)
    parcels: list[Parcel] = dataclasses.field(default_factory=list)
    shared_parcels: list[Parcel] = dataclasses.field(default_factory=list)
    establishments: list[FoodServiceEstablishment] = dataclasses.field(default_factory=list)
    devices: list[GreaseControlDevice] = dataclasses.field(default_factory=list)
    # The records the outside demo users are bound to.
    fse_establishment: FoodServiceEstablishment | None = None
    owner_parcel: Parcel | None = None
    demo_hauler: HaulerCompany | None = None

    @property
    def active_establishments(self) -> list[FoodServiceEstablishment]:
        return [fse for fse in self.establishments if fse.status == FoodServiceEstablishment.Status.ACTIVE]


# --- the Town itself ----------------------------------------------------------------------------


def _profile(users: dict[str, User]) -> TownProfile:
    manager = users["manager"]
    return program_services.town_profile_update(
        acting_user=ACTING,
        name="Town of Los Robles",
        time_zone="America/Los_Angeles",
        office_hours="Monday to Friday, 8:00 a.m. to 5:00 p.m. (closed Town holidays)",
        wastewater_division_phone="(650) 555-0134",
        after_hours_emergency_phone="(650) 555-0199",
        code_enforcement_phone="(650) 555-0145",
        fog_manager_name=manager.get_full_name(),
        fog_manager_address=(
            "Town of Los Robles\nPublic Works Department, Waste Water Division\n"
            "Attn: FOG Manager\n1 North San Antonio Road\nLos Robles, CA 94022"
        ),
        fog_manager_email="fog@losrobles.example",
        fog_manager_phone="(650) 555-0131",
    )


# A program at scale has a hauler fleet to match (issue 16): about one hauler a 500 FSEs, and enough
# trucks that a hauler's customers fit its trucks' days. The demo town (hundreds of FSEs) keeps its
# 4-6 named haulers with 1-3 trucks each, drawn exactly as before.
FSES_A_HAULER = 500
# About 4.5 pump-outs a device a year over 250 working days, at STOPS_A_DAY stops a truck, with room.
FSES_A_TRUCK = 400


def _haulers(make: Maker, town: DemoTown, establishments: int) -> list[int]:
    """The named haulers (4-6), then regional ones as the program grows; each with its trucks.
    Returns their market-share weights."""
    count = make.rng.randint(4, len(names.HAULERS))
    listed = [(name, weight) for name, weight in names.HAULERS[:count]]
    regional = max(0, establishments // FSES_A_HAULER - count)
    listed += [(f"{names.HAULER_REGIONS[number % len(names.HAULER_REGIONS)]} Grease Service {number // len(names.HAULER_REGIONS) + 1}", make.rng.randint(2, 6)) for number in range(regional)]  # fmt: skip
    total = sum(weight for _, weight in listed)
    weights = []
    for number, (name, weight) in enumerate(listed):
        first, last = make.person()
        # The demo hauler user works for the largest hauler: it always has customers.
        users = [town.users["hauler"]] if number == 0 else []
        hauler = registry.hauler_create(
            acting_user=ACTING,
            users=users,
            name=name,
            state_registration_number=f"LWH-{make.rng.randint(1000, 9999)}",
            licence_number=f"SCC-LW-{make.rng.randint(10000, 99999)}",
            phone=make.phone(),
            email=f"dispatch@{slug(name)}.example",
            address=f"{make.address()}\nSan Jose, CA 951{make.rng.randint(10, 39)}",
        )
        town.haulers.append(hauler)
        weights.append(weight)
        trucks = make.rng.randint(1, 3) + establishments * weight // (total * FSES_A_TRUCK)
        for _ in range(trucks):
            town.vehicles.append(
                registry.vehicle_create(
                    acting_user=ACTING,
                    hauler=hauler,
                    plate=make.plate(),
                    description=f"{make.rng.randint(2012, town.today.year - 1)} {make.rng.choice(names.TRUCKS)}",
                    tank_capacity_gallons=make.rng.choice((2500, 3000, 3500, 4000)),
                )
            )
    town.demo_hauler = town.haulers[0]
    return weights


def _facilities(make: Maker, town: DemoTown) -> None:
    for name, address in names.FACILITIES[: make.rng.randint(2, len(names.FACILITIES))]:
        town.facilities.append(
            registry.facility_create(
                acting_user=ACTING,
                name=name,
                address=address,
                permit_number=f"WDR-R2-{make.rng.randint(2000, 2024)}-{make.rng.randint(1, 999):04d}",
            )
        )


def _owner(make: Maker, batch: RegistryBatch, street: str) -> Party:
    first, last = make.person()
    pattern = make.rng.choice(names.OWNER_PATTERNS)
    name = pattern.format(
        street=street.split()[0],
        last=last,
        last2=make.rng.choice(names.LAST_NAMES),
        kind=make.rng.choice(names.OWNER_KINDS),
    )
    return batch.party(
        kind=Party.Kind.ORGANISATION,
        name=name,
        contact_name=f"{first} {last}",
        email=f"{slug(first)}@{slug(name)}.example",
        phone=make.phone(),
        mailing_address_line1=f"PO Box {make.rng.randint(100, 9999)}",
        mailing_city=make.rng.choice(("Los Robles", "Palo Alto", "San Jose", "Menlo Park")),
        mailing_postal_code=make.rng.choice(("94022", "94301", "95128", "94025")),
    )


def _operator(make: Maker, batch: RegistryBatch, business_name: str, address: str, postal: str) -> Party:
    first, last = make.person()
    if make.rng.random() < 0.3:  # an owner-operator
        return batch.party(
            kind=Party.Kind.PERSON,
            name=f"{first} {last}",
            email=f"{slug(first)}.{slug(last)}@mail.example",
            phone=make.phone(),
            mailing_address_line1=address,
            mailing_city=names.CITY,
            mailing_postal_code=postal,
        )
    suffix = make.rng.choice(("Inc.", "LLC", "Restaurant Group LLC", "Corp."))
    name = f"{business_name} {suffix}" if make.rng.random() < 0.6 else f"{last} {suffix}"
    return batch.party(
        kind=Party.Kind.ORGANISATION,
        name=name,
        contact_name=f"{first} {last}",
        email=f"{slug(first)}@{slug(business_name)}.example",
        phone=make.phone(),
        mailing_address_line1=address,
        mailing_city=names.CITY,
        mailing_postal_code=postal,
    )


def _parcel(
    make: Maker, batch: RegistryBatch, owners: list[Party | int], *, street: str, address: str, owner_users=()
):
    # A quarter of parcels belong to an owner already on record: landlords hold several.
    if owners and make.rng.random() < 0.25:
        owner = make.rng.choice(owners)
    else:
        owner = _owner(make, batch, street)
        owners.append(owner)
    # An owner of an earlier chunk is kept by its id alone (``_next_chunk``).
    return batch.parcel(
        **({"owner_id": owner} if isinstance(owner, int) else {"owner": owner}),
        owner_users=owner_users,
        apn=make.apn(),
        situs_address=address,
        city=names.CITY,
        postal_code=make.rng.choice(names.POSTAL_CODES),
    )


def _establishment(
    make: Maker,
    batch: RegistryBatch,
    today: dt.date,
    *,
    parcel: Parcel,
    site_address: str,
    street: str,
    point: tuple[Decimal, Decimal],
    haulers: list[HaulerCompany],
    closed: bool = False,
    users=(),
) -> FoodServiceEstablishment:
    cuisine = make.cuisine()
    business_name = make.business_name(cuisine, street)
    category = cuisine.category
    if category == "full_service" and any(word in business_name for word in QUICK_SERVICE_WORDS):
        category = FoodServiceEstablishment.Category.QUICK_SERVICE
    meals = make.rng.randint(*cuisine.meals) // 5 * 5
    seats = make.rng.randint(*cuisine.seats) if cuisine.seats[1] else 0
    closed_on = make.day_between(today - dt.timedelta(days=700), today - dt.timedelta(days=20))
    return batch.establishment(
        users=users,
        haulers=haulers,
        business_name=business_name,
        licence_number=make.licence_number(),
        # Licences renew all year round; a few have just lapsed.
        licence_expires_on=today + dt.timedelta(days=make.rng.randint(-20, 345)),
        site_address=site_address,
        parcel=parcel,
        operator=_operator(make, batch, business_name, site_address, parcel.postal_code),
        category=category,
        food_types=cuisine.food_types,
        meals_per_day=meals,
        dining_capacity=seats,
        employees=max(2, meals // make.rng.randint(18, 35)),
        kitchen_size_sqft=max(150, meals * make.rng.randint(2, 5) // 10 * 10),
        food_preparation_hours=make.rng.choice(names.PREP_HOURS),
        cleaning_hours=make.rng.choice(names.CLEANING_HOURS),
        status=FoodServiceEstablishment.Status.CLOSED if closed else FoodServiceEstablishment.Status.ACTIVE,
        closed_on=closed_on if closed else None,
        latitude=point[0],
        longitude=point[1],
    )


class _DeviceNumbers:
    def __init__(self):
        self.counts = {GRAVITY: 0, TRAP: 0}

    def next(self, kind: str) -> str:
        self.counts[kind] += 1
        prefix = "GI" if kind == GRAVITY else "GT"
        return f"{prefix}-{self.counts[kind]:05d}"


def _interceptor(
    make: Maker,
    batch: RegistryBatch,
    today: dt.date,
    ruleset: Ruleset,
    numbers: _DeviceNumbers,
    *,
    parcel: Parcel,
    establishments: list[FoodServiceEstablishment],
    gallons: tuple[int, ...],
    below_a4: bool = False,
    removed: bool = False,
) -> GreaseControlDevice:
    """A gravity grease interceptor (A4); ``below_a4`` gives it one compartment or an 18 in manhole."""
    compartments = make.rng.choice((2, 2, 2, 3))
    manhole = Decimal(make.rng.choice(("24.0", "24.0", "30.0", "36.0")))
    if below_a4:
        fault = make.rng.choice(("compartments", "manhole", "both"))
        if fault in ("compartments", "both"):
            compartments = 1
        if fault in ("manhole", "both"):
            manhole = Decimal("18.0")
    installed = make.day_between(dt.date(1992, 1, 1), today - dt.timedelta(days=120))
    frequencies = [days for days in ruleset.allowed_frequencies_days if days >= 60] or list(
        ruleset.allowed_frequencies_days
    )
    return batch.device(
        ruleset=ruleset,
        establishments=establishments,
        identifier=numbers.next(GRAVITY),
        kind=GRAVITY,
        capacity_gallons=make.rng.choice(gallons),
        total_design_depth_in=Decimal(make.rng.choice(range(36, 73, 6))),
        compartments=compartments,
        manhole_diameter_in=manhole,
        location_description=make.rng.choice(names.INTERCEPTOR_LOCATIONS),
        installed_on=installed,
        building_permit_number=f"B{installed.year}-{make.rng.randint(1, 2999):04d}",
        parcel=parcel,
        # Half keep the E2 default until the FOG Manager sets one from data (E4).
        assigned_frequency_days=make.rng.choice(frequencies) if make.rng.random() < 0.5 else None,
        status=GreaseControlDevice.Status.REMOVED if removed else GreaseControlDevice.Status.ACTIVE,
    )


def _trap(
    make: Maker,
    batch: RegistryBatch,
    today: dt.date,
    ruleset: Ruleset,
    numbers: _DeviceNumbers,
    *,
    parcel: Parcel,
    establishment: FoodServiceEstablishment,
    removed: bool = False,
) -> GreaseControlDevice:
    """A hydromechanical interceptor (grease trap) of 20-100 gpm (A5)."""
    sizes = [gpm for gpm in ruleset.hydromechanical_standard_sizes_gpm if 20 <= gpm <= 100] or [50]
    gpm = make.rng.choice(sizes)
    installed = make.day_between(dt.date(2000, 1, 1), today - dt.timedelta(days=60))
    return batch.device(
        ruleset=ruleset,
        establishments=[establishment],
        identifier=numbers.next(TRAP),
        kind=TRAP,
        rated_flow_gpm=gpm,
        capacity_gallons=max(10, round(gpm * make.rng.uniform(0.8, 1.6))),
        total_design_depth_in=Decimal(make.rng.choice(range(10, 19, 2))),
        location_description=make.rng.choice(names.TRAP_LOCATIONS),
        installed_on=installed,
        parcel=parcel,
        assigned_frequency_days=None,
        status=GreaseControlDevice.Status.REMOVED if removed else GreaseControlDevice.Status.ACTIVE,
    )


def _choose_haulers(make: Maker, town: DemoTown, weights: list[int]) -> list[HaulerCompany]:
    if make.rng.random() < 0.06:
        return []  # pumps with a hauler not yet registered with the Town
    first = make.rng.choices(town.haulers, weights=weights)[0]
    if make.rng.random() < 0.08:
        second = make.rng.choices(town.haulers, weights=weights)[0]
        return [first] if second == first else [first, second]
    return [first]


@dataclasses.dataclass
class _Plan:
    """What every site-making function shares while the town is drawn."""

    make: Maker
    batch: RegistryBatch
    town: DemoTown
    ruleset: Ruleset
    weights: list[int]
    numbers: _DeviceNumbers = dataclasses.field(default_factory=_DeviceNumbers)
    owners: list[Party | int] = dataclasses.field(default_factory=list)
    after_chunk: Callable[[int], None] | None = None


def _next_chunk(plan: _Plan) -> None:
    """Write the sites drawn so far once they make a chunk (``CHUNK``), and let them go.

    Only writes and lets go: the draws go on in the same order, so the rows are those of one
    write. The owners stay drawable (a landlord holds parcels across chunks) by their ids."""
    if len(plan.batch.establishments) < CHUNK:
        return
    plan.batch.flush()
    if not plan.batch.keep:
        plan.owners[:] = [owner if isinstance(owner, int) else owner.pk for owner in plan.owners]
    if plan.after_chunk is not None:
        plan.after_chunk(plan.batch.chunks)


def _shared_sites(plan: _Plan, *, count: int, budget: int) -> int:
    """Strip malls and food halls: several kitchens on one parcel share one interceptor (A2)."""
    make, batch, town, today = plan.make, plan.batch, plan.town, plan.town.today
    made = 0
    for number in range(count):
        site = names.SHARED_SITES[number % len(names.SHARED_SITES)]
        hall = "Hall" in site
        tenants = min(make.rng.randint(4, 7) if hall else make.rng.randint(2, 5), budget - made)
        if tenants < 2:
            break
        street = make.rng.choice(names.STREETS)
        address = make.address(street)
        # The demo owner user is bound to the first site.
        owner_users = [town.users["owner"]] if number == 0 else []
        parcel = _parcel(make, batch, plan.owners, street=street, address=address, owner_users=owner_users)
        if number == 0:
            town.owner_parcel = parcel
        if batch.keep:
            town.shared_parcels.append(parcel)
        # The property owner contracts one hauler for the shared interceptor.
        haulers = [make.rng.choices(town.haulers, weights=plan.weights)[0]]
        lat, lon = make.point()
        kitchens = []
        for suite in range(tenants):
            jitter = Decimal(make.rng.randint(-40, 40)) / Decimal(1_000_000)
            kitchens.append(
                _establishment(
                    make,
                    batch,
                    today,
                    parcel=parcel,
                    site_address=f"{address}, Suite {100 + 10 * (suite + 1)} ({site})",
                    street=street,
                    point=(lat + jitter, lon - jitter),
                    haulers=haulers,
                )
            )
        _interceptor(
            make,
            batch,
            today,
            plan.ruleset,
            plan.numbers,
            parcel=parcel,
            establishments=kitchens,
            gallons=(1500, 2000, 2500, 3000),
        )
        # Some tenants also keep a grease trap under their own sinks.
        for kitchen in kitchens:
            if make.rng.random() < 0.2:
                _trap(make, batch, today, plan.ruleset, plan.numbers, parcel=parcel, establishment=kitchen)
        made += tenants
        _next_chunk(plan)
    return made


def _single_sites(plan: _Plan, *, count: int) -> None:
    """FSEs on their own parcels, most with their own interceptor or grease trap (A3)."""
    make, batch, town, today = plan.make, plan.batch, plan.town, plan.town.today
    interceptors = 0
    for number in range(count):
        street = make.rng.choice(names.STREETS)
        address = make.address(street)
        parcel = _parcel(make, batch, plan.owners, street=street, address=address)
        roll = make.rng.random()
        device_kind = GRAVITY if roll < 0.6 else TRAP if roll < 0.95 else None
        if town.fse_establishment is None and number == count - 1:
            device_kind = GRAVITY  # a small town still gets its demo FSE user an interceptor
        # The demo FSE user is bound to the first FSE with its own interceptor, open for business.
        for_fse_user = town.fse_establishment is None and device_kind == GRAVITY
        closed = not for_fse_user and make.rng.random() < 0.03
        haulers = _choose_haulers(make, town, plan.weights) if device_kind else []
        if for_fse_user and town.haulers[0] not in haulers:
            haulers = [town.haulers[0], *haulers]
        fse = _establishment(
            make,
            batch,
            today,
            parcel=parcel,
            site_address=address,
            street=street,
            point=make.point(),
            haulers=haulers,
            closed=closed,
            users=[town.users["fse"]] if for_fse_user else [],
        )
        if for_fse_user:
            town.fse_establishment = fse
        if device_kind == GRAVITY:
            interceptors += 1
            meals = fse.meals_per_day or 0
            if meals < 200:
                gallons = INTERCEPTOR_GALLONS[:3]
            elif meals < 500:
                gallons = INTERCEPTOR_GALLONS[1:5]
            else:
                gallons = INTERCEPTOR_GALLONS[4:]
            # A few interceptors fall short of A4, so the flags show (at least two in any town).
            below_a4 = not for_fse_user and (make.rng.random() < 0.04 or interceptors in (4, 9))
            _interceptor(
                make,
                batch,
                today,
                plan.ruleset,
                plan.numbers,
                parcel=parcel,
                establishments=[fse],
                gallons=gallons,
                below_a4=below_a4,
                removed=closed and make.rng.random() < 0.5,
            )
        elif device_kind == TRAP:
            _trap(
                make,
                batch,
                today,
                plan.ruleset,
                plan.numbers,
                parcel=parcel,
                establishment=fse,
                removed=closed,
            )
        _next_chunk(plan)


@transaction.atomic
def build_demo_town(
    *, establishments: int, seed: int, keep: bool = True, after_chunk: Callable[[int], None] | None = None
) -> DemoTown:
    """Create the demo town in one transaction: all of it, or nothing.

    With ``keep`` (the demo) the town holds its parties, parcels, establishments and devices for
    the seeders; without (``fogcontrol bench generate``) those lists stay empty and the rows are
    let go a chunk at a time, for the seeders to read back. ``after_chunk(number)`` is called once
    each chunk but the last is written."""
    rng = random.Random(seed)
    users = create_demo_users()
    profile = _profile(users)
    today = town_today()
    for year in range(today.year - 1, today.year + 3):
        program_services.holidays_install_standard(year=year, acting_user=ACTING)
    town = DemoTown(seed=seed, today=today, profile=profile, users=users)
    make = Maker(rng, today)
    weights = _haulers(make, town, establishments)
    _facilities(make, town)
    plan = _Plan(
        make=make,
        batch=RegistryBatch(keep=keep),
        town=town,
        ruleset=ruleset_on(today),
        weights=weights,
        after_chunk=after_chunk,
    )
    # About one multi-tenant site per 30 FSEs; at least one, so the owner user has a parcel.
    site_count = max(1, round(establishments / 30))
    shared = _shared_sites(plan, count=site_count, budget=max(2, establishments // 4))
    _single_sites(plan, count=establishments - shared)
    plan.batch.finish()
    town.parties = plan.batch.written[Party]
    town.parcels = plan.batch.written[Parcel]
    town.establishments = plan.batch.written[FoodServiceEstablishment]
    town.devices = plan.batch.written[GreaseControlDevice]
    return town
