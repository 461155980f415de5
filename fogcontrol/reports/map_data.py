"""What the program map shows (issue #17, "A map"): establishments coloured by their permit status,
devices by their service status (E1-E4: current, due soon, overdue, over 25%, never serviced), and
spills (I1), each filtered by status and by area (the ZIP code). One query per layer, scoped to the
user (`visible_to`), for the map page, its GeoJSON export and its API alike.

The places come from the records' coordinates, judged as the server-drawn map judges them
(`core.maps.usable`; a spill whose import flagged its coordinates as impossible is left unplaced,
`spills.maps.IMPOSSIBLE_COORDINATES`). A device has no coordinates of its own: it is drawn at the
establishment it serves (the lowest id among those with coordinates, else the lowest id).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Case, Exists, IntegerField, Min, OuterRef, Q, QuerySet, Subquery, Value, When
from django.urls import reverse
from django.utils import timezone

from fogcontrol.core.maps import MapPoint, usable
from fogcontrol.permits.models import Permit, PermitStatus
from fogcontrol.permits.selectors import latest_permits_first
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice, Parcel
from fogcontrol.registry.selectors import devices_visible_to, establishments_visible_to
from fogcontrol.rules import devices as device_rules
from fogcontrol.rules.spills import CATEGORY_LABELS, CAUSE_GREASE, CAUSES
from fogcontrol.servicing.models import DeviceServiceState
from fogcontrol.spills.maps import IMPOSSIBLE_COORDINATES
from fogcontrol.spills.models import Spill
from fogcontrol.spills.selectors import spills_visible_to

LAYERS = {"establishment": "Establishments", "device": "Devices", "spill": "Spills"}

# E1-E4 in the words of the program; the order is the worst first (an FSE takes its worst device's).
SERVICE_STATUSES = {
    device_rules.STATUS_OVER_LIMIT: "Over 25% (E3)",
    device_rules.STATUS_OVERDUE: "Overdue",
    device_rules.STATUS_NEVER_SERVICED: "Never serviced",
    device_rules.STATUS_DUE_SOON: "Due soon",
    device_rules.STATUS_COMPLIANT: "Current",
}
NO_PERMIT = "none"
PERMIT_STATUSES = {
    PermitStatus.ISSUED: "In force",
    PermitStatus.EXPIRED: "Expired",
    PermitStatus.SUSPENDED: "Suspended",
    PermitStatus.REVOKED: "Revoked",
    NO_PERMIT: "No permit",
}
SPILL_CAUSES = {"fog": "Caused by FOG", "other": "Other causes"}


@dataclass(frozen=True)
class MapFilters:
    """The filters of the map, its export and its API (``reports.forms.MapFilterForm`` cleans them)."""

    layers: tuple[str, ...] = tuple(LAYERS)
    service_status: str = ""
    permit_status: str = ""
    area: str = ""
    spill_cause: str = ""
    spills_from: object = None  # a date, or None
    spills_to: object = None


def areas() -> list[str]:
    """The ZIP codes the map can be narrowed to: those of the parcels and of the spills (two queries)."""
    parcels = (
        Parcel.objects.exclude(postal_code="").order_by().values_list("postal_code", flat=True).distinct()
    )
    spills = Spill.objects.exclude(zip_code="").order_by().values_list("zip_code", flat=True).distinct()
    return sorted(set(parcels) | set(spills))


def _worst_service_rank():
    ranks = [
        When(**{"devices__service_state__status": s}, then=Value(i)) for i, s in enumerate(SERVICE_STATUSES)
    ]
    return Min(
        Case(*ranks, default=Value(None), output_field=IntegerField()),
        filter=Q(devices__status=GreaseControlDevice.Status.ACTIVE),
    )


def _latest_permit_status():
    return latest_permits_first(Permit.objects.filter(establishment=OuterRef("pk")))


def establishment_rows(user, filters: MapFilters) -> QuerySet[FoodServiceEstablishment]:
    """Active establishments with their permit status (the latest permit not superseded) and their
    worst device's service status, narrowed by the filters."""
    latest = _latest_permit_status()
    rows = (
        establishments_visible_to(user)
        .filter(status=FoodServiceEstablishment.Status.ACTIVE)
        .annotate(
            permit_status=latest.values("status")[:1],
            permit_number=latest.values("number")[:1],
            zip_code=Subquery(Parcel.objects.filter(pk=OuterRef("parcel_id")).values("postal_code")[:1]),
        )
        .order_by("business_name", "pk")
    )
    if filters.permit_status == NO_PERMIT:
        rows = rows.filter(permit_status__isnull=True)
    elif filters.permit_status:
        rows = rows.filter(permit_status=filters.permit_status)
    if filters.service_status:
        state = DeviceServiceState.objects.filter(
            device__establishments=OuterRef("pk"),
            device__status=GreaseControlDevice.Status.ACTIVE,
            status=filters.service_status,
        )
        rows = rows.filter(Exists(state))
    if filters.area:
        rows = rows.filter(parcel__postal_code=filters.area)
    # The aggregate last: the filters above stay WHERE clauses, not HAVING.
    return rows.annotate(worst_rank=_worst_service_rank()).values(
        "pk",
        "business_name",
        "site_address",
        "licence_number",
        "latitude",
        "longitude",
        "permit_status",
        "permit_number",
        "zip_code",
        "worst_rank",
    )


