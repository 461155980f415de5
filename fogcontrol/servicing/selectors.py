"""Reads of servicing, always scoped to the user (a record outside the scope is not found: 404).

Staff see everything. An FSE or property owner user sees the manifests, readings and history of
the devices the registry lets them see. A hauler user sees its own company's manifests and the
service status of its customers' devices.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal

from django.db.models import Count, Exists, Min, OuterRef, Prefetch, Q, QuerySet
from django.utils.translation import gettext as _

from fogcontrol.core.roles import Role
from fogcontrol.core.scoping import VIEW
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice, HaulerVehicle
from fogcontrol.registry.selectors import devices_visible_to
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.models import (
    FrequencyChange,
    FrequencyChangeRequest,
    LitigationHold,
    Manifest,
    ManifestAttachment,
    ManifestFlag,
    ManifestImport,
    ServiceRequirement,
    SludgeReading,
)
from fogcontrol.servicing.services.state import (
    HISTORY_MANIFESTS,
    HISTORY_READINGS,
    DeviceSnapshot,
    ServiceEvent,
    device_snapshot,
    snapshot_from_events,
)
from fogcontrol.servicing.wording import CHANGE_STATUS_LABELS, flag_text, stored_note


def manifests_visible_to(user, action: str = VIEW) -> QuerySet[Manifest]:
    return Manifest.objects.visible_to(user, action)


def manifest_list(user) -> QuerySet[Manifest]:
    """The manifest list: a fixed number of queries whatever its length."""
    open_flags = ManifestFlag.objects.filter(manifest=OuterRef("pk"), review=ManifestFlag.Review.OPEN)
    corrected = Manifest.objects.filter(corrects=OuterRef("pk"))
    return (
        manifests_visible_to(user)
        .select_related("device", "establishment", "hauler", "receiving_facility")
        .annotate(has_open_flags=Exists(open_flags), is_corrected=Exists(corrected))
        .order_by("-serviced_at", "-pk")
    )


# What a row of the manifests list page reads (servicing/manifest_list.html): not the stored
# submission and certification text, the hauler or the facility, nor the device's or the FSE's other
# columns (issue 16).
_LIST_PAGE_COLUMNS = (
    "manifest_number", "serviced_at", "device__identifier", "establishment__business_name", "site_address",
    "hauler_name", "full_pumpout", "fill_ratio", "gallons_removed", "withdrawn", "corrects",
)  # fmt: skip


def manifest_list_page(rows: QuerySet[Manifest]) -> QuerySet[Manifest]:
    """The rows of a page of the manifests list: only the columns a row shows. The export still
    writes from ``rows`` as they are."""
    return rows.select_related(None).select_related("device", "establishment").only(*_LIST_PAGE_COLUMNS)


# What a row of the manifests API reads (servicing.api.serializers.ManifestSerializer): the
# manifest's own columns but its stored submission and certification text, the device's identifier
# and the facility's name; not the FSE, hauler or the page's badges (issue 16).
_API_MANIFEST_COLUMNS = (
    "device_id", "device__identifier", "establishment_id", "site_address", "hauler_id", "hauler_name",
    "hauler_attested", "driver_name", "vehicle_plate", "manifest_number", "serviced_at", "service_date",
    "full_pumpout", "baffles_cleaned", "fog_depth_in", "solids_depth_in", "fill_ratio", "gallons_removed",
    "leak_observed", "damaged_baffles", "damaged_tees", "condition_notes", "receiving_facility_id",
    "receiving_facility__name", "delivered_on", "certified_by_name", "certification_version", "channel",
    "received_at", "submitted_by_label", "corrects_id", "correction_reason", "withdrawn",
    "record_sequence", "previous_hash", "record_hash",
)  # fmt: skip


def manifest_list_for_api(user) -> QuerySet[Manifest]:
    """The manifests API's list: the columns its rows show, the flags and attachments as lists
    (``api_flags``, ``api_attachments``: no related manager and queryset built for each row)."""
    return (
        manifests_visible_to(user)
        .select_related("device", "receiving_facility")
        .only(*_API_MANIFEST_COLUMNS)
        .prefetch_related(
            Prefetch("flags", queryset=ManifestFlag.objects.all(), to_attr="api_flags"),
            Prefetch(
                "attachments",
                queryset=ManifestAttachment.objects.only(
                    "manifest_id", "original_name", "content_type", "size_bytes", "sha256"
                ),
                to_attr="api_attachments",
            ),
        )
        .order_by("-serviced_at", "-pk")
    )


def manifest_detail(user, pk) -> Manifest:
    return (
        manifests_visible_to(user)
        .select_related(
            "device", "establishment", "hauler", "vehicle", "receiving_facility", "corrects", "submitted_by"
        )
        .prefetch_related(
            Prefetch("flags", queryset=ManifestFlag.objects.select_related("reviewed_by")),
            "attachments",
            Prefetch(
                "corrections",
                queryset=Manifest.objects.only(
                    "pk", "manifest_number", "received_at", "withdrawn", "corrects_id"
                ),
            ),
        )
        .get(pk=pk)
    )


def service_status_list(user) -> QuerySet[GreaseControlDevice]:
    """Devices with their service state, for the status list (one query plus one prefetch)."""
    return (
        devices_visible_to(user)
        .filter(status=GreaseControlDevice.Status.ACTIVE)
        .select_related("service_state", "parcel")
        .prefetch_related(
            Prefetch(
                "establishments",
                queryset=FoodServiceEstablishment.objects.only("pk", "business_name", "site_address"),
            )
        )
        .order_by("service_state__next_due", "identifier")
    )


def with_next_service_due(establishments: QuerySet[FoodServiceEstablishment]) -> QuerySet:
    """Each establishment annotated with ``next_service_due``: the earliest next pump-out among its
    active devices (E1, calendar days), in the same query as the list."""
    return establishments.annotate(
        next_service_due=Min(
            "devices__service_state__next_due",
            filter=Q(devices__status=GreaseControlDevice.Status.ACTIVE),
        )
    )


def status_counts(user) -> dict[str, int]:
    devices = devices_visible_to(user).filter(status=GreaseControlDevice.Status.ACTIVE)
    rows = devices.values("service_state__status").annotate(n=Count("pk"))
    counts = {"compliant": 0, "due_soon": 0, "overdue": 0, "over_limit": 0, "never_serviced": 0}
    for row in rows:
        counts[row["service_state__status"] or "never_serviced"] += row["n"]
    if user.is_program_staff:
        counts["flags_open"] = ManifestFlag.objects.filter(review=ManifestFlag.Review.OPEN).count()
        counts["requirements_open"] = ServiceRequirement.objects.filter(
            status=ServiceRequirement.Status.OPEN
        ).count()
        counts["requests_pending"] = FrequencyChangeRequest.objects.filter(
            status=FrequencyChangeRequest.Status.PENDING
        ).count()
    return counts


def device_for_servicing(user, pk) -> GreaseControlDevice:
    return (
        devices_visible_to(user)
        .select_related("service_state", "parcel")
        .prefetch_related("establishments")
        .get(pk=pk)
    )


def flags_to_review(user) -> QuerySet[ManifestFlag]:
    return (
        ManifestFlag.objects.visible_to(user)
        .select_related("manifest", "manifest__device", "manifest__hauler")
        .order_by("review", "-created_at")
    )


def requirements_visible_to(user, action: str = VIEW) -> QuerySet[ServiceRequirement]:
    return ServiceRequirement.objects.visible_to(user, action).select_related(
        "device", "opened_by_manifest", "closed_by_manifest"
    )


def frequency_requests_visible_to(user, action: str = VIEW) -> QuerySet[FrequencyChangeRequest]:
    return FrequencyChangeRequest.objects.visible_to(user, action).select_related(
        "device", "submitted_by", "decided_by"
    )


def frequency_requests_of_device(user, device, *, limit: int = 10) -> QuerySet[FrequencyChangeRequest]:
    """The device's latest frequency change requests as its history page lists them: the columns
    the list shows, without the device and the users the other lists join (issue 16)."""
    return (
        frequency_requests_visible_to(user)
        .filter(device=device)
        .select_related(None)
        .only("pk", "requested_days", "status", "submitted_at")[:limit]
    )


def imports_visible_to(user) -> QuerySet[ManifestImport]:
    return ManifestImport.objects.visible_to(user).select_related("uploaded_by")


def portal_defaults(user) -> dict:
    """What the portal form remembers: the vehicle, driver and facility of the user's last manifest."""
    last = (
        Manifest.objects.filter(submitted_by=user)
        .order_by("-received_at")
        .values("vehicle_plate", "driver_name", "receiving_facility", "certified_by_name")
        .first()
    )
    return last or {}


