"""The program map (issue #17, "A map"): establishments by permit status, devices by service status
and spills, filtered by status and area; the GeoJSON export parses back with a valid geometry for
every placed feature and as many features as the lists hold; bad filters are told, never a 500; the
map page and the export take a fixed number of queries at two sizes."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.permits.models import PermitStatus
from fogcontrol.program.selectors import town_today
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogcontrol.reports.tests import records as r
from fogcontrol.servicing.models import DeviceServiceState
from fogcontrol.spills.models import Spill
from fogcontrol.testing.factories import DeviceFactory, EstablishmentFactory, ParcelFactory
from fogcontrol.testing.queries import assert_queries_do_not_grow, counted

pytestmark = pytest.mark.django_db


def place(fse, latitude="37.4", longitude="-122.1"):
    FoodServiceEstablishment.objects.filter(pk=fse.pk).update(
        latitude=Decimal(latitude), longitude=Decimal(longitude)
    )


def service(device, status: str):
    DeviceServiceState.objects.update_or_create(
        device=device, defaults={"status": status, "status_on": town_today(), "frequency_days": 90}
    )


def build_map(town):
    """The own FSE (permit in force, device overdue) at 94022; the other FSE (no permit, device
    current) in 94301; the mall's FSEs share a device over 25% and have no coordinates; a FOG spill
    in 94022 and another spill whose import flagged its coordinates."""
    place(town.own_fse, "37.40", "-122.10")
    place(town.other_fse, "37.45", "-122.15")
    other_parcel = town.other_fse.parcel
    other_parcel.postal_code = "94301"
    other_parcel.save()
    r.permit(issued=town_today() - dt.timedelta(days=10), until=town_today() + dt.timedelta(days=300),
             establishment=town.own_fse)  # fmt: skip
    service(town.own_device, "overdue")
    service(town.other_device, "compliant")
    service(town.shared_device, "over_limit")
    fog = r.spill(town, on=town_today() - dt.timedelta(days=3))
    Spill.objects.filter(pk=fog.pk).update(zip_code="94022")
    flagged = r.spill(town, on=town_today() - dt.timedelta(days=4), cause="roots")
    Spill.objects.filter(pk=flagged.pk).update(
        zip_code="94301", flags=[{"code": "positive_longitude", "message": "A lost minus sign"}]
    )


def geojson(client, **params) -> dict:
    response = client.get("/reports/map.geojson", params)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/geo+json"
    return json.loads(b"".join(response.streaming_content))


def by_layer(collection: dict) -> dict[str, list[dict]]:
    layers: dict[str, list[dict]] = {"establishment": [], "device": [], "spill": []}
    for feature in collection["features"]:
        layers[feature["properties"]["layer"]].append(feature)
    return layers


def valid_geometry(feature: dict) -> bool:
    geometry = feature["geometry"]
    if geometry is None:
        return True
    longitude, latitude = geometry["coordinates"]
    return geometry["type"] == "Point" and -180 <= longitude <= 180 and -90 <= latitude <= 90


@pytest.fixture
def manager(client, town):
    build_map(town)
    client.force_login(town.users[Role.FOG_MANAGER])
    return client


def test_the_export_parses_back_with_valid_geometry_and_as_many_features_as_the_lists(manager, town):
    collection = geojson(manager)
    assert collection["type"] == "FeatureCollection"
    assert all(feature["type"] == "Feature" and valid_geometry(feature) for feature in collection["features"])
    layers = by_layer(collection)
    active = FoodServiceEstablishment.objects.filter(status="active")
    assert len(layers["establishment"]) == active.count() == 4
    page = manager.get("/reports/map/")
    assert page.context["page"].paginator.count == len(layers["establishment"])
    assert len(layers["device"]) == GreaseControlDevice.objects.filter(status="active").count() == 3
    spills = manager.get("/spills/")
    assert len(layers["spill"]) == spills.context["page"].paginator.count == 2
    ids = {feature["id"] for feature in collection["features"]}
    assert len(ids) == len(collection["features"])  # every feature its own id


def test_features_carry_their_status_ids_and_names(manager, town):
    layers = by_layer(geojson(manager))
    own = next(f for f in layers["establishment"] if f["properties"]["id"] == town.own_fse.pk)
    assert own["geometry"] == {"type": "Point", "coordinates": [-122.1, 37.4]}
    assert own["properties"]["name"] == "Blue Plate Diner"
    assert own["properties"]["permit_status"] == "issued"
    assert own["properties"]["service_status"] == "overdue"
    other = next(f for f in layers["establishment"] if f["properties"]["id"] == town.other_fse.pk)
    assert other["properties"]["permit_status"] == "none"
    assert other["properties"]["service_status"] == "compliant"
    shared = next(f for f in layers["device"] if f["properties"]["id"] == town.shared_device.pk)
    assert shared["properties"]["service_status"] == "over_limit"
    assert shared["properties"]["service_status_label"] == "Over 25% (E3)"
    assert shared["geometry"] is None  # its establishments have no coordinates: counted, not guessed
    device = next(f for f in layers["device"] if f["properties"]["id"] == town.own_device.pk)
    assert device["geometry"]["coordinates"] == [-122.1, 37.4]  # at the establishment it serves
    assert device["properties"]["establishment_id"] == town.own_fse.pk
    spill_geometries = {f["properties"]["cause"]: f["geometry"] for f in layers["spill"]}
    assert spill_geometries["grease"]["type"] == "Point"
    assert spill_geometries["roots"] is None  # the import flagged its coordinates


def _ids(collection, layer):
    return {f["properties"]["id"] for f in by_layer(collection)[layer]}


def test_filters_by_permit_status_service_status_area_and_cause(manager, town):
    issued = geojson(manager, permit_status=PermitStatus.ISSUED)
    assert _ids(issued, "establishment") == {town.own_fse.pk}
    assert _ids(issued, "device") == {town.own_device.pk}
    none = geojson(manager, permit_status="none", layers="establishment")
    assert _ids(none, "establishment") == {town.other_fse.pk, *(f.pk for f in town.mall_fses)}
    assert _ids(none, "spill") == set()
    overdue = geojson(manager, service_status="overdue")
    assert _ids(overdue, "establishment") == {town.own_fse.pk}
    assert _ids(overdue, "device") == {town.own_device.pk}
    area = geojson(manager, area="94301")
    assert _ids(area, "establishment") == {town.other_fse.pk}
    assert _ids(area, "device") == {town.other_device.pk}
    assert {f["properties"]["cause"] for f in by_layer(area)["spill"]} == {"roots"}
    fog = geojson(manager, spill_cause="fog", layers="spill")
    assert [f["properties"]["fog_caused"] for f in fog["features"]] == [True]


def test_the_map_page_shows_the_table_the_legend_and_the_script_from_our_own_static_files(manager, town):
    response = manager.get("/reports/map/", {"permit_status": "issued"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "/static/leaflet/leaflet.js" in page and "/static/reports/map.js" in page
    assert 'data-geojson="/reports/map.geojson?permit_status=issued"' in page
    assert "data-tile-url" not in page
    assert "Blue Plate Diner" in page and "Golden Wok" not in page
    assert "Over 25% (E3)" in page  # the key
    assert "img-src 'self'" in response["Content-Security-Policy"]
    spills_only = manager.get("/reports/map/", {"layers": "spill"}).content.decode()
    assert "Establishments are not shown" in spills_only and "Blue Plate Diner" not in spills_only


@override_settings(
    FOGCONTROL_MAP_TILE_URL="https://{s}.tiles.example.org/{z}/{x}/{y}.png",
    FOGCONTROL_MAP_TILE_ATTRIBUTION="© Example contributors",
)
def test_a_tile_server_set_by_the_town_is_allowed_on_the_map_page_only(manager):
    response = manager.get("/reports/map/")
    assert 'data-tile-url="https://{s}.tiles.example.org/{z}/{x}/{y}.png"' in response.content.decode()
    assert "img-src 'self' https://*.tiles.example.org" in response["Content-Security-Policy"]
    other = manager.get("/reports/annual/")
    assert "tiles.example.org" not in other["Content-Security-Policy"]


@pytest.mark.parametrize(
    "params, message",
    [
        ({"permit_status": "bogus"}, "Select a valid choice"),
        ({"area": "99999"}, "Select a valid choice"),
        ({"spills_from": "2025-13-01"}, "Enter a valid date"),
        ({"spills_from": "2025-06-01", "spills_to": "2025-01-01"}, "swap the two dates"),
    ],
)
def test_bad_filters_are_told_on_the_page_the_export_and_the_api(manager, town, params, message):
    page = manager.get("/reports/map/", params)
    assert page.status_code == 400 and message in page.content.decode()
    export = manager.get("/reports/map.geojson", params)
    assert export.status_code == 400 and message in export.content.decode()
    api = api_as(town.users[Role.FOG_MANAGER]).get("/api/v1/map/features/", params)
    assert api.status_code == 400 and message in json.dumps(api.json())


def test_the_api_streams_the_same_collection(manager, town):
    response = api_as(town.users[Role.STAFF_READONLY]).get("/api/v1/map/features/", {"area": "94022"})
    assert response.status_code == 200
    collection = json.loads(b"".join(response.streaming_content))
    assert collection == geojson(manager, area="94022")


def _add_rows(count: int) -> None:
    for _ in range(count):
        parcel = ParcelFactory()
        fse = EstablishmentFactory(parcel=parcel, latitude=Decimal("37.41"), longitude=Decimal("-122.11"))
        r.permit(issued=town_today(), until=town_today() + dt.timedelta(days=100), establishment=fse)
        device = DeviceFactory(establishments=[fse], parcel=parcel)
        service(device, "due_soon")
        Spill.objects.create(
            kind="sso", address="1 Elm Street", cause="grease", category="2", recorded_by_label="test",
            latitude=Decimal("37.42"), longitude=Decimal("-122.12"), zip_code="94022",
        )  # fmt: skip


def test_the_map_page_takes_the_same_queries_at_two_sizes(client, town):
    client.force_login(town.users[Role.STAFF_READONLY])
    assert_queries_do_not_grow(client, _add_rows, {"/reports/map/": 9})


def _export_queries(client) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as queries:
        collection = geojson(client)
    return len(counted(queries.captured_queries)), len(collection["features"])


def test_the_export_takes_the_same_queries_at_two_sizes(client, town):
    """Streamed: the layers are read as the answer is written (one query each), so the count is
    taken while the whole answer is read."""
    client.force_login(town.users[Role.STAFF_READONLY])
    _add_rows(2)
    geojson(client)
    small, few = _export_queries(client)
    _add_rows(5)
    large, many = _export_queries(client)
    assert many == few + 15
    assert small == large == 9
