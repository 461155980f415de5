"""The demo logins: one user per role, all with the same documented password.

The README and `make run` print the table `logins_table()` makes, so that anyone trying the demo
can sign in as each role and see what it sees.

Staff sign in with a second factor (docs/security.md). So that the demo works at once, the demo
staff users get an authenticator already set up with one documented key, `DEMO_TOTP_SECRET`:
add it to any authenticator app, or run `fogcontrol demo_code` for the current code. The key is
public, like the password: the demo is for trying the program, never for real records (seed_demo
refuses production).
"""

from __future__ import annotations

import dataclasses
from base64 import b32encode

from django.contrib.auth.hashers import make_password
from django.db import transaction
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from fogcontrol.accounts.models import User
from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.roles import STAFF_ROLES, Role

DEMO_PASSWORD = "fogdemo-2026"
# 20 bytes, the usual length of a TOTP key; base32 for authenticator apps.
DEMO_TOTP_KEY = b"fogcontrol-demo-totp"
DEMO_TOTP_SECRET = b32encode(DEMO_TOTP_KEY).decode()
DEMO_TOTP_NAME = "Demo authenticator"
ACTING = "seed_demo"


@dataclasses.dataclass(frozen=True)
class DemoLogin:
    username: str
    role: str
    first_name: str
    last_name: str
    what: str  # what the user is bound to, or sees


DEMO_LOGINS: tuple[DemoLogin, ...] = (
    DemoLogin(
        "manager", Role.FOG_MANAGER, "Dana", "Whitfield", "the whole program; edits rules and settings"
    ),
    DemoLogin("inspector", Role.INSPECTOR, "Marco", "Reyes", "the whole program; edits the registry"),
    DemoLogin(
        "hearing",
        Role.HEARING_OFFICER,
        "Judith",
        "Okafor",
        "the whole program; hearings, decisions, penalty orders",
    ),
    DemoLogin(
        "billing", Role.BILLING_CLERK, "Priya", "Raman", "the whole program; invoices, payments, holds, liens"
    ),
    DemoLogin("viewer", Role.STAFF_READONLY, "Sam", "Lindqvist", "the whole program, read only"),
    DemoLogin("fse", Role.FSE, "Elena", "Castillo", "one food service establishment"),
    DemoLogin("owner", Role.PROPERTY_OWNER, "Robert", "Haddad", "a multi-tenant parcel and its FSEs"),
    DemoLogin("hauler", Role.HAULER, "Luis", "Romero", "a grease hauler and its customers"),
)


def existing_demo_usernames() -> set[str]:
    return set(
        User.objects.filter(username__in=[login.username for login in DEMO_LOGINS]).values_list(
            "username", flat=True
        )
    )


@transaction.atomic
def create_demo_users(*, acting_user=ACTING) -> dict[str, User]:
    """Create the eight demo users (audited). The password is hashed once and shared: hashing is
    deliberately slow, and these accounts are for a demo only."""
    password = make_password(DEMO_PASSWORD)
    users: dict[str, User] = {}
    for login in DEMO_LOGINS:
        user = User.objects.create(
            username=login.username,
            first_name=login.first_name,
            last_name=login.last_name,
            email=f"{login.username}@losrobles.example",
            role=login.role,
            password=password,
        )
        after = snapshot(user)
        after.pop("password", None)  # the audit trail never holds a password hash
        audit_record(
            acting_user=acting_user, action="user.create", instance=user, after=after, note="Demo login"
        )
        if login.role in STAFF_ROLES:
            TOTPDevice.objects.create(user=user, name=DEMO_TOTP_NAME, key=DEMO_TOTP_KEY.hex(), confirmed=True)
            audit_record(
                acting_user=acting_user,
                action="second_factor.enrol",
                instance=user,
                after={"authenticator": DEMO_TOTP_NAME, "backup_codes": 0},
                note="Demo login: authenticator with the documented demo key.",
            )
        users[login.username] = user
    return users


def demo_codes() -> list[tuple[str, str]]:
    """(username, current code) of each demo staff user whose authenticator has the demo key."""
    devices = TOTPDevice.objects.filter(
        name=DEMO_TOTP_NAME,
        key=DEMO_TOTP_KEY.hex(),
        user__username__in=[login.username for login in DEMO_LOGINS],
    ).select_related("user")
    rows = []
    for device in devices:
        generator = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
        rows.append((device.user.username, f"{generator.token():06d}"))
    return sorted(rows)


def _bound_to(user: User | None) -> str:
    if user is None:
        return "(not in this database)"
    if user.role == Role.FSE:
        names = [fse.business_name for fse in user.establishments.all()]
    elif user.role == Role.PROPERTY_OWNER:
        names = [parcel.situs_address for parcel in user.owned_parcels.all()]
    elif user.role == Role.HAULER:
        names = [hauler.name for hauler in user.hauler_companies.all()]
    else:
        return ""
    return "; ".join(names) if names else "(no records bound)"


def logins_table() -> str:
    """The demo logins as a plain-text table: username, password, role, what each sees."""
    users = {
        user.username: user
        for user in User.objects.filter(
            username__in=[login.username for login in DEMO_LOGINS]
        ).prefetch_related("establishments", "owned_parcels", "hauler_companies")
    }
    rows = [("Username", "Password", "Role", "Sees")]
    for login in DEMO_LOGINS:
        user = users.get(login.username)
        bound = _bound_to(user)
        sees = f"{login.what}: {bound}" if bound else login.what
        rows.append((login.username, DEMO_PASSWORD, Role(login.role).label, sees))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = []
    for number, row in enumerate(rows):
        lines.append("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:3])) + "  " + row[3])
        if number == 0:
            lines.append("  ".join("-" * width for width in widths) + "  " + "-" * 4)
    lines += [
        "",
        "Staff (manager, inspector, hearing, billing, viewer) also give a code from an authenticator app:",
        f"add the demo key {DEMO_TOTP_SECRET} (time-based, 6 digits, 30 s) to any authenticator app,",
        "or run `.venv/bin/fogcontrol demo_code` for the current code of each demo staff user.",
    ]
    return "\n".join(lines)
