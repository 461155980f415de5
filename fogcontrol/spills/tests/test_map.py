"""The map of spills (issue 13: "pages include a map of spills, using the same map the program
uses"): the list draws one marker per spill with usable coordinates, linking to it and named by its
<title>, for the spills the filters keep; spills without usable coordinates (missing, zero, a lost
minus sign the import flagged) are counted, not drawn; a spill's page draws it and its linked FSEs."""

import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from fogcontrol.core.roles import Role
from fogcontrol.spills.models import Spill
from fogcontrol.spills.tests.helpers import fog_spill
from fogcontrol.testing.auth import force_login_verified

pytestmark = pytest.mark.django_db


def _page(town, url, role=Role.INSPECTOR, **params) -> str:
    client = Client()
    force_login_verified(client, town.users[role])
    answer = client.get(url, params)
    assert answer.status_code == 200
    return answer.content.decode()


def _markers(html: str) -> list[tuple[str, str, float, float]]:
    """(href, title, cx, cy) of each linked marker on the map."""
    found = re.findall(
        r'<a class="map-marker[^"]*" href="([^"]+)"><title>([^<]+)</title><circle cx="([\d.]+)" cy="([\d.]+)"',
        html,
    )
    return [(href, title, float(cx), float(cy)) for href, title, cx, cy in found]


@pytest.mark.provision("I1")
def test_i1_the_list_draws_one_marker_per_spill_with_usable_coordinates_linking_to_it(town):
    north = fog_spill(town, address="1 North Road", latitude=Decimal("37.56"), longitude=Decimal("-122.30"))
    south = fog_spill(town, address="2 South Road", latitude=Decimal("37.50"), longitude=Decimal("-122.31"))
    fog_spill(town, address="3 Nowhere Lane", latitude=None, longitude=None)
    fog_spill(town, address="4 Null Island", latitude=Decimal("0"), longitude=Decimal("0"))
    flagged = fog_spill(town, address="5 Lost Sign", latitude=Decimal("37.5"), longitude=Decimal("122.3"))
    Spill.objects.filter(pk=flagged.pk).update(
        flags=[{"code": "positive_longitude", "message": "Longitude 122.3 is east of Greenwich."}]
    )
    html = _page(town, reverse("spills:list"))
    markers = {href: (title, x, y) for href, title, x, y in _markers(html)}
    assert set(markers) == {f"/spills/{north.pk}/", f"/spills/{south.pk}/"}
    north_title, _, north_y = markers[f"/spills/{north.pk}/"]
    assert "1 North Road" in north_title and "Category 3" in north_title
    assert north_y < markers[f"/spills/{south.pk}/"][2]  # further north, higher on the map
    assert "3 spills have no usable coordinates and are not drawn." in html
    assert html.index('class="map"') < html.index('id="spill-list"')  # above the list
    assert 'href="#spill-list"' in html


def test_the_map_keeps_to_the_filters(town):
    fog_spill(town, address="1 Oak Street")
    grease = fog_spill(town, address="2 Elm Street", latitude=Decimal("37.6"))
    Spill.objects.filter(pk=grease.pk).update(cause="roots")
    html = _page(town, reverse("spills:list"), q="Oak")
    assert [title.split(",")[0] for _, title, _, _ in _markers(html)] == [
        "Sanitary sewer overflow at 1 Oak Street"
    ]
    client = Client()
    force_login_verified(client, town.users[Role.INSPECTOR])
    swapped = client.get(reverse("spills:list"), {"q": "Elm"}, HTTP_HX_REQUEST="true").content.decode()
    assert "<main" not in swapped  # the live search swaps #results only, the map with it
    titles = [title.split(",")[0] for _, title, _, _ in _markers(swapped)]
    assert titles == ["Sanitary sewer overflow at 2 Elm Street"]


def test_a_spills_page_draws_it_and_its_linked_fses_with_coordinates(town):
    town.own_fse.latitude, town.own_fse.longitude = Decimal("37.501"), Decimal("-122.301")
    town.own_fse.save(update_fields=["latitude", "longitude"])
    spill = fog_spill(town, links=[(town.own_fse, "upstream"), (town.other_fse, "shares the lateral")])
    town.other_fse.refresh_from_db()
    html = _page(town, reverse("spills:detail", args=[spill.pk]))
    assert [href for href, *_ in _markers(html)] == [f"/spills/{spill.pk}/"]
    fse_marker = f'<g class="map-marker map-marker--fse"><title>{town.own_fse.business_name} (linked: upstream)</title>'
    assert fse_marker in html
    expected_fses = 1 if town.other_fse.latitude is None else 2
    assert html.count('class="map-marker map-marker--fse"') == expected_fses
    assert "Linked FSE" in html  # the legend


def test_an_fse_user_sees_the_map_of_its_own_spills_only(town):
    own = fog_spill(town, address="1 Own Street", links=[(town.own_fse, "upstream")])
    fog_spill(town, address="2 Other Street", links=[(town.other_fse, "upstream")])
    html = _page(town, reverse("spills:list"), role=Role.FSE)
    assert [href for href, *_ in _markers(html)] == [f"/spills/{own.pk}/"]
