"""Reads of the permits app, always scoped to the user (B1, B6).

Who sees which record is each model's `visible_to(user, action)` (fogcontrol.permits.querysets).
Anything outside the user's scope is not found (404).
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q, QuerySet
from django.db.models.functions import Coalesce, Least
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from fogcontrol.core.permissions import has_role
from fogcontrol.core.roles import Role
from fogcontrol.core.scoping import VIEW
from fogcontrol.permits.models import (
    CLOSED_APPLICATION_STATUSES,
    ApplicationStatus,
    FeeCharge,
    FeeSchedule,
    Permit,
    PermitApplication,
    PermitModification,
    PermitNotice,
    PermitOrder,
    PermitStatus,
    PermitVersion,
    RemodelNotice,
)
from fogcontrol.permits.querysets import LATEST_FIRST
from fogcontrol.permits.roles import REVIEWERS
from fogcontrol.program.selectors import ruleset_on, town_calendar, town_today
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.registry.selectors import establishments_visible_to
from fogcontrol.rules.deadlines import permit_expiry
from fogcontrol.rules.permit_term import permit_term, renewal_opens_on
from fogcontrol.rules.ruleset import Ruleset

OPEN_STATUSES = [s for s in ApplicationStatus.values if s not in CLOSED_APPLICATION_STATUSES]
# The staff work queue, in the order the work is done (B5).
QUEUE_ORDER = [
    ApplicationStatus.SUBMITTED,
    ApplicationStatus.UNDER_REVIEW,
    ApplicationStatus.INFORMATION_REQUESTED,
    ApplicationStatus.ACCEPTED,
    ApplicationStatus.INSPECTION_SCHEDULED,
    ApplicationStatus.DRAFT,
]


# --- Applications --------------------------------------------------------------------------


def applications_visible_to(user, action: str = VIEW) -> QuerySet[PermitApplication]:
    return PermitApplication.objects.visible_to(user, action)


def establishments_to_file_for(user) -> QuerySet[FoodServiceEstablishment]:
    """The active establishments this user may apply or file a notice for (B3, G1): any for the FOG
    Manager's staff, its own for an FSE user (permits.actions.may_file_for), none for anyone else."""
    if not (has_role(user, REVIEWERS) or getattr(user, "role", None) == Role.FSE):
        return FoodServiceEstablishment.objects.none()
    return establishments_visible_to(user).filter(status=FoodServiceEstablishment.Status.ACTIVE)


def open_application_for(establishment) -> PermitApplication | None:
    """The establishment's application in progress, if any: there is at most one (B3)."""
    return (
        PermitApplication.objects.filter(establishment=establishment, status__in=OPEN_STATUSES)
        .order_by("-pk")
        .first()
    )


def application_list(user) -> QuerySet[PermitApplication]:
    """The application list and staff work queue: a fixed number of queries whatever its length."""
    return (
        applications_visible_to(user)
        .select_related("establishment", "previous_permit", "permit")
        .annotate(fixture_count=Count("fixtures", distinct=True))
    )


def application_detail(user, pk) -> PermitApplication:
    """One application with everything its page shows; DoesNotExist outside the user's scope."""
    return (
        applications_visible_to(user)
        .select_related(
            "establishment",
            "establishment__operator",
            "establishment__parcel",
            "device",
            "previous_permit",
            "permit",
            "reviewer",
            "inspector",
        )
        .prefetch_related("fixtures", "documents", "messages", "events", "fees", "notices")
        .get(pk=pk)
    )


def application_queue_counts(user) -> dict[str, int]:
    """How many applications wait in each state of the work queue."""
    counts = dict(
        applications_visible_to(user)
        .filter(status__in=OPEN_STATUSES)
        .values_list("status")
        .annotate(n=Count("pk"))
        .values_list("status", "n")
    )
    return {status: counts.get(status, 0) for status in QUEUE_ORDER}


