"""`fogcontrol seed_demo`: a deterministic, realistic demo town, safe to run again, one login per role."""

import datetime as dt
import re
import sys
from base64 import b32decode
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from django.test import Client
from django_otp.oath import totp

from conftest import api_as
from fogcontrol.accounts.models import User
from fogcontrol.audit.models import AuditEntry
from fogcontrol.demo import names
from fogcontrol.demo.run import seed_demo
from fogcontrol.demo.seeders import DEMO_SEEDERS, load_seeder, run_seeders
from fogcontrol.demo.users import DEMO_LOGINS, DEMO_PASSWORD, DEMO_TOTP_SECRET
from fogcontrol.program.selectors import town_profile
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice, HaulerCompany, Parcel
from fogcontrol.registry.selectors import devices_visible_to, establishment_list, establishments_visible_to

pytestmark = pytest.mark.django_db

GRAVITY = GreaseControlDevice.Kind.GRAVITY_INTERCEPTOR
TRAP = GreaseControlDevice.Kind.HYDROMECHANICAL


class _Undo(Exception):
    pass


def _town_as_data() -> dict:
    """What a person would compare between two demo towns: names, licences, parcels, devices, links."""
    return {
        "fses": list(
            FoodServiceEstablishment.objects.order_by("licence_number").values_list(
                "business_name",
                "licence_number",
                "site_address",
                "parcel__apn",
                "category",
                "meals_per_day",
                "status",
            )
        ),
        "devices": [
            (
                d.identifier,
                d.kind,
                d.capacity_gallons,
                d.compartments,
                d.a4_flags,
                sorted(f.licence_number for f in d.establishments.all()),
            )
            for d in GreaseControlDevice.objects.prefetch_related("establishments").order_by("identifier")
        ],
        "haulers": list(
            HaulerCompany.objects.order_by("name").values_list("name", "state_registration_number")
        ),
        "fse_user": list(
            User.objects.get(username="fse").establishments.values_list("licence_number", flat=True)
        ),
    }


def _seeded(seed: int, establishments: int = 40) -> dict:
    """Seed inside a savepoint, read the town, and roll it back, so two towns can be compared."""
    try:
        with transaction.atomic():
            seed_demo(establishments=establishments, seed=seed, seeders=[])
            data = _town_as_data()
            raise _Undo
    except _Undo:
        pass
    assert not FoodServiceEstablishment.objects.exists()
    return data


def test_the_same_seed_makes_the_same_town_and_another_seed_another():
    first, again, other = _seeded(7), _seeded(7), _seeded(8)
    assert first == again
    assert len(first["fses"]) == 40
    assert [row[0] for row in first["fses"]] != [row[0] for row in other["fses"]]
    assert [row[1] for row in first["fses"]] != [row[1] for row in other["fses"]]


def test_the_seed_takes_the_same_number_of_queries_for_40_or_160_establishments(
    django_assert_max_num_queries,
):
    # A ceiling, not an exact count (docs/architecture.md, "Queries"): the seeder is a generator, not
    # a list, and it writes in batches, so four times the establishments take a few more INSERTs
    # (192 statements for 40, 197 for 160 on 2026-11-30). The ceiling proves it stays batched.
    for establishments in (40, 160):
        with django_assert_max_num_queries(260):
            _seeded(3, establishments=establishments)


@pytest.fixture
def demo(db, monkeypatch):
    """A 120-FSE demo town: the registry only (the permits and servicing apps test their own seeders)."""
    monkeypatch.setattr("fogcontrol.demo.seeders.DEMO_SEEDERS", [])
    out = StringIO()
    call_command("seed_demo", establishments=120, seed=1, stdout=out)
    return out.getvalue()


def test_the_demo_looks_like_a_real_program(demo):
    profile = town_profile()
    assert profile.name == "Town of Los Robles" and profile.time_zone == "America/Los_Angeles"
    assert profile.after_hours_emergency_phone and profile.wastewater_division_phone
    assert profile.fog_manager_name == "Dana Whitfield" and "Los Robles, CA" in profile.fog_manager_address
    fses = list(FoodServiceEstablishment.objects.all())
    assert len(fses) == 120
    assert len({fse.business_name for fse in fses}) == 120
    assert all(re.fullmatch(r"BL-\d{4}-\d{5}", fse.licence_number) for fse in fses)
    assert all(
        re.fullmatch(r"\d{3}-\d{2}-\d{3}", apn) for apn in Parcel.objects.values_list("apn", flat=True)
    )
    low_lat, high_lat = names.LATITUDE_RANGE
    assert all(
        Decimal(str(low_lat)) - Decimal("0.001") <= fse.latitude <= Decimal(str(high_lat)) + Decimal("0.001")
        for fse in fses
    )
    expiries = {fse.licence_expires_on.month for fse in fses}
    assert len(expiries) >= 10  # licences renew all year round
    assert FoodServiceEstablishment.objects.filter(status="closed").exists()
    assert 4 <= HaulerCompany.objects.count() <= 6
    assert all(hauler.vehicles.exists() for hauler in HaulerCompany.objects.all())
    for device in GreaseControlDevice.objects.filter(kind=GRAVITY):
        assert 500 <= device.capacity_gallons <= 3000 and 36 <= device.total_design_depth_in <= 72
    for device in GreaseControlDevice.objects.filter(kind=TRAP):
        assert 20 <= device.rated_flow_gpm <= 100
    assert "Seeded Town of Los Robles (seed 1)" in demo


