"""Calendar feeds (issue 17): a user makes a private feed, a calendar app reads it without signing
in, it holds what its owner may see (a hauler its customers' devices, an FSE its own, staff the
hearings), its events keep their UIDs from one fetch to the next, and a revoked feed is a 404."""

from __future__ import annotations

import datetime as dt
import hashlib
import re

import pytest
from django.test import Client
from icalendar import Calendar

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.enforcement.models import Hearing
from fogcontrol.enforcement.tests.helpers_orders import a_case_of_kind, a_complaint
from fogcontrol.feeds.models import FeedToken
from fogcontrol.program.selectors import town_today
from fogcontrol.servicing.models import DeviceServiceState
from fogcontrol.testing import factories
from fogcontrol.testing.queries import assert_queries_do_not_grow

pytestmark = pytest.mark.django_db


def due(device, days_from_today: int) -> DeviceServiceState:
    """The device's service state with its next service date (E4), as the nightly sweep keeps it."""
    today = town_today()
    state, _ = DeviceServiceState.objects.update_or_create(
        device=device,
        defaults={"status": "compliant", "status_on": today, "frequency_days": 90,
                  "next_due": today + dt.timedelta(days=days_from_today)},
    )  # fmt: skip
    return state


def make_feed(user, kind=FeedToken.Kind.SERVICE_DUE) -> str:
    """Make a feed on the feeds page, as its owner would; the address it shows once."""
    client = Client()
    client.force_login(user)
    response = client.post("/feeds/new/", {"kind": kind, "label": "Phone"})
    assert response.status_code == 200, response.content.decode()[:500]
    match = re.search(r'value="(http://testserver/feeds/[^"]+/calendar\.ics)"', response.content.decode())
    assert match, "the page shows the new feed's address"
    return match.group(1).removeprefix("http://testserver")


def read(path: str) -> Calendar:
    """The feed as a calendar app reads it: no session."""
    response = Client().get(path)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    return Calendar.from_ical(response.content)


def events(calendar: Calendar) -> dict[str, dt.date]:
    return {str(event["UID"]): event.decoded("DTSTART") for event in calendar.walk("VEVENT")}


def test_a_haulers_feed_holds_its_customers_devices_on_their_due_dates(town):
    due(town.own_device, 10)
    due(town.other_device, 20)  # not a customer of the hauler
    path = make_feed(town.users[Role.HAULER])
    found = events(read(path))
    assert found == {
        f"device-{town.own_device.pk}-service-due@fogcontrol": town_today() + dt.timedelta(days=10)
    }
    event = read(path).walk("VEVENT")[0]
    assert town.own_device.identifier in str(event["SUMMARY"])
    assert "Blue Plate Diner" in str(event["SUMMARY"])
    assert isinstance(event.decoded("DTSTART"), dt.date) and not isinstance(
        event.decoded("DTSTART"), dt.datetime
    )
    assert event.decoded("DTEND") == event.decoded("DTSTART") + dt.timedelta(days=1)


def test_an_fses_feed_holds_only_its_own_devices_and_staff_all(town):
    due(town.own_device, 5)
    due(town.other_device, 6)
    due(town.shared_device, 7)
    own = events(read(make_feed(town.users[Role.FSE])))
    assert set(own) == {f"device-{town.own_device.pk}-service-due@fogcontrol"}
    everything = events(read(make_feed(town.users[Role.INSPECTOR])))
    assert len(everything) == 3


def test_uids_stay_the_same_across_fetches_and_the_event_moves_with_the_date(town):
    state = due(town.own_device, 10)
    path = make_feed(town.users[Role.FSE])
    first = events(read(path))
    assert events(read(path)) == first
    state.next_due = town_today() + dt.timedelta(days=40)
    state.save()
    moved = events(read(path))
    assert set(moved) == set(first)
    assert list(moved.values()) == [town_today() + dt.timedelta(days=40)]


def test_a_revoked_feed_is_a_404(town, client):
    due(town.own_device, 10)
    fse = town.users[Role.FSE]
    path = make_feed(fse)
    client.force_login(fse)
    feed = FeedToken.objects.get(user=fse)
    page = client.post(f"/feeds/{feed.pk}/revoke/")
    assert "Feed revoked" in page.content.decode()
    assert Client().get(path).status_code == 404
    assert client.post(f"/feeds/{feed.pk}/revoke/").status_code == 409  # already revoked: said so