# --- Permits -------------------------------------------------------------------------------


def permits_visible_to(user, action: str = VIEW) -> QuerySet[Permit]:
    return Permit.objects.visible_to(user, action)


def permit_list(user) -> QuerySet[Permit]:
    return permits_visible_to(user).select_related("establishment", "device")


# What a row of the permit list page reads (permits/permit_list.html and its status badge): not the
# permit's other columns or the FSE's and the device's (issue 16).
_LIST_PAGE_COLUMNS = (
    "number", "establishment__business_name", "device_kind", "device__identifier", "device_capacity_gallons",
    "device_rated_flow_gpm", "service_frequency_days", "valid_until", "status",
)  # fmt: skip


def permit_list_page(rows: QuerySet[Permit]) -> QuerySet[Permit]:
    """The rows of a page of the permit list: only the columns a row shows. The export still writes
    from ``rows`` as they are."""
    return rows.select_related(None).select_related("establishment", "device").only(*_LIST_PAGE_COLUMNS)


def permit_detail(user, pk) -> Permit:
    return (
        permits_visible_to(user)
        .select_related("establishment", "establishment__operator", "device", "superseded_by")
        .prefetch_related(
            Prefetch("versions", queryset=PermitVersion.objects.order_by("-number")),
            Prefetch("modifications", queryset=PermitModification.objects.order_by("-effective_on", "-pk")),
            Prefetch("notices", queryset=PermitNotice.objects.order_by("-sent_on", "-pk")),
            Prefetch(
                "orders",
                queryset=PermitOrder.objects.select_related("ends_order").order_by("-recorded_at", "-pk"),
            ),
            "events",
            "supersedes",
        )
        .get(pk=pk)
    )


def permit_version_detail(user, permit_pk, number) -> PermitVersion:
    return (
        PermitVersion.objects.visible_to(user)
        .select_related("permit", "permit__establishment")
        .get(permit_id=permit_pk, number=number)
    )


def current_version(permit: Permit) -> PermitVersion:
    """The version whose terms are in force (the permit row's `version_number`)."""
    return permit.versions.get(number=permit.version_number)


@dataclasses.dataclass(frozen=True)
class Standing:
    """Where a permit stands on a day, in words and as a badge (ok / warn / bad)."""

    in_force: bool
    label: str
    badge: str
    detail: str


def latest_permits_first(permits: QuerySet[Permit] | None = None) -> QuerySet[Permit]:
    """ "The establishment's permit" (B1, B6) is the first of these: permits in force or once in
    force, the latest first; a superseded permit is left out (its successor speaks for it)."""
    permits = Permit.objects.all() if permits is None else permits
    return permits.exclude(status=PermitStatus.SUPERSEDED).order_by(*LATEST_FIRST)


def permit_standing(permit: Permit, on: dt.date, ruleset: Ruleset) -> Standing:
    """B1, B6: in force, renewal due soon, expired (from the day after its term), suspended, revoked.

    Judged on the dates, not only the stored status, so it is right even before the daily run.
    """
    if permit.status == PermitStatus.REVOKED:
        return Standing(False, "Revoked", "bad", permit.status_reason)
    if permit.status == PermitStatus.SUPERSEDED:
        return Standing(False, "Superseded", "", "Replaced by a newer permit.")
    if permit.status == PermitStatus.SUSPENDED:
        return Standing(False, "Suspended", "bad", permit.status_reason)
    if permit.valid_until < on:
        return Standing(
            False,
            "Expired",
            "bad",
            _("Expired %(day)s.") % {"day": _day(permit.valid_until + dt.timedelta(days=1))},
        )
    if on >= renewal_opens_on(valid_until=permit.valid_until, ruleset=ruleset):
        return Standing(
            True, "Renewal due", "warn", _("Renew by %(day)s (B6).") % {"day": _day(permit.valid_until)}
        )
    return Standing(True, "In force", "ok", _("Valid until %(day)s.") % {"day": _day(permit.valid_until)})