@pytest.mark.provision("A2")
def test_a2_multi_tenant_parcels_share_one_interceptor(demo):
    owner_parcel = Parcel.objects.get(owner_users__username="owner")
    kitchens = owner_parcel.establishments.all()
    assert kitchens.count() >= 2
    shared = GreaseControlDevice.objects.get(parcel=owner_parcel, kind=GRAVITY)
    assert set(shared.establishments.all()) == set(kitchens)


@pytest.mark.provision("A4")
def test_a4_a_few_interceptors_break_the_minimums_so_the_flags_show(demo):
    flagged = GreaseControlDevice.objects.exclude(a4_flags=[])
    assert 2 <= flagged.count() <= 12
    for device in flagged:
        assert device.compartments == 1 or device.manhole_diameter_in == Decimal("18.0")
        assert all(flag.startswith("A4:") for flag in device.a4_flags)


def test_every_demo_record_is_audited_under_seed_demo(demo):
    fse = FoodServiceEstablishment.objects.first()
    entry = AuditEntry.objects.get(action="establishment.create", object_id=str(fse.pk))
    assert entry.actor_label == "seed_demo" and entry.after["licence_number"] == fse.licence_number
    device = GreaseControlDevice.objects.exclude(a4_flags=[]).first()
    entry = AuditEntry.objects.get(action="device.create", object_id=str(device.pk))
    assert entry.after["a4_flags"] == device.a4_flags and entry.after["establishments"]
    assert AuditEntry.objects.filter(action="establishment.create").count() == 120
    assert not AuditEntry.objects.filter(after__has_key="password").exists()


def test_each_demo_login_signs_in_with_the_documented_password(demo):
    for login in DEMO_LOGINS:
        assert Client().login(username=login.username, password=DEMO_PASSWORD), login.username
        assert User.objects.get(username=login.username).role == login.role
    for login in DEMO_LOGINS:
        assert login.username in demo
    assert DEMO_PASSWORD in demo


def test_demo_staff_sign_in_with_the_documented_authenticator_key(demo):
    """Staff need a second factor (docs/security.md): the demo gives them the documented key, prints
    it with the logins, and `demo_code` prints the code an app would show."""
    assert DEMO_TOTP_SECRET == "MZXWOY3PNZ2HE33MFVSGK3LPFV2G65DQ" and DEMO_TOTP_SECRET in demo
    out = StringIO()
    call_command("demo_code", stdout=out)
    codes = dict(re.findall(r"^  (\w+)\s+(\d{6})$", out.getvalue(), flags=re.MULTILINE))
    assert sorted(codes) == ["billing", "hearing", "inspector", "manager", "viewer"]
    expected = f"{totp(b32decode(DEMO_TOTP_SECRET)):06d}"
    client = Client()
    client.post("/login/", {"username": "manager", "password": DEMO_PASSWORD})
    assert client.post("/account/two-factor/", {"code": codes["manager"]}).status_code == 302
    assert codes["manager"] in {expected, f"{totp(b32decode(DEMO_TOTP_SECRET), drift=-1):06d}"}
    assert client.get("/registry/establishments/").status_code == 200
    # Outside logins have no second factor: the password is enough.
    fse = Client()
    fse.post("/login/", {"username": "fse", "password": DEMO_PASSWORD})
    assert fse.get("/account/").status_code == 200