def vehicles_for(user) -> QuerySet[HaulerVehicle]:
    if getattr(user, "role", None) == Role.HAULER:
        return HaulerVehicle.objects.visible_to(user).filter(active=True).select_related("hauler")
    return HaulerVehicle.objects.none()


# --- compliance and history --------------------------------------------------------------------


def device_compliance(user, pk, *, on: dt.date) -> tuple[GreaseControlDevice, DeviceSnapshot]:
    """The device's compliance on a day, computed by the rules (issue 3's compliance endpoint)."""
    device = devices_visible_to(user).get(pk=pk)
    return device, compliance_of(device, on=on)


def compliance_of(
    device: GreaseControlDevice,
    *,
    on: dt.date,
    ctx: ProgramContext | None = None,
    history: DeviceHistory | None = None,
) -> DeviceSnapshot:
    """``device_compliance`` of a device the caller has already found in the user's scope (the
    device's page: ``device_history``), without finding it again. ``history``: the device's
    history, whose manifests and readings, when it holds them all, are the rules' events (issue 16:
    not read again by two queries of their own)."""
    ctx = ctx or ProgramContext()
    read = _events_from_history(history, on) if history is not None else None
    if read is None:
        return device_snapshot(device, on=on, ctx=ctx)
    events, last_manifest_id = read
    return snapshot_from_events(device, events, last_manifest_id, on=on, ctx=ctx)


