"""The program's map (core/maps.py, core/components/map.html): drawn on the server, nothing fetched;
each usable point a marker linking to its record and named by its <title>; points without usable
coordinates counted, not drawn; the projection keeps places where they lie (north is up)."""

import re
from decimal import Decimal

from django.template import Context, Template

from fogcontrol.core.maps import MapPoint, plot


def _render(points, **kwargs) -> str:
    args = " ".join(f'{name}="{value}"' for name, value in kwargs.items())
    return Template("{% load maps %}{% map points " + args + " %}").render(Context({"points": points}))


def _point(lat, lon, label="A spill", url="/spills/1/", kind="c3", **extra):
    return MapPoint(latitude=lat, longitude=lon, label=label, url=url, kind=kind, **extra)


def test_a_point_further_north_is_drawn_higher_and_one_further_east_to_the_right():
    south_west, north_east = _point(37.50, -122.40), _point(37.60, -122.20)
    drawn = plot([south_west, north_east])
    low, high = drawn.markers
    assert high.y < low.y and high.x > low.x
    assert all(0 <= m.x <= drawn.width and 0 <= m.y <= drawn.height for m in drawn.markers)


def test_the_projection_keeps_relative_positions_of_three_places():
    west, middle, east = _point(37.5, -122.3), _point(37.55, -122.2), _point(37.52, -122.1)
    xs = [m.x for m in plot([west, middle, east]).markers]
    ys = [m.y for m in plot([west, middle, east]).markers]
    assert xs == sorted(xs)  # west to east, left to right
    assert ys[1] < ys[2] < ys[0]  # the northernmost highest


def test_missing_zero_off_the_globe_and_flagged_coordinates_are_counted_not_drawn():
    points = [
        _point(Decimal("37.5"), Decimal("-122.3")),
        _point(None, None),
        _point(Decimal("0"), Decimal("0")),
        _point(Decimal("37.5"), Decimal("0")),
        _point(Decimal("95"), Decimal("-122.3")),
        _point(Decimal("37.5"), Decimal("122.3"), usable=False),
    ]
    drawn = plot(points)
    assert len(drawn.markers) == 1 and drawn.unplaced == 5
    html = _render(points, caption="Spills", noun="spill")
    assert html.count("<circle") == 1
    assert "5 spills have no usable coordinates and are not drawn." in html


def test_one_point_gets_a_map_around_it_with_a_scale_and_no_points_say_so():
    drawn = plot([_point(37.5, -122.3)])
    (marker,) = drawn.markers
    assert (marker.x, marker.y) == (drawn.width / 2, drawn.height / 2)
    assert drawn.scale_km > 0 and 0 < drawn.scale_px < drawn.width
    html = _render([_point(None, -122.3)], caption="Spills", noun="spill")
    assert "<svg" not in html
    assert "no spill here has usable coordinates" in html and "1 spill has no usable coordinates" in html


def test_the_scale_bar_measures_the_map():
    # 0.1° of latitude is 11.1 km: on a map 0.1° tall the bar is a round length of a few km.
    drawn = plot([_point(37.5, -122.3), _point(37.6, -122.3)], width=400, height=400, padding=0)
    assert drawn.scale_label in {"1 km", "2 km", "5 km", "10 km"}
    km_per_px = 11.132 / 400
    assert abs(drawn.scale_px * km_per_px - drawn.scale_km) < 0.05


def test_each_marker_is_a_link_named_by_its_title_in_a_captioned_figure():
    html = _render(
        [_point(37.5, -122.3, label="SSO at 1 Main St", url="/spills/1/"),
         _point(37.6, -122.2, label="SSO at 2 Oak Ave", url="/spills/2/", kind="c1", kind_label="Category 1")],
        caption="Map of spills", noun="spill", skip_to="spill-list",
    )  # fmt: skip
    assert re.search(
        r'<a class="map-marker map-marker--c3" href="/spills/1/"><title>SSO at 1 Main St</title><circle', html
    )
    assert re.search(
        r'<a class="map-marker map-marker--c1" href="/spills/2/"><title>SSO at 2 Oak Ave</title>', html
    )
    assert '<figcaption id="map-caption">Map of spills' in html and 'aria-labelledby="map-caption"' in html
    assert 'href="#spill-list"' in html  # a keyboard user may skip the markers to the list
    assert "Category 1" in html  # the legend says what a colour means
    assert (
        "style=" not in html
        and "<script" not in html
        and "http" not in html.replace("http://www.w3.org/2000/svg", "")
    )  # CSP: no inline style or script; nothing fetched


def test_context_points_are_faint_squares_not_counted_when_unusable():
    points = [
        _point(37.5, -122.3),
        _point(37.5005, -122.3005, url="", kind="", context=True),
        _point(None, None, context=True),
    ]
    drawn = plot(points)
    assert drawn.unplaced == 0 and len(drawn.markers) == 2
    html = _render(points, caption="Spill", noun="spill")
    assert 'class="map-marker map-marker--context"><title>' in html and "<rect x=" in html