def permit_expiry_explanation(permit: Permit):
    """The B6 working of the permit's current term, for the page: aligned to the business licence's
    expiry as the current version recorded it (never past the B6 term). A version written before
    the licence was recorded shows the term's anniversary working."""
    version = next((v for v in permit.versions.all() if v.number == permit.version_number), None)
    ruleset, calendar = ruleset_on(permit.term_start), town_calendar()
    if version is not None and version.licence_expires_on is not None:
        return permit_term(
            permit.term_start,
            licence_number=version.licence_number,
            licence_expires_on=version.licence_expires_on,
            ruleset=ruleset,
            calendar=calendar,
        )
    return permit_expiry(permit.term_start, ruleset=ruleset, calendar=calendar)


# B6: a permit is renewed with the business licence: when the licence expires, or at the end of the
# permit's own term (the B6 cap) if that comes first.
_RENEW_BY = Least(F("valid_until"), Coalesce(F("establishment__licence_expires_on"), F("valid_until")))


def renewal_list(user, *, on: dt.date, within_days: int) -> QuerySet[Permit]:
    """B6: permits to renew with the business licence: those whose renewal date falls within
    `within_days` of `on`, or has passed without renewal. The renewal date (`renew_by`) is the
    licence's expiry, or the permit's own last day when that comes first (the B6 term's cap, or a
    licence with no expiry on record); the list runs in that order.

    Each row says whether a renewal application is already open.
    """
    open_renewal = PermitApplication.objects.filter(previous_permit=OuterRef("pk"), status__in=OPEN_STATUSES)
    return (
        permits_visible_to(user)
        .filter(status__in=[PermitStatus.ISSUED, PermitStatus.EXPIRED])
        .annotate(renew_by=_RENEW_BY)
        .filter(renew_by__lte=on + dt.timedelta(days=within_days))
        .select_related("establishment")
        .annotate(renewal_open=Exists(open_renewal))
        .order_by("renew_by", "establishment__licence_expires_on", "pk")
    )


def establishments_without_permit(user, *, on: dt.date) -> QuerySet[FoodServiceEstablishment]:
    """B1: active FSEs with no permit in force on `on` (none, expired, suspended or revoked)."""
    in_force = Permit.objects.filter(
        establishment=OuterRef("pk"), status=PermitStatus.ISSUED, valid_until__gte=on
    )
    latest = Permit.objects.filter(establishment=OuterRef("pk")).order_by("-first_issued_on", "-pk")
    return (
        establishments_visible_to(user)
        .filter(status=FoodServiceEstablishment.Status.ACTIVE)
        .annotate(has_permit=Exists(in_force))
        .filter(has_permit=False)
        .annotate(
            last_permit_number=latest.values("number")[:1],
            last_permit_status=latest.values("status")[:1],
            last_valid_until=latest.values("valid_until")[:1],
            open_application=PermitApplication.objects.filter(
                establishment=OuterRef("pk"), status__in=OPEN_STATUSES
            ).values("reference")[:1],
        )
        .select_related("parcel")
        .order_by("business_name", "pk")
    )


def permit_compliance(establishment, *, on: dt.date) -> tuple[bool, str]:
    """B1: does the FSE hold a permit in force on `on`? With the reason in words."""
    permit = establishment.permits.filter(status=PermitStatus.ISSUED, valid_until__gte=on).first()
    if permit is not None:
        return True, _("Holds FOG permit %(number)s, valid until %(day)s (B1).") % {
            "number": permit.number,
            "day": _day(permit.valid_until),
        }
    return False, "Holds no FOG permit in force: discharging without one is a violation (B1, P7)."


def modification_list(user) -> QuerySet[PermitModification]:
    return PermitModification.objects.visible_to(user).select_related("permit", "permit__establishment")