def test_each_demo_user_sees_what_its_role_should(demo):
    users = {user.username: user for user in User.objects.all()}
    everything = FoodServiceEstablishment.objects.count()
    for name in ("manager", "inspector", "hearing", "billing", "viewer"):
        assert establishments_visible_to(users[name]).count() == everything
        assert api_as(users[name]).get("/api/v1/program/profile/").status_code == 200
    assert users["manager"].can_edit_registry and users["inspector"].can_edit_registry
    assert not users["viewer"].can_edit_registry
    assert (
        api_as(users["manager"])
        .patch("/api/v1/program/profile/", {"office_hours": "8-5"}, format="json")
        .status_code
        == 200
    )
    assert (
        api_as(users["inspector"])
        .patch("/api/v1/program/profile/", {"office_hours": "x"}, format="json")
        .status_code
        == 403
    )

    # The FSE user: its own establishment, which has its own interceptor, and nothing else.
    own = list(establishment_list(users["fse"]))
    assert len(own) == 1 and own[0].status == "active"
    own_devices = list(devices_visible_to(users["fse"]))
    assert own_devices and all(own[0] in device.establishments.all() for device in own_devices)
    assert any(device.kind == GRAVITY for device in own_devices)

    # The owner: the kitchens of its multi-tenant parcel.
    owned = establishments_visible_to(users["owner"])
    assert owned.count() >= 2 and {fse.parcel.owner_users.get() for fse in owned} == {users["owner"]}

    # The hauler: its company's customers only, the demo FSE among them.
    hauler = users["hauler"].hauler_companies.get()
    customers = establishments_visible_to(users["hauler"])
    assert customers.count() == hauler.customers.count() > 0
    assert own[0] in customers

    for name in ("fse", "owner", "hauler"):
        assert api_as(users[name]).get("/api/v1/program/profile/").status_code == 404


def test_if_empty_adds_nothing_the_second_time_and_still_prints_the_logins(db):
    """With every installed seeder: what `make run` does."""
    first = StringIO()
    call_command("seed_demo", establishments=20, if_empty=True, stdout=first)
    counts = (
        FoodServiceEstablishment.objects.count(),
        GreaseControlDevice.objects.count(),
        AuditEntry.objects.count(),
    )
    second = StringIO()
    call_command("seed_demo", establishments=20, if_empty=True, stdout=second)
    assert (
        FoodServiceEstablishment.objects.count(),
        GreaseControlDevice.objects.count(),
        AuditEntry.objects.count(),
    ) == counts
    assert "Seeded" in first.getvalue() and "left as it is" in second.getvalue()
    for output in (first.getvalue(), second.getvalue()):
        assert "Demo logins:" in output and f"manager    {DEMO_PASSWORD}" in output


def test_without_if_empty_a_database_with_records_is_refused(town):
    with pytest.raises(CommandError, match="already holds 4 food service establishments"):
        call_command("seed_demo", establishments=20, stdout=StringIO())


def test_it_refuses_to_run_in_production_unless_forced(db, settings, monkeypatch):
    monkeypatch.setattr("fogcontrol.demo.seeders.DEMO_SEEDERS", [])
    settings.PRODUCTION = True
    with pytest.raises(CommandError, match="production"):
        call_command("seed_demo", establishments=20, stdout=StringIO())
    assert not FoodServiceEstablishment.objects.exists()
    call_command("seed_demo", establishments=20, force=True, stdout=StringIO())
    assert FoodServiceEstablishment.objects.count() == 20


# --- the seeders hook ---------------------------------------------------------------------------


def test_the_app_seeders_are_listed_and_skipped_while_missing():
    assert DEMO_SEEDERS == [
        "fogcontrol.permits.demo.seed",
        "fogcontrol.servicing.demo.seed",
        "fogcontrol.inspections.demo.seed",
        "fogcontrol.records.demo.seed",
        "fogcontrol.notices.demo.seed",
        "fogcontrol.sampling.demo.seed",
        "fogcontrol.enforcement.demo.seed",
        "fogcontrol.enforcement.demo_orders.seed",
        "fogcontrol.billing.demo.seed",
        "fogcontrol.spills.demo.seed",
        "fogcontrol.messaging.demo.seed",
    ]
    assert load_seeder("fogcontrol.nothing_here.seed") is None


def test_a_seeder_that_exists_is_called_and_a_broken_one_is_not_hidden(tmp_path, monkeypatch):
    (tmp_path / "good_demo_seeder.py").write_text(
        "CALLS = []\ndef seed(*, rng, town, today):\n    CALLS.append((rng.random(), town, today))\n"
    )
    (tmp_path / "broken_demo_seeder.py").write_text("import a_module_that_is_not_installed\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    today = dt.date(2026, 6, 15)
    results = run_seeders(
        seed=1, town="the town", today=today, seeders=["good_demo_seeder.seed", "missing_demo.seed"]
    )
    assert [(path, ran) for path, ran, _ in results] == [
        ("good_demo_seeder.seed", True),
        ("missing_demo.seed", False),
    ]
    calls = sys.modules["good_demo_seeder"].CALLS
    run_seeders(seed=1, town="the town", today=today, seeders=["good_demo_seeder.seed"])
    assert calls[0] == calls[1] and calls[0][1:] == ("the town", today)  # its own, seeded generator
    with pytest.raises(ModuleNotFoundError, match="a_module_that_is_not_installed"):
        run_seeders(seed=1, town="the town", today=today, seeders=["broken_demo_seeder.seed"])
