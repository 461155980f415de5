"""The program's map, drawn on the server as an inline SVG: no tiles, no script, nothing fetched.

An app turns its records into `MapPoint`s (latitude, longitude, label, url, kind) and a page draws
them with `{% load maps %}{% map points caption="…" noun="spill" %}` (core/templatetags/maps.py,
core/templates/core/components/map.html). `plot` fits an equirectangular projection to the points'
bounding box with padding (longitudes shrunk by the cosine of the middle latitude, so distances
read the same both ways; north is up), adds a scale bar and a north arrow, and leaves off, counted,
every point without usable coordinates: missing, zero, off the globe, or marked `usable=False` by the
app (coordinates its import flagged as impossible). A point's `kind` becomes the marker's class
(`map-marker--<kind>`, styled in static/fogcontrol/app.css); `context=True` draws it faint, behind
the others, and unlinked if it has no url (the registry's establishments around a spill).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal

KM_PER_DEGREE = 111.32
# A single point (or points on one spot) still gets a map about this many degrees across (~1 km).
MIN_SPAN = 0.01
NICE_STEPS = (1, 2, 5)


@dataclass(frozen=True)
class MapPoint:
    latitude: Decimal | float | None
    longitude: Decimal | float | None
    label: str
    url: str = ""
    kind: str = ""
    kind_label: str = ""
    context: bool = False
    usable: bool = True


@dataclass(frozen=True)
class Marker:
    x: float
    y: float
    label: str
    url: str
    kind: str
    context: bool

    @property
    def left(self) -> float:  # a context point's square, centred on the place
        return round(self.x - 4, 1)

    @property
    def top(self) -> float:
        return round(self.y - 4, 1)


@dataclass
class MapPlot:
    width: int
    height: int
    markers: list[Marker] = field(default_factory=list)
    unplaced: int = 0
    scale_km: float = 0.0
    scale_px: float = 0.0
    legend: list[tuple[str, str]] = field(default_factory=list)

    @property
    def scale_label(self) -> str:
        if self.scale_km < 1:
            return f"{round(self.scale_km * 1000):,} m"
        return f"{self.scale_km:,.0f} km"


def usable(point: MapPoint) -> bool:
    """A place on the map: both coordinates given, neither zero, on the globe, not flagged."""
    if not point.usable or point.latitude is None or point.longitude is None:
        return False
    latitude, longitude = float(point.latitude), float(point.longitude)
    if latitude == 0 or longitude == 0:
        return False
    return -90 <= latitude <= 90 and -180 <= longitude <= 180


def _nice_length(km: float) -> float:
    """The largest 1, 2 or 5 × 10ⁿ km not above `km`."""
    if km <= 0:
        return 0.0
    power = 10 ** math.floor(math.log10(km))
    return max(step * power for step in NICE_STEPS if step * power <= km)


def plot(points, *, width: int = 640, height: int = 360, padding: int = 24) -> MapPlot:
    """Fit the usable points into width × height (pixels, padding inside); count the others. Context
    points that fall outside the main points' box are left off without being counted."""
    points = list(points)
    placed = [p for p in points if usable(p) and not p.context]
    result = MapPlot(width=width, height=height)
    result.unplaced = sum(1 for p in points if not p.context and not usable(p))
    if not placed:
        return result
    lats = [float(p.latitude) for p in placed]
    lons = [float(p.longitude) for p in placed]
    south, north, west, east = min(lats), max(lats), min(lons), max(lons)
    middle = (south + north) / 2
    shrink = max(math.cos(math.radians(middle)), 0.01)
    # Spans in "north-south degrees": a longitude degree is shorter by the cosine.
    span_x = max((east - west) * shrink, MIN_SPAN)
    span_y = max(north - south, MIN_SPAN)
    inner_w, inner_h = width - 2 * padding, height - 2 * padding
    scale = min(inner_w / span_x, inner_h / span_y)  # pixels per degree of latitude
    centre_lon, centre_lat = (west + east) / 2, middle

    def project(latitude: float, longitude: float) -> tuple[float, float]:
        x = width / 2 + (longitude - centre_lon) * shrink * scale
        y = height / 2 - (latitude - centre_lat) * scale
        return round(x, 1), round(y, 1)

    kinds: dict[str, str] = {}
    for point in sorted((p for p in points if usable(p)), key=lambda p: not p.context):
        x, y = project(float(point.latitude), float(point.longitude))
        if point.context and not (0 <= x <= width and 0 <= y <= height):
            continue
        result.markers.append(Marker(x, y, point.label, point.url, point.kind, point.context))
        if point.kind and point.kind not in kinds:
            kinds[point.kind] = point.kind_label or point.kind
    result.legend = sorted(kinds.items())
    km_per_px = KM_PER_DEGREE / scale
    result.scale_km = _nice_length(km_per_px * width / 4)
    result.scale_px = round(result.scale_km / km_per_px, 1)
    return result