def orders_visible_to(user) -> QuerySet[PermitOrder]:
    """Suspension, revocation and reinstatement orders (L, M): staff see all; the permittee (and the
    owner of its parcel) its own; a hauler none."""
    return PermitOrder.objects.visible_to(user).select_related(
        "permit", "permit__establishment", "ends_order"
    )


def notices_visible_to(user) -> QuerySet[PermitNotice]:
    return PermitNotice.objects.visible_to(user).select_related("establishment", "permit", "application")


def remodel_notices_visible_to(user, action: str = VIEW) -> QuerySet[RemodelNotice]:
    return RemodelNotice.objects.visible_to(user, action).select_related("establishment")


def fee_charges_visible_to(user) -> QuerySet[FeeCharge]:
    return FeeCharge.objects.visible_to(user).select_related(
        "establishment", "application", "fee_schedule", "remodel_notice"
    )


def fee_schedules_visible_to(user) -> QuerySet[FeeSchedule]:
    """The Town's fee schedules, newest first, with their lines: every signed-in user reads them."""
    return FeeSchedule.objects.visible_to(user).prefetch_related("lines").order_by("-effective_from")


# --- The FSE portal ------------------------------------------------------------------------


@dataclasses.dataclass
class PortalEntry:
    """One establishment on the FSE's portal: its permit, its standing, and what it must do next."""

    establishment: FoodServiceEstablishment
    permit: Permit | None
    standing: Standing | None
    application: PermitApplication | None
    pending_changes: list[PermitModification]
    fees_owed: list[FeeCharge]
    next_steps: list[str]


def _day(day: dt.date) -> str:
    """A date as the page's language writes it ("Thursday, March 5, 2026", "jueves 5 de marzo de 2026")."""
    return date_format(day, _("l, F j, Y"))


def _next_steps(entry: PortalEntry, on: dt.date) -> list[str]:
    steps = []
    app = entry.application
    if app is not None:
        if app.status == ApplicationStatus.DRAFT:
            steps.append(
                _("Finish and submit your draft application %(reference)s.") % {"reference": app.reference}
            )
        elif app.status == ApplicationStatus.INFORMATION_REQUESTED:
            steps.append(
                _("Answer the FOG Manager's request for information on application %(reference)s.")
                % {"reference": app.reference}
            )
        elif app.status == ApplicationStatus.INSPECTION_SCHEDULED and app.inspection_scheduled_for:
            steps.append(
                _("Be ready for the on-site inspection on %(when)s.")
                % {"when": date_format(app.inspection_scheduled_for, _("F j, Y \\a\\t g:i A"))}
            )
        else:
            steps.append(
                _("Application %(reference)s is %(status)s: nothing to do yet.")
                % {"reference": app.reference, "status": str(app.get_status_display()).lower()}
            )
    permit, standing = entry.permit, entry.standing
    if permit is None and app is None:
        steps.append(_("Apply for a FOG permit: every food service establishment must hold one (B1)."))
    elif permit is not None and standing is not None and app is None:
        expired = permit.status == PermitStatus.EXPIRED or (
            permit.status == PermitStatus.ISSUED and permit.valid_until < on
        )
        if expired:
            steps.append(
                _(
                    "Your permit expired on %(day)s. Apply to renew it now: discharging without a valid permit "
                    "is a violation (B1, P7)."
                )
                % {"day": _day(permit.valid_until + dt.timedelta(days=1))}
            )
        elif permit.status == PermitStatus.REVOKED:
            steps.append(_("Your permit was revoked: apply for a new permit before discharging again (L5)."))
        elif permit.status == PermitStatus.SUSPENDED:
            steps.append(_("Your permit is suspended: no FOG-bearing discharge until it is reinstated (L5)."))
        elif standing.label == "Renewal due":
            steps.append(
                _("Renew your permit by %(day)s (B6), with your business licence.")
                % {"day": _day(permit.valid_until)}
            )
    for change in entry.pending_changes:
        steps.append(
            _("From %(day)s: %(summary)s (B7). Reason: %(reason)s")
            % {"day": _day(change.effective_on), "summary": change.summary, "reason": change.reason}
        )
    for fee in entry.fees_owed:
        steps.append(
            _("Fee owed: $%(amount)s for the %(kind)s; pay it when you are invoiced.")
            % {"amount": fee.amount, "kind": fee.get_kind_display()}
        )
    if permit is not None and standing is not None and standing.in_force:
        steps.append(
            f"Have the grease control device serviced at least every {permit.service_frequency_days} days."
        )
    return steps


