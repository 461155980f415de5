"""Who may see and change servicing's records (docs/architecture.md, "Who may see what").

Staff see everything. An FSE or property owner user sees the manifests, readings, requirements and
frequency requests of the devices the registry lets them see (not the FOG Manager's internal
frequency reviews). A hauler user sees its own company's manifests and the service status of its
customers' devices. Review flags, litigation holds and the staff queues are Town business.

"change": the FOG Manager and inspectors review flags, close requirements and correct any
manifest; a hauler corrects its company's manifests, an FSE or owner user those it filed; the FOG
Manager decides frequency requests and releases holds.
"""

from __future__ import annotations

from django.apps import apps
from django.db.models import Exists, OuterRef, Q

from fogcontrol.core.roles import Role
from fogcontrol.core.scoping import NOTHING, VIEW, ScopedQuerySet
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.servicing.permissions import can_review, can_set_frequency


def _visible_devices(user):
    return GreaseControlDevice.objects.visible_to(user).values("pk")


def _staff_view(user, action, *, change_allowed: bool) -> Q | None:
    if action == VIEW:
        return None if user.is_program_staff else NOTHING
    return None if change_allowed else NOTHING


class ManifestQuerySet(ScopedQuerySet):
    def effective(self):
        """Manifests in force: not withdrawn, and not replaced by a correction (F1)."""
        # `corrects_id IS NOT NULL` adds nothing to the logic (and Django drops `corrects__isnull` as
        # implied), but it lets PostgreSQL build its anti join from the few corrections (an index
        # scan) instead of hashing every manifest of the Town for each batch: 323 -> 50 ms for a
        # batch of 1,000 devices at 294,262 manifests, a scan that grew with the table (issue 16).
        corrected = apps.get_model("servicing", "Manifest").objects.filter(
            corrects=OuterRef("pk"), corrects_id__isnull=False
        )
        return self.filter(withdrawn=False).exclude(Exists(corrected))

    def scope(self, user, action):
        if action == VIEW:
            if user.is_program_staff:
                return None
            if user.role == Role.HAULER:
                return Q(hauler__users=user)
            return Q(device__in=_visible_devices(user))
        if can_review(user):
            return None
        if user.role == Role.HAULER:
            return Q(hauler__users=user)
        return Q(submitted_by=user)


class ManifestFlagQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        return _staff_view(user, action, change_allowed=can_review(user))


class ServiceRequirementQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        if action != VIEW:
            return None if can_review(user) else NOTHING
        if user.is_program_staff:
            return None
        frequency_review = apps.get_model("servicing", "ServiceRequirement").Kind.FREQUENCY_REVIEW
        return Q(device__in=_visible_devices(user)) & ~Q(kind=frequency_review)


class FrequencyRequestQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        if action != VIEW:
            return None if can_set_frequency(user) else NOTHING
        if user.is_program_staff:
            return None
        if user.role == Role.HAULER:
            return NOTHING
        return Q(device__in=_visible_devices(user))


class SludgeReadingQuerySet(ScopedQuerySet):
    """Readings are recorded, never changed."""

    def scope(self, user, action):
        if action != VIEW:
            return NOTHING
        if user.is_program_staff:
            return None
        return Q(device__in=_visible_devices(user))


class ManifestImportQuerySet(ScopedQuerySet):
    """A CSV upload: staff see every one, others their own. An upload is kept as run."""

    def scope(self, user, action):
        if action != VIEW:
            return NOTHING
        return None if user.is_program_staff else Q(uploaded_by=user)


class LitigationHoldQuerySet(ScopedQuerySet):
    """F5 holds: Town business; the FOG Manager places and releases them."""

    def scope(self, user, action):
        return _staff_view(user, action, change_allowed=user.has_role(Role.FOG_MANAGER))