def _events_from_history(history: DeviceHistory, on: dt.date) -> tuple[list[ServiceEvent], int | None] | None:
    """``services.state.device_events(device, up_to=on)`` from a history's manifests and readings:
    the same rows (effective manifests, readings, up to ``on``), in the same order (newest first,
    the later id first on a tie) and as many. None when the history does not hold every one."""
    if history.manifests is None or history.readings is None:
        return None
    manifests = sorted(
        (m for m in history.manifests if not m.withdrawn and not m.is_corrected and m.service_date <= on),
        key=lambda m: (m.serviced_at, m.pk),
        reverse=True,
    )[:HISTORY_MANIFESTS]
    readings = sorted(
        (r for r in history.readings if r.taken_on <= on), key=lambda r: (r.taken_on, r.pk), reverse=True
    )[:HISTORY_READINGS]
    events = [
        ServiceEvent(m.service_date, m.full_pumpout, m.fog_depth_in, m.solids_depth_in, "manifest")
        for m in manifests
    ]
    events += [ServiceEvent(r.taken_on, False, r.fog_depth_in, r.solids_depth_in, r.source) for r in readings]
    return events, (manifests[0].pk if manifests else None)


@dataclasses.dataclass
class TimelineEvent:
    on: dt.date
    at: dt.datetime | None
    kind: str  # manifest, reading, frequency_change, requirement, flag
    title: str
    detail: str
    badge: str = ""
    obj: object = None
    badge_label: str = ""  # the badge in the page's language (`badge` is the status compared)


@dataclasses.dataclass
class DeviceHistory:
    device: GreaseControlDevice
    events: list[TimelineEvent]
    chart: list[tuple[dt.date, Decimal, str]]  # (day, fill ratio, source)
    limit: Decimal
    # Every change of the device's frequency, newest first, when the timeline holds them all (fewer
    # than its limit), else None: the frequency card finds the pending one here (issue 16).
    frequency_changes: list[FrequencyChange] | None = None
    # Every manifest and every reading of the device, when the timeline holds them all (fewer than
    # its limit) and the user sees every manifest (staff), else None: the rules' events, which
    # ``compliance_of`` then does not read again (issue 16).
    manifests: list[Manifest] | None = None
    readings: list[SludgeReading] | None = None


def frequency_changes_visible_to(user) -> QuerySet[FrequencyChange]:
    """Changes of frequency (B7) of the devices the user may see; staff see all."""
    queryset = FrequencyChange.objects.select_related("device", "replaced_by").prefetch_related(
        "notices", "permit_modifications"
    )
    if not user.is_authenticated:
        return queryset.none()
    if user.is_program_staff:
        return queryset
    return queryset.filter(device__in=devices_visible_to(user).values("pk"))


def frequency_change_detail(user, pk) -> FrequencyChange:
    return frequency_changes_visible_to(user).get(pk=pk)


