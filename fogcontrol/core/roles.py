"""The program's roles. A user (fogcontrol.accounts.models.User) has exactly one; outside users are
bound to their own records. Every app checks them (fogcontrol.core.permissions), so they live here."""

from django.db import models


class Role(models.TextChoices):
    FOG_MANAGER = "fog_manager", "FOG Manager"
    INSPECTOR = "inspector", "Inspector (authorised enforcement officer)"
    HEARING_OFFICER = "hearing_officer", "Hearing Officer"
    BILLING_CLERK = "billing_clerk", "Billing Clerk"
    STAFF_READONLY = "staff_readonly", "Staff (read only)"
    FSE = "fse", "Food service establishment"
    PROPERTY_OWNER = "property_owner", "Property owner"
    HAULER = "hauler", "Grease hauler"


# Town staff see the whole program; the others see only the records they are bound to.
STAFF_ROLES = frozenset(
    {Role.FOG_MANAGER, Role.INSPECTOR, Role.HEARING_OFFICER, Role.BILLING_CLERK, Role.STAFF_READONLY}
)
OUTSIDE_ROLES = frozenset({Role.FSE, Role.PROPERTY_OWNER, Role.HAULER})
# Who may change the registry (establishments, devices, parcels, haulers).
REGISTRY_EDITORS = frozenset({Role.FOG_MANAGER, Role.INSPECTOR})
