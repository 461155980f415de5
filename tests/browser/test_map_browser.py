"""The program map in a real browser (issue #17, "A map"): Leaflet, from our own static files, draws
a marker for each placed feature of the GeoJSON, with no CSP violation and no request leaving our
origin (no tiles are configured by default: the points sit on a plain background)."""

import datetime as dt
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from fogcontrol.core.roles import Role
from fogcontrol.program.selectors import town_today
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.reports.tests import records as r
from fogcontrol.servicing.models import DeviceServiceState
from fogcontrol.testing.browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI || "inline"}`);
});
"""


def _placed_town(town) -> None:
    """Two FSEs with coordinates (one with a permit in force), each device with its service state,
    and one FOG spill with coordinates: 2 establishments + 2 devices + 1 spill placed."""
    FoodServiceEstablishment.objects.filter(pk=town.own_fse.pk).update(
        latitude=Decimal("37.40"), longitude=Decimal("-122.10")
    )
    FoodServiceEstablishment.objects.filter(pk=town.other_fse.pk).update(
        latitude=Decimal("37.45"), longitude=Decimal("-122.15")
    )
    r.permit(issued=town_today(), until=town_today() + dt.timedelta(days=200), establishment=town.own_fse)
    for device, status in ((town.own_device, "overdue"), (town.other_device, "compliant")):
        DeviceServiceState.objects.update_or_create(
            device=device, defaults={"status": status, "status_on": town_today(), "frequency_days": 90}
        )
    r.spill(town, on=town_today() - dt.timedelta(days=2))


def test_the_map_draws_its_markers_from_our_own_origin_with_no_csp_violation(page, town, live_server):
    _placed_town(town)
    console: list[str] = []
    off_origin: list[str] = []
    page.add_init_script(RECORD_VIOLATIONS)
    page.on(
        "console",
        lambda message: (
            console.append(message.text)
            if "Content Security Policy" in message.text or "Refused to" in message.text
            else None
        ),
    )
    page.on("pageerror", lambda error: console.append(f"page error: {error}"))
    page.on(
        "request",
        lambda request: (
            off_origin.append(request.url)
            if not request.url.startswith(live_server.url) and not request.url.startswith("data:")
            else None
        ),
    )
    sign_in(page, town.users[Role.STAFF_READONLY].username)
    page.goto("/reports/map/")

    leaflet = page.locator("#leaflet-map")
    expect(leaflet).to_be_visible()
    expect(leaflet).to_have_attribute("data-markers", "5")
    expect(page.locator("#leaflet-map path.fog-marker")).to_have_count(5)
    expect(page.locator("#leaflet-map path.fog-marker--permit-issued")).to_have_count(1)
    expect(page.locator("#leaflet-map path.fog-marker--service-overdue")).to_have_count(1)
    expect(page.locator("#leaflet-map path.fog-marker--spill-fog")).to_have_count(1)
    expect(page.locator("#map-fallback")).to_be_hidden()
    expect(page.locator("#leaflet-status")).to_contain_text("5 points on the map")
    assert page.locator("#leaflet-map .leaflet-tile").count() == 0  # no tiles by default

    # A marker opens its popup, naming the record with a link to it.
    page.locator("#leaflet-map path.fog-marker--spill-fog").click()
    expect(page.locator(".leaflet-popup-content a")).to_have_text(
        "Sanitary sewer overflow at 100 Main Street"
    )

    # The filters reach the map: only the establishment with a permit in force and its device.
    page.goto("/reports/map/?permit_status=issued&layers=establishment&layers=device")
    expect(page.locator("#leaflet-map")).to_have_attribute("data-markers", "2")

    assert console + page.evaluate("window.__cspViolations || []") == []
    assert off_origin == []