_TIMELINE_MANIFEST_FIELDS = (
    "pk",
    "service_date",
    "serviced_at",
    "full_pumpout",
    "withdrawn",
    "hauler_name",
    "submitted_by_label",
    "manifest_number",
    "gallons_removed",
    "fill_ratio",
    # What the rules read of a manifest (``compliance_of``), with the dates and states above.
    "fog_depth_in",
    "solids_depth_in",
)
_TIMELINE_REQUIREMENT_FIELDS = ("pk", "kind", "status", "opened_on", "opened_at", "close_note")


def device_history(user, pk, *, limit_events: int = 500) -> DeviceHistory:
    """A device's service history: manifests, readings, frequency changes, requirements and flags
    in one timeline, newest first, and the fill ratio over time. A fixed number of queries."""
    # Not ``device_for_servicing``, whose device the services write from: the page and the API read
    # the names of the FSEs served (and their count), not each FSE's every column, nor the parcel.
    device = (
        devices_visible_to(user)
        .select_related("service_state")
        .prefetch_related(
            Prefetch("establishments", queryset=FoodServiceEstablishment.objects.only("pk", "business_name"))
        )
        .get(pk=pk)
    )
    # Only the columns the timeline words a row from (and the id its link and the API name): not
    # each manifest's stored submission and certification text, nor the joined rows nothing reads
    # (a third of the selector's CPU; issue 16).
    manifests = list(
        manifests_visible_to(user)
        .filter(device=device)
        .select_related(None)
        .only(*_TIMELINE_MANIFEST_FIELDS)
        .annotate(is_corrected=Exists(Manifest.objects.filter(corrects=OuterRef("pk"))))
        # A list on each manifest, not a queryset made for each row to read the prefetched flags.
        .prefetch_related(Prefetch("flags", to_attr="timeline_flags"))
        .order_by("-serviced_at")[:limit_events]
    )
    readings = list(SludgeReading.objects.filter(device=device).order_by("-taken_on")[:limit_events])
    changes = list(FrequencyChange.objects.filter(device=device)[:limit_events])
    requirements = list(
        requirements_visible_to(user)
        .filter(device=device)
        .select_related(None)
        .only(*_TIMELINE_REQUIREMENT_FIELDS)
        .order_by("-opened_on")[:limit_events]
    )
    events: list[TimelineEvent] = []
    chart: list[tuple[dt.date, Decimal, str]] = []
    # The wording every manifest's row shares, translated once for the page (issue 16).
    full, partial = _("Full pump-out"), _("Service (not a full pump-out)")
    by_whom, before_pumping = _("%(by)s · manifest %(number)s"), _("%(percent)s full before pumping")
    state_labels = {"withdrawn": _("withdrawn"), "corrected": _("corrected")}
    for m in manifests:
        state = "withdrawn" if m.withdrawn else ("corrected" if m.is_corrected else "")
        what = full if m.full_pumpout else partial
        by = m.hauler_name or _("Submitted by %(name)s") % {"name": m.submitted_by_label}
        detail = by_whom % {"by": by, "number": m.manifest_number}
        if m.gallons_removed is not None:
            detail += f" · {m.gallons_removed} gal"
        if m.fill_ratio is not None:
            detail += " · " + before_pumping % {"percent": f"{m.fill_ratio * 100:.1f}%"}
        state_label = state_labels.get(state, "")
        events.append(
            TimelineEvent(m.service_date, m.serviced_at, "manifest", what, detail, state, m, state_label)
        )
        for f in m.timeline_flags:
            title = _("Flag (%(provision)s)") % {"provision": f.provision}
            text = flag_text(f.code, f.message)
            events.append(
                TimelineEvent(
                    m.service_date, f.created_at, "flag", title, text, f.review, f, f.get_review_display()
                )
            )
        if m.fill_ratio is not None and not state:
            chart.append((m.service_date, m.fill_ratio, "manifest"))
    for r in readings:
        ratio = (
            _("%(percent)s full") % {"percent": f"{r.fill_ratio * 100:.1f}%"}
            if r.fill_ratio is not None
            else _("no design depth")
        )
        events.append(
            TimelineEvent(
                r.taken_on,
                None,
                "reading",
                _("Reading (%(source)s)") % {"source": r.get_source_display()},
                _("FOG %(fog)s in, solids %(solids)s in: %(ratio)s")
                % {"fog": r.fog_depth_in, "solids": r.solids_depth_in, "ratio": ratio},
                "",
                r,
            )
        )
        if r.fill_ratio is not None:
            chart.append((r.taken_on, r.fill_ratio, r.source))
    for c in changes:
        events.append(
            TimelineEvent(
                c.created_at.date(),
                c.created_at,
                "frequency_change",
                _("Frequency: every %(days)s days from %(day)s")
                % {"days": c.to_days, "day": f"{c.effective_on:%Y-%m-%d}"},
                c.reason
                + (
                    " " + _("Withdrawn: %(reason)s") % {"reason": c.withdrawn_reason}
                    if c.withdrawn_at
                    else ""
                ),
                c.status,
                c,
                _(CHANGE_STATUS_LABELS[c.status]),
            )
        )
    for q in requirements:
        events.append(
            TimelineEvent(
                q.opened_on,
                q.opened_at,
                "requirement",
                q.get_kind_display(),
                stored_note(q.close_note),
                q.status,
                q,
                q.get_status_display(),
            )
        )
    events.sort(key=lambda e: (e.on, e.at.timestamp() if e.at else 0), reverse=True)
    chart.sort(key=lambda point: point[0])
    ctx = ProgramContext()
    return DeviceHistory(
        device=device,
        events=events,
        chart=chart,
        limit=ctx.ruleset().fill_limit_ratio,
        frequency_changes=changes if len(changes) < limit_events else None,
        # A staff user's timeline holds every manifest (``manifests_visible_to`` does not scope it).
        manifests=manifests if user.is_program_staff and len(manifests) < limit_events else None,
        readings=readings if len(readings) < limit_events else None,
    )