def test_the_token_is_stored_only_as_its_hash(town):
    path = make_feed(town.users[Role.FSE])
    raw = path.split("/")[2]
    feed = FeedToken.objects.get()
    assert feed.token_hash == hashlib.sha256(raw.encode()).hexdigest()
    assert raw not in {feed.token_hash, feed.token_prefix, feed.label}
    assert len(raw) >= 40


def test_a_feed_stops_when_its_owner_is_deactivated(town):
    fse = town.users[Role.FSE]
    path = make_feed(fse)
    fse.is_active = False
    fse.save()
    assert Client().get(path).status_code == 404


def test_staffs_hearings_feed_holds_each_hearing_on_its_date(town):
    case = a_case_of_kind(town)
    a_complaint(town, case, served_days_ago=5, hearing_after=20)
    hearing = Hearing.objects.get(case=case)
    path = make_feed(town.users[Role.HEARING_OFFICER], FeedToken.Kind.HEARINGS)
    calendar = read(path)
    assert events(calendar) == {f"hearing-{hearing.pk}@fogcontrol": hearing.scheduled_on}
    event = calendar.walk("VEVENT")[0]
    assert str(event["LOCATION"]) == "Town Hall, Council Chamber"
    assert case.establishment.business_name in str(event["SUMMARY"])
    # The FSE's own hearing is in its feed; another FSE's is not.
    assert len(events(read(make_feed(town.users[Role.FSE], FeedToken.Kind.HEARINGS)))) == 1
    other = factories.UserFactory(role=Role.FSE)
    town.other_fse.users.add(other)
    assert events(read(make_feed(other, FeedToken.Kind.HEARINGS))) == {}


def test_a_hauler_cannot_make_a_hearings_feed(town, client):
    client.force_login(town.users[Role.HAULER])
    response = client.post("/feeds/new/", {"kind": FeedToken.Kind.HEARINGS})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not FeedToken.objects.exists()
    answer = api_as(town.users[Role.HAULER]).post("/api/v1/feeds/", {"kind": "hearings"}, format="json")
    assert answer.status_code == 400
    assert "kind" in answer.json()


def test_the_api_makes_lists_and_revokes_feeds(town):
    due(town.own_device, 3)
    api = api_as(town.users[Role.FSE])
    made = api.post("/api/v1/feeds/", {"kind": "service_due", "label": "Outlook"}, format="json")
    assert made.status_code == 201
    body = made.json()
    assert body["address"].endswith("/calendar.ics") and body["active"] is True
    path = body["address"].removeprefix("http://testserver")
    assert len(events(read(path))) == 1
    listed = api.get("/api/v1/feeds/").json()
    assert [feed["id"] for feed in listed["results"]] == [body["id"]]
    assert "address" not in listed["results"][0]
    assert api_as(town.users[Role.FOG_MANAGER]).get(f"/api/v1/feeds/{body['id']}/").status_code == 404
    revoked = api.post(f"/api/v1/feeds/{body['id']}/revoke/")
    assert revoked.status_code == 200 and revoked.json()["active"] is False
    assert Client().get(path).status_code == 404
    assert api.post(f"/api/v1/feeds/{body['id']}/revoke/").status_code == 409


def test_the_account_page_offers_calendar_feeds(town, client):
    client.force_login(town.users[Role.FSE])
    page = client.get("/account/").content.decode()
    assert 'hx-get="/feeds/"' in page and 'href="/feeds/"' in page
    section = client.get("/feeds/", headers={"HX-Request": "true"}).content.decode()
    assert 'id="calendar-feeds"' in section and "<html" not in section


def test_a_feeds_queries_do_not_grow_with_its_events(town, client):
    """The feed reads its devices, their states and who they serve in a fixed number of queries."""
    path = make_feed(town.users[Role.HAULER])

    def add_rows(n):
        for _ in range(n):
            fse = factories.EstablishmentFactory()
            fse.haulers.add(town.hauler)
            due(factories.DeviceFactory(establishments=[fse], parcel=fse.parcel), 30)

    assert_queries_do_not_grow(Client(), add_rows, {path: 4}, grows=False)