def permit_summary_for(user, *, on: dt.date | None = None) -> list[PortalEntry]:
    """The portal: for each of the user's establishments, its permit, expiry and next steps.

    A fixed number of queries whatever the number of establishments.
    """
    on = on or town_today()
    ruleset = ruleset_on(on)
    establishments = list(
        establishments_visible_to(user)
        .filter(status=FoodServiceEstablishment.Status.ACTIVE)
        .prefetch_related(
            Prefetch(
                "permits",
                queryset=latest_permits_first(),
            ),
            Prefetch(
                "permit_applications",
                queryset=PermitApplication.objects.filter(status__in=OPEN_STATUSES).order_by("-pk"),
            ),
            Prefetch("fee_charges", queryset=FeeCharge.objects.filter(status=FeeCharge.Status.OWED)),
        )
    )
    pending = {}
    for change in PermitModification.objects.filter(
        status=PermitModification.Status.NOTIFIED,
        permit__establishment__in=[fse.pk for fse in establishments],
    ):
        pending.setdefault(change.permit_id, []).append(change)
    entries = []
    for fse in establishments:
        permits = list(fse.permits.all())
        applications = list(fse.permit_applications.all())
        permit = permits[0] if permits else None
        entry = PortalEntry(
            establishment=fse,
            permit=permit,
            standing=permit_standing(permit, on, ruleset) if permit else None,
            application=applications[0] if applications else None,
            pending_changes=pending.get(permit.pk, []) if permit else [],
            fees_owed=list(fse.fee_charges.all()),
            next_steps=[],
        )
        entry.next_steps = _next_steps(entry, on)
        entries.append(entry)
    return entries


def permit_counts(user, *, on: dt.date) -> dict[str, int]:
    """The permits at a glance, for the staff pages."""
    permits = permits_visible_to(user)
    window = ruleset_on(on).permit_renewal_window_days
    return {
        "in_force": permits.filter(status=PermitStatus.ISSUED, valid_until__gte=on).count(),
        # B6: renewal comes due with the business licence (the renewal list's `renew_by`).
        "renewal_due": permits.filter(status=PermitStatus.ISSUED, valid_until__gte=on)
        .annotate(renew_by=_RENEW_BY)
        .filter(renew_by__lte=on + dt.timedelta(days=window))
        .count(),
        "expired": permits.filter(
            Q(status=PermitStatus.EXPIRED) | Q(status=PermitStatus.ISSUED, valid_until__lt=on)
        ).count(),
        "suspended": permits.filter(status=PermitStatus.SUSPENDED).count(),
        "without_permit": establishments_without_permit(user, on=on).count(),
    }


def permit_conditions_in_force(permit: Permit, *, on: dt.date) -> list:
    """The conditions on ``permit`` that apply on ``on`` (started by then, not yet ended)."""
    return list(
        permit.conditions_set.filter(started_on__lte=on)
        .exclude(ended_on__lte=on)
        .order_by("started_on", "pk")
    )


def permit_conditions_of_version(version) -> list:
    """The conditions that applied at some time while ``version`` was the permit's terms (from its
    effective date to the end of its term), each printed with its dates."""
    return list(
        version.permit.conditions_set.filter(started_on__lte=version.valid_until)
        .exclude(ended_on__lte=version.effective_from)
        .order_by("started_on", "pk")
    )
