"""Every read of the FSE's own records, scoped to the user (outside the scope: 404)."""

from __future__ import annotations

from django.db.models import Count, Exists, OuterRef, QuerySet
from django.utils import timezone

from fogcontrol.core.roles import Role
from fogcontrol.core.scoping import VIEW
from fogcontrol.program.selectors import ruleset_on, town_calendar, town_zone
from fogcontrol.records.models import (
    OilPickup,
    RecordRequirement,
    RecordSubmission,
    TrainingAttendance,
    TrainingSession,
)
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.rules.deadlines import record_retention_end


def establishment_for(user, pk) -> FoodServiceEstablishment:
    """An establishment whose records and obligations the user may see, or DoesNotExist: staff any,
    an FSE its own, a property owner those on its parcels. A hauler sees its customers in the
    registry, but not what they owe the Town (findings, reports), only its own pickups."""
    if getattr(user, "role", None) == Role.HAULER:
        raise FoodServiceEstablishment.DoesNotExist("A hauler sees only its own pickups.")
    return FoodServiceEstablishment.objects.visible_to(user).get(pk=pk)


def pickup_establishments(user) -> QuerySet[FoodServiceEstablishment]:
    """Where the user may record a waste-oil pickup (C2): an FSE its own, a hauler its customers."""
    return FoodServiceEstablishment.objects.visible_to(user).order_by("business_name", "pk")


def training_sessions_visible_to(user, action: str = VIEW) -> QuerySet[TrainingSession]:
    return TrainingSession.objects.visible_to(user, action)


def training_session_list(user) -> QuerySet[TrainingSession]:
    """Sessions with their establishment and roster size, in one query (C4)."""
    return (
        training_sessions_visible_to(user)
        .select_related("establishment")
        .annotate(signed=Count("attendances"))
        .order_by("-held_on", "-pk")
    )


def training_session_detail(user, pk) -> TrainingSession:
    return (
        training_sessions_visible_to(user)
        .select_related("establishment")
        .prefetch_related("attendances__employee")
        .get(pk=pk)
    )


def attendance_detail(user, pk) -> TrainingAttendance:
    """A roster line (its signature) the user may see with its session."""
    return TrainingAttendance.objects.visible_to(user).select_related("session", "employee").get(pk=pk)


def oil_pickups_visible_to(user, action: str = VIEW) -> QuerySet[OilPickup]:
    return OilPickup.objects.visible_to(user, action)


def oil_pickup_list(user) -> QuerySet[OilPickup]:
    """C2 pickups with establishment and hauler, in one query."""
    return oil_pickups_visible_to(user).select_related("establishment", "hauler")


def oil_pickup_detail(user, pk) -> OilPickup:
    return oil_pickup_list(user).get(pk=pk)


def requirements_visible_to(user, action: str = VIEW) -> QuerySet[RecordRequirement]:
    return RecordRequirement.objects.visible_to(user, action)


def requirement_list(user) -> QuerySet[RecordRequirement]:
    """Requirements (C5, D7, E9, F2, F3, F6) with establishment and submission count, one query."""
    return (
        requirements_visible_to(user)
        .select_related("establishment")
        .annotate(submitted=Count("submissions"))
        .order_by("establishment__business_name", "first_due_on", "pk")
    )


def requirement_detail(user, pk) -> RecordRequirement:
    return requirements_visible_to(user).select_related("establishment").get(pk=pk)


def submissions_visible_to(user, action: str = VIEW) -> QuerySet[RecordSubmission]:
    return RecordSubmission.objects.visible_to(user, action)


def submission_list(user) -> QuerySet[RecordSubmission]:
    """Submissions with their requirement, establishment, review and whether a correction followed
    (for the allowed actions), in one query."""
    corrected = RecordSubmission.objects.filter(corrects=OuterRef("pk"))
    return (
        submissions_visible_to(user)
        .select_related("requirement__establishment", "review", "corrects__review")
        .annotate(is_corrected=Exists(corrected))
    )


def submission_detail(user, pk) -> RecordSubmission:
    return submission_list(user).prefetch_related("corrections").get(pk=pk)


def review_queue(user) -> QuerySet[RecordSubmission]:
    """Submissions no one has reviewed yet, oldest first (staff's queue)."""
    return submission_list(user).filter(review__isnull=True).order_by("received_at", "pk")


def submission_retention(submission: RecordSubmission):
    """F5: how long the Town keeps this copy of record (at least ``record_retention_years`` from the
    day it was received), with the working."""
    received_on = timezone.localtime(submission.received_at, town_zone()).date()
    return record_retention_end(received_on, ruleset=ruleset_on(received_on), calendar=town_calendar())


def bmp_establishments(user) -> QuerySet[FoodServiceEstablishment]:
    """The establishments whose C4 training sheet the BMP materials page offers prefilled: an FSE
    user its own, a property owner those on its parcels. Staff print a prefilled sheet from an
    establishment's records page (the program's every FSE is no list to print from)."""
    if getattr(user, "role", None) not in (Role.FSE, Role.PROPERTY_OWNER):
        return FoodServiceEstablishment.objects.none()
    return FoodServiceEstablishment.objects.visible_to(user).order_by("business_name", "pk")
