"""Who may see and change the registry's records (docs/architecture.md, "Who may see what").

Staff see the whole program. An FSE user sees its establishments, their devices and parcels and
the haulers they engaged; a property owner user its parcels, the FSEs on them and their devices;
a hauler user its company and its customers' establishments and devices. Contacts (parties) hold
personal data: staff only. Receiving facilities are public knowledge within the program.
Only the FOG Manager and inspectors change registry records (REGISTRY_EDITORS).
"""

from __future__ import annotations

from django.apps import apps
from django.db.models import Q

from fogcontrol.core.roles import Role
from fogcontrol.core.scoping import NOTHING, VIEW, ScopedQuerySet


def _model(name: str):
    # The models are defined after their querysets, in fogcontrol.registry.models.
    return apps.get_model("registry", name)


def _registry_change(user) -> Q | None:
    return None if user.can_edit_registry else NOTHING


def _staff_view_editor_change(user, action) -> Q | None:
    if action == VIEW:
        return None if user.is_program_staff else NOTHING
    return _registry_change(user)


class EstablishmentQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        if action != VIEW:
            return _registry_change(user)
        if user.is_program_staff:
            return None
        if user.role == Role.FSE:
            return Q(users=user)
        if user.role == Role.PROPERTY_OWNER:
            return Q(parcel__owner_users=user)
        if user.role == Role.HAULER:
            return Q(haulers__users=user)
        return NOTHING


class DeviceQuerySet(ScopedQuerySet):
    def shared(self, shared: bool = True):
        """Devices serving more than one FSE (A2), or (``shared=False``) the others.

        Read from ``SharedDevice``, the devices with two links or more, kept by triggers on the
        links: neither the list nor its count reads every link (issue 16)."""
        ids = _model("SharedDevice").objects.values("device_id")
        return self.filter(pk__in=ids) if shared else self.exclude(pk__in=ids)

    def scope(self, user, action):
        if action != VIEW:
            return _registry_change(user)
        if user.is_program_staff:
            return None
        condition = Q(
            establishments__in=_model("FoodServiceEstablishment").objects.visible_to(user).values("pk")
        )
        if user.role == Role.PROPERTY_OWNER:
            condition |= Q(parcel__owner_users=user)
        return condition


class ParcelQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        if action != VIEW:
            return _registry_change(user)
        if user.is_program_staff:
            return None
        if user.role == Role.PROPERTY_OWNER:
            return Q(owner_users=user)
        if user.role == Role.FSE:
            return Q(establishments__users=user)
        return NOTHING


class HaulerQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        if action != VIEW:
            return _registry_change(user)
        if user.is_program_staff:
            return None
        if user.role == Role.HAULER:
            return Q(users=user)
        # An FSE or owner sees the haulers its own establishments engaged.
        return Q(customers__in=_model("FoodServiceEstablishment").objects.visible_to(user).values("pk"))


class VehicleQuerySet(ScopedQuerySet):
    """A vehicle is seen with its hauler."""

    def scope(self, user, action):
        if action != VIEW:
            return _registry_change(user)
        if user.is_program_staff:
            return None
        return Q(hauler__in=_model("HaulerCompany").objects.visible_to(user).values("pk"))


class PartyQuerySet(ScopedQuerySet):
    """Contacts hold personal data: staff only."""

    def scope(self, user, action):
        return _staff_view_editor_change(user, action)


class FacilityQuerySet(ScopedQuerySet):
    """Receiving facilities are public knowledge within the program: any signed-in user."""

    def scope(self, user, action):
        return None if action == VIEW else _registry_change(user)


class LicenceImportQuerySet(ScopedQuerySet):
    """The Town's business-licence imports: staff see them, registry editors run them."""

    def scope(self, user, action):
        return _staff_view_editor_change(user, action)
