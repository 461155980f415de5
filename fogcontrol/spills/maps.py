"""Spills as points of the program's map (core/maps.py): each spill marked by the State's category,
those whose coordinates the import flagged as impossible (zero, a lost minus sign) left off and
counted, never moved to a guessed place."""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone

from fogcontrol.core.maps import MapPoint, usable
from fogcontrol.rules.spills import CATEGORY_LABELS
from fogcontrol.spills.models import Spill

# Flags (spills/imports/ciwqs.py) that say the coordinates kept are no place to draw.
IMPOSSIBLE_COORDINATES = frozenset({"zero_coordinates", "positive_longitude"})
# Markers drawn on the list: the newest this many of the matching spills (the list holds them all).
LIST_LIMIT = 1000
FIELDS = (
    "pk",
    "latitude",
    "longitude",
    "flags",
    "category",
    "kind",
    "address",
    "location_name",
    "started_at",
)


def _label(row: dict) -> str:
    where = row["address"] or row["location_name"] or "unknown place"
    kind = Spill.Kind(row["kind"]).label
    started = f", {timezone.localtime(row['started_at']):%b %-d, %Y}" if row["started_at"] else ""
    return f"{kind} at {where}{started} ({CATEGORY_LABELS.get(row['category'], 'no category')})"


def _point(row: dict) -> MapPoint:
    flagged = any(flag.get("code") in IMPOSSIBLE_COORDINATES for flag in row["flags"] or [])
    return MapPoint(
        latitude=row["latitude"],
        longitude=row["longitude"],
        label=_label(row),
        url=reverse("spills:detail", args=[row["pk"]]),
        kind=f"c{row['category']}",
        kind_label=CATEGORY_LABELS.get(row["category"], ""),
        usable=not flagged,
    )


def list_points(rows) -> list[MapPoint]:
    """The filtered spills (a queryset), newest first, in one query."""
    values = rows.prefetch_related(None).select_related(None).values(*FIELDS)[:LIST_LIMIT]
    return [_point(row) for row in values]


def detail_points(spill: Spill) -> list[MapPoint]:
    """A spill and the FSEs linked to it that have coordinates (links prefetched: no query). An FSE's
    marker is not a link: the user may not see every linked FSE's page (the card lists them)."""
    points = [_point({name: getattr(spill, name) for name in FIELDS})]
    for link in spill.links.all():
        fse = link.establishment
        point = MapPoint(
            latitude=fse.latitude,
            longitude=fse.longitude,
            label=f"{fse.business_name} (linked: {link.reason})",
            kind="fse",
            kind_label="Linked FSE",
        )
        if usable(point):
            points.append(point)
    return points