def device_rows(user, filters: MapFilters):
    """Active devices with their service status, placed at the establishment they serve."""
    served = FoodServiceEstablishment.objects.filter(devices=OuterRef("pk")).order_by(
        Case(When(latitude__isnull=True, then=Value(1)), default=Value(0)), "pk"
    )
    rows = (
        devices_visible_to(user)
        .filter(status=GreaseControlDevice.Status.ACTIVE)
        .annotate(
            at_id=served.values("pk")[:1],
            at_name=served.values("business_name")[:1],
            latitude=served.values("latitude")[:1],
            longitude=served.values("longitude")[:1],
            zip_code=served.values("parcel__postal_code")[:1],
        )
        .order_by("identifier", "pk")
    )
    if filters.service_status:
        rows = rows.filter(service_state__status=filters.service_status)
    if filters.permit_status:
        places = establishment_rows(user, MapFilters(permit_status=filters.permit_status)).values("pk")
        rows = rows.filter(at_id__in=places)
    if filters.area:
        rows = rows.filter(zip_code=filters.area)
    return rows.values(
        "pk",
        "identifier",
        "kind",
        "capacity_gallons",
        "service_state__status",
        "service_state__next_due",
        "at_id",
        "at_name",
        "latitude",
        "longitude",
        "zip_code",
    )


def spill_rows(user, filters: MapFilters):
    rows = spills_visible_to(user).order_by("-started_at", "-pk")
    if filters.spill_cause == "fog":
        rows = rows.filter(cause=CAUSE_GREASE)
    elif filters.spill_cause == "other":
        rows = rows.exclude(cause=CAUSE_GREASE)
    if filters.spills_from:
        rows = rows.filter(started_at__date__gte=filters.spills_from)
    if filters.spills_to:
        rows = rows.filter(started_at__date__lte=filters.spills_to)
    if filters.area:
        rows = rows.filter(zip_code=filters.area)
    return rows.values(
        "pk",
        "kind",
        "category",
        "cause",
        "address",
        "location_name",
        "zip_code",
        "started_at",
        "latitude",
        "longitude",
        "flags",
        "volume_spilled",
    )


def service_status_of_rank(rank) -> str:
    return "" if rank is None else list(SERVICE_STATUSES)[rank]


def _coordinates(latitude, longitude, *, flagged: bool = False) -> list[float] | None:
    point = MapPoint(latitude=latitude, longitude=longitude, label="", usable=not flagged)
    return [float(longitude), float(latitude)] if usable(point) else None


def establishment_feature(row: dict) -> dict:
    status = row["permit_status"] or NO_PERMIT
    service = service_status_of_rank(row["worst_rank"])
    return _feature(
        f"establishment-{row['pk']}",
        _coordinates(row["latitude"], row["longitude"]),
        {
            "layer": "establishment",
            "id": row["pk"],
            "name": row["business_name"],
            "address": row["site_address"],
            "licence_number": row["licence_number"],
            "zip_code": row["zip_code"] or "",
            "permit_status": status,
            "permit_status_label": PERMIT_STATUSES.get(status, status),
            "permit_number": row["permit_number"] or "",
            "service_status": service,
            "service_status_label": SERVICE_STATUSES.get(service, "No device"),
            "url": reverse("registry:establishment_detail", args=[row["pk"]]),
        },
    )


