"""Who may see and change the permits app's records (docs/architecture.md, "Who may see what").

Staff see every application and permit. An FSE user sees its own establishments' records; a
property owner those of the FSEs on its parcels; a hauler the permits of its customers (it services
to the frequency they state) but not their applications, notices or fees. The fee schedule is a
public Council resolution: every signed-in user reads it.

"change": the FOG Manager and inspectors act on every application, permit and remodel notice
(each service then checks whether the step is the FOG Manager's alone); an FSE user acts on its own
establishments' (submit, answer, renew, file plans). Versions and notices are never changed.
"""

from __future__ import annotations

from django.db.models import Q

from fogcontrol.core.roles import Role
from fogcontrol.core.scoping import NOTHING, VIEW, ScopedQuerySet
from fogcontrol.permits.roles import DECIDERS, FEE_EDITORS, REVIEWERS
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice


def _visible_establishments(user):
    return FoodServiceEstablishment.objects.visible_to(user).values("pk")


def _applicant_change(user) -> Q | None:
    """The FOG Manager's staff act for every establishment; an FSE user for its own."""
    if user.has_role(*REVIEWERS):
        return None
    if user.role == Role.FSE:
        return Q(establishment__users=user)
    return NOTHING


def _permittee_records(user, action) -> Q | None:
    """Records the permittee and staff see, and the applicant changes (not haulers)."""
    if action != VIEW:
        return _applicant_change(user)
    if user.is_program_staff:
        return None
    if user.role in (Role.FSE, Role.PROPERTY_OWNER):
        return Q(establishment__in=_visible_establishments(user))
    return NOTHING


class ApplicationQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        return _permittee_records(user, action)


class RemodelNoticeQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        return _permittee_records(user, action)


# "The establishment's permit" (B1, B6) is its latest: the one issued last, then the newest row.
LATEST_FIRST = ("-first_issued_on", "-pk")


class PermitQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        if action != VIEW:
            return _applicant_change(user)
        if user.is_program_staff:
            return None
        return Q(establishment__in=_visible_establishments(user))


class PermitVersionQuerySet(ScopedQuerySet):
    """A version is seen with its permit and never changed (B7: old versions are kept as issued)."""

    def scope(self, user, action):
        if action != VIEW:
            return NOTHING
        if user.is_program_staff:
            return None
        return Q(permit__establishment__in=_visible_establishments(user))


class PermitModificationQuerySet(ScopedQuerySet):
    """A B7 change is seen with its permit; the FOG Manager proposes and withdraws it."""

    def scope(self, user, action):
        if action != VIEW:
            return None if user.has_role(*DECIDERS) else NOTHING
        if user.is_program_staff:
            return None
        return Q(permit__establishment__in=_visible_establishments(user))


class PermitNoticeQuerySet(ScopedQuerySet):
    """Notices sent to permittees, and to the property owner or designee of a shared device about
    its service frequency (A2): kept as sent."""

    def scope(self, user, action):
        if action != VIEW:
            return NOTHING
        if user.role == Role.PROPERTY_OWNER:
            owned_devices = GreaseControlDevice.objects.filter(parcel__owner_users=user).values("pk")
            return Q(establishment__in=_visible_establishments(user)) | Q(
                party__isnull=False, device__in=owned_devices
            )
        return _permittee_records(user, VIEW)


class PermitOrderQuerySet(ScopedQuerySet):
    """Suspension, revocation and reinstatement orders (L, M): staff see all, the permittee (and the
    owner of its parcel) its own, a hauler none. The FOG Manager records them and the hearing
    officer their decisions; each service checks which step is whose."""

    def scope(self, user, action):
        if action != VIEW:
            return None if user.is_program_staff else NOTHING
        if user.is_program_staff:
            return None
        if user.role in (Role.FSE, Role.PROPERTY_OWNER):
            return Q(permit__establishment__in=_visible_establishments(user))
        return NOTHING


class FeeChargeQuerySet(ScopedQuerySet):
    """Fees owed: assessed by the services, picked up by billing; nobody edits one by hand."""

    def scope(self, user, action):
        if action != VIEW:
            return NOTHING
        return _permittee_records(user, VIEW)


class FeeScheduleQuerySet(ScopedQuerySet):
    """A public Council resolution: every signed-in user reads it; the FOG Manager records it."""

    def scope(self, user, action):
        if action == VIEW:
            return None
        return None if user.has_role(*FEE_EDITORS) else NOTHING