def chart_svg_points(history: DeviceHistory, *, width: int = 640, height: int = 200) -> dict:
    """Coordinates for the fill-ratio chart (plain SVG: no script, prints and works offline)."""
    if not history.chart:
        return {}
    first, last = history.chart[0][0], history.chart[-1][0]
    span = max((last - first).days, 1)
    top = max(max(p[1] for p in history.chart), history.limit * 2, Decimal("0.5"))

    def y(ratio: Decimal) -> float:
        return round(height - float(ratio / top) * height, 1)

    points = [
        {
            "x": round((day - first).days / span * width, 1),
            "y": y(ratio),
            "day": day,
            "percent": ratio * 100,
            "source": source,
        }
        for day, ratio, source in history.chart
    ]
    return {
        "width": width,
        "height": height,
        "points": points,
        "polyline": " ".join(f"{p['x']},{p['y']}" for p in points if p["source"] == "manifest"),
        "limit_y": y(history.limit),
        "limit_percent": history.limit * 100,
        "first": first,
        "last": last,
        "top_percent": top * 100,
    }


def holds_for_device(user, pk) -> tuple[GreaseControlDevice, list]:
    """F5: a device's litigation holds, for Town staff only (anyone else: not found)."""
    if not (user.is_authenticated and user.is_program_staff):
        raise GreaseControlDevice.DoesNotExist
    device = devices_visible_to(user).get(pk=pk)
    holds = list(LitigationHold.objects.visible_to(user).filter(device=device).select_related("placed_by"))
    return device, holds


def hold_detail(user, pk):
    return LitigationHold.objects.visible_to(user).select_related("device").get(pk=pk)


def manifest_for_purge(user, pk) -> Manifest:
    """F5: purging is Town business: staff only (anyone else: not found)."""
    if not (user.is_authenticated and user.is_program_staff):
        raise Manifest.DoesNotExist
    return manifests_visible_to(user).select_related("device").get(pk=pk)


def retention_approvals_visible_to(user):
    """Gov. Code §34090: the Town's approvals to destroy its records; Town business, staff only."""
    from fogcontrol.servicing.models import RetentionApproval

    if not (user.is_authenticated and user.is_program_staff):
        return RetentionApproval.objects.none()
    # An aggregate (GROUP BY) drops Meta.ordering, so the API's pages would come in no fixed order.
    return (
        RetentionApproval.objects.select_related("recorded_by")
        .annotate(purge_count=Count("purges"))
        .order_by("-council_resolution_date", "-pk")
    )


def purge_reports_visible_to(user):
    """F5, §34090: what each purge destroyed; staff only (anyone else: not found)."""
    from fogcontrol.servicing.models import PurgeReport

    if not (user.is_authenticated and user.is_program_staff):
        return PurgeReport.objects.none()
    return PurgeReport.objects.select_related("approval", "device", "purged_by").prefetch_related(
        "items__purged_record"
    )
