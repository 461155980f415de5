"""The demo logins: one user per role, all with the same documented password.

The README and `make run` print the table `logins_table()` makes, so that anyone trying the demo
can sign in as each role and see what it sees.
"""

from __future__ import annotations

import dataclasses

from django.contrib.auth.hashers import make_password
from django.db import transaction

from fogcontrol.accounts.models import User
from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.roles import Role

DEMO_PASSWORD = "fogdemo-2026"
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
    DemoLogin("hearing", Role.HEARING_OFFICER, "Judith", "Okafor", "the whole program, read only"),
    DemoLogin("billing", Role.BILLING_CLERK, "Priya", "Raman", "the whole program, read only"),
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
        users[login.username] = user
    return users


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
    return "\n".join(lines)