def device_feature(row: dict) -> dict:
    status = row["service_state__status"] or device_rules.STATUS_NEVER_SERVICED
    due = row["service_state__next_due"]
    return _feature(
        f"device-{row['pk']}",
        _coordinates(row["latitude"], row["longitude"]),
        {
            "layer": "device",
            "id": row["pk"],
            "name": row["identifier"],
            "kind": row["kind"],
            "capacity_gallons": row["capacity_gallons"],
            "service_status": status,
            "service_status_label": SERVICE_STATUSES.get(status, status),
            "next_due": due.isoformat() if due else None,
            "establishment_id": row["at_id"],
            "establishment_name": row["at_name"] or "",
            "zip_code": row["zip_code"] or "",
            "url": reverse("registry:device_detail", args=[row["pk"]]),
        },
    )


def spill_feature(row: dict) -> dict:
    flagged = any(flag.get("code") in IMPOSSIBLE_COORDINATES for flag in row["flags"] or [])
    started = timezone.localtime(row["started_at"]).isoformat() if row["started_at"] else None
    fog = row["cause"] == CAUSE_GREASE
    return _feature(
        f"spill-{row['pk']}",
        _coordinates(row["latitude"], row["longitude"], flagged=flagged),
        {
            "layer": "spill",
            "id": row["pk"],
            "name": f"{Spill.Kind(row['kind']).label} at {row['address'] or row['location_name'] or 'unknown place'}",
            "kind": row["kind"],
            "category": row["category"],
            "category_label": CATEGORY_LABELS.get(row["category"], ""),
            "cause": row["cause"],
            "cause_label": CAUSES.get(row["cause"], row["cause"]),
            "fog_caused": fog,
            "status": "fog" if fog else "other",
            "started_at": started,
            "volume_spilled": float(row["volume_spilled"]) if row["volume_spilled"] is not None else None,
            "zip_code": row["zip_code"],
            "url": reverse("spills:detail", args=[row["pk"]]),
        },
    )


def establishment_point(row: dict) -> MapPoint:
    """An establishment on the server-drawn map (the fallback without script)."""
    status = row["permit_status"] or NO_PERMIT
    words = PERMIT_STATUSES.get(status, status).lower()
    return MapPoint(
        latitude=row["latitude"],
        longitude=row["longitude"],
        label=f"{row['business_name']}: permit {words}",
        url=reverse("registry:establishment_detail", args=[row["pk"]]),
        kind=f"permit-{status}",
        kind_label=f"Establishment, permit {words}",
    )


def spill_point(row: dict) -> MapPoint:
    feature = spill_feature(row)
    properties = feature["properties"]
    return MapPoint(
        latitude=row["latitude"],
        longitude=row["longitude"],
        label=properties["name"],
        url=properties["url"],
        kind=f"spill-{properties['status']}",
        kind_label="Spill caused by FOG" if properties["fog_caused"] else "Spill, other cause",
        usable=feature["geometry"] is not None,
    )


def _feature(ident: str, coordinates, properties: dict) -> dict:
    geometry = {"type": "Point", "coordinates": coordinates} if coordinates else None
    return {"type": "Feature", "id": ident, "geometry": geometry, "properties": properties}


def features(user, filters: MapFilters):
    """Every feature the filters select, layer by layer (one query each), as GeoJSON dicts; a
    record without usable coordinates has a null geometry (it is counted, never guessed)."""
    if "establishment" in filters.layers:
        for row in establishment_rows(user, filters).iterator(chunk_size=2000):
            yield establishment_feature(row)
    if "device" in filters.layers:
        for row in device_rows(user, filters).iterator(chunk_size=2000):
            yield device_feature(row)
    if "spill" in filters.layers:
        for row in spill_rows(user, filters).iterator(chunk_size=2000):
            yield spill_feature(row)
