"""The program's roles. A user (fogcontrol.accounts.models.User) has exactly one; outside users are
bound to their own records. Every app checks them (fogcontrol.core.permissions), so they live here."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    FOG_MANAGER = "fog_manager", _("FOG Manager")
    INSPECTOR = "inspector", _("Inspector (authorised enforcement officer)")
    HEARING_OFFICER = "hearing_officer", _("Hearing Officer")
    BILLING_CLERK = "billing_clerk", _("Billing Clerk")
    STAFF_READONLY = "staff_readonly", _("Staff (read only)")
    FSE = "fse", _("Food service establishment")
    PROPERTY_OWNER = "property_owner", _("Property owner")
    HAULER = "hauler", _("Grease hauler")


# Town staff see the whole program; the others see only the records they are bound to.
STAFF_ROLES = frozenset(
    {Role.FOG_MANAGER, Role.INSPECTOR, Role.HEARING_OFFICER, Role.BILLING_CLERK, Role.STAFF_READONLY}
)
OUTSIDE_ROLES = frozenset({Role.FSE, Role.PROPERTY_OWNER, Role.HAULER})
# Who may change the registry (establishments, devices, parcels, haulers).
REGISTRY_EDITORS = frozenset({Role.FOG_MANAGER, Role.INSPECTOR})
