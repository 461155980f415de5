"""Accessibility basics on every page each role reaches (issue 9, "Templates"): a skip link to the
main content, the current page marked in the menu, a caption on every table, a label on every
control, and a field's error tied to the field, so a screen reader says which field is wrong.
The same crawl finds any inline script or style, which the CSP refuses (issue 15).

The pages are those the crawl kit reaches from the home page (`fogcontrol.testing.crawl`), plus the
pages whose forms only show with open work on them (flags, requirements, a draft's fixture table).
"""

import datetime as dt
import re
from decimal import Decimal
from urllib.parse import urlsplit

import pytest

from fogcontrol.core.roles import Role
from fogcontrol.permits import services as permit_services
from fogcontrol.permits.tests.conftest import B3_ANSWERS, FIXTURES
from fogcontrol.permits.tests.factories import PermitFactory, fee_schedule
from fogcontrol.servicing.models import ServiceRequirement
from fogcontrol.servicing.tests.helpers import days_ago, submit
from fogcontrol.spills.tests.helpers import fog_spill
from fogcontrol.testing.crawl import CrawlSession, crawl, parse_page

MAIN_MENU = "Main"
API_PAGES = "/api/"


@pytest.fixture
def busy_town(town):
    """The root `town` with work on it: permits, a draft application, a flag and requirements."""
    fee_schedule()
    draft = permit_services.application_create(
        acting_user=town.users[Role.FSE], establishment=town.own_fse, fixtures=FIXTURES, **B3_ANSWERS
    )
    PermitFactory(number="FOG-2025-00201", establishment=town.mall_fses[0], device=town.shared_device)
    hauler = town.users[Role.HAULER]
    submit(hauler, town.own_device, serviced_at=days_ago(40), baffles_cleaned=False)
    submit(hauler, town.own_device, serviced_at=days_ago(5), fog_depth_in=Decimal("12"),
           solids_depth_in=Decimal("10"))  # fmt: skip
    ServiceRequirement.objects.create(
        device=town.other_device,
        kind=ServiceRequirement.Kind.INTERCEPTOR_PLANS,
        provision="E8",
        opened_on=dt.date.today() - dt.timedelta(days=3),
    )
    town.draft = draft
    return town


def _extra_pages(town, role):
    """Pages with forms the crawl may not reach with one page per route."""
    if role == Role.FOG_MANAGER:
        return ["/servicing/flags/", "/servicing/requirements/"]
    if role == Role.FSE:
        return [f"/permits/applications/{town.draft.pk}/edit/"]
    return []


def _page_problems(path, parts):
    problems = []
    target = parts.first_link
    if not (target.startswith("#") and target[1:] in parts.ids):
        problems.append(f"{path}: the first link is {target!r}, not a skip link to an element on the page")
    menus = [links for label, links in parts.navs if label == MAIN_MENU]
    if len(menus) != 1:
        problems.append(f"{path}: {len(menus)} main menus")
    else:
        here = urlsplit(path).path
        marked = [(href, value) for href, value in menus[0] if value]
        if here in [href for href, _value in menus[0]] and marked != [(here, "page")]:
            problems.append(f"{path}: the menu marks {marked} as current, not {here} alone")
        elif len(marked) > 1:
            problems.append(f"{path}: the menu marks {len(marked)} items as current")
    for label, links in parts.navs:
        if len([href for href, value in links if value == "page"]) > 1:
            problems.append(f"{path}: the {label!r} menu marks more than one link as the current page")
    problems += [f"{path}: a table without a caption (first header {h!r})" for h in parts.uncaptioned_tables]
    problems += [f"{path}: a control without a label: {control}" for control in parts.unlabelled]
    return problems


def test_every_page_each_role_reaches_has_a_skip_link_a_current_menu_item_captions_and_labels(
    client, busy_town
):
    """...and no inline script or style, which the Content-Security-Policy would refuse (issue 15):
    a handler or style written into a page would silently stop working for every user."""
    session = CrawlSession()
    problems = []
    for role in Role:
        client.force_login(busy_town.users[role])
        result = crawl(client, role=role.value, session=session, cap=120, pages_per_route=1)
        pages = dict(result.pages)
        for path in _extra_pages(busy_town, role):
            response = client.get(path)
            assert response.status_code == 200, path
            pages[path] = parse_page(response.content.decode())
        assert len(pages) > 3, (role, list(pages))
        for path, parts in pages.items():
            problems += [f"[{role.value}] {path}: {inline}" for inline in parts.inline]
            if path.startswith(API_PAGES):
                continue  # the API's documentation is Swagger UI's own page, not ours
            problems += [f"[{role.value}] {problem}" for problem in _page_problems(path, parts)]
        client.logout()
    assert not problems, "\n".join(problems)


def _main_menu_links(client):
    parts = parse_page(client.get("/").content.decode())
    menus = [links for label, links in parts.navs if label == MAIN_MENU]
    assert len(menus) == 1, parts.navs
    return [href for href, _current in menus[0]]


def test_the_menu_shows_each_role_only_pages_it_may_open(client, busy_town):
    """No 403 or 404 behind a menu link, for any role; each role has more than its home."""
    failures = []
    for role in Role:
        client.force_login(busy_town.users[role])
        links = _main_menu_links(client)
        assert len(links) > 3, (role, links)
        for href in links:
            status = client.get(href).status_code
            if status != 200:
                failures.append(f"[{role.value}] the menu links {href}, which answers {status}")
        client.logout()
    assert not failures, "\n".join(failures)


def test_outside_users_are_not_shown_staff_pages_in_the_menu(client, busy_town):
    for role in (Role.FSE, Role.PROPERTY_OWNER, Role.HAULER):
        client.force_login(busy_town.users[role])
        links = _main_menu_links(client)
        assert "/registry/contacts/" not in links and "/program/" not in links, (role, links)
        client.logout()
    client.force_login(busy_town.users[Role.FOG_MANAGER])
    links = _main_menu_links(client)
    assert "/registry/contacts/" in links and "/program/" in links


def _error_forms(town):
    """(role, method, path, data): a form sent wrong, so the page comes back with its errors."""
    device = town.own_device.pk
    return [
        (Role.FOG_MANAGER, "post", "/registry/establishments/new/", {"business_name": ""}),
        (Role.FOG_MANAGER, "post", "/registry/devices/new/", {"identifier": ""}),
        (Role.FOG_MANAGER, "post", "/permits/applications/new/", {"establishment": "0", "route": "x"}),
        (Role.FOG_MANAGER, "post", "/permits/fees/", {"label": ""}),
        (Role.FOG_MANAGER, "post", "/program/profile/edit/", {"name": "", "time_zone": "Mars/Base"}),
        (Role.FOG_MANAGER, "post", "/program/rulesets/new/", {"effective_from": "not a date"}),
        (Role.FOG_MANAGER, "post", "/program/holidays/add/", {"date": "nope", "name": "", "year": "2026"}),
        (Role.FSE, "get", "/rules/", {"provision": "J2", "start": "not a date"}),
        (Role.HAULER, "post", "/servicing/manifests/new/", {"device": ""}),
        (Role.FOG_MANAGER, "post", f"/servicing/devices/{device}/holds/", {"reason": ""}),
        (Role.FSE, "post", f"/permits/applications/{town.draft.pk}/edit/",
         {"app-applicant_name": "", "fixtures-TOTAL_FORMS": "1", "fixtures-INITIAL_FORMS": "0",
          "fixtures-0-kind": "sink", "fixtures-0-count": "-3"}),
    ]  # fmt: skip


def test_a_form_sent_back_with_errors_ties_each_error_to_its_field(client, busy_town):
    failures = []
    for role, method, path, data in _error_forms(busy_town):
        client.force_login(busy_town.users[role])
        response = getattr(client, method)(path, data)
        parts = parse_page(response.content.decode())
        errors = [(error_id, text) for error_id, text in parts.field_errors if text]
        if not errors:
            failures.append(f"{path}: no message beside a field ({response.status_code})")
        for error_id, text in errors:
            if not error_id or error_id not in parts.described:
                failures.append(f"{path}: the error {text!r} is tied to no field (id {error_id!r})")
        for control in parts.controls:
            # One of a group of choices is described by its fieldset (checked above).
            in_group = control.get("type") in ("radio", "checkbox")
            if control.get("aria-invalid") == "true" and not in_group:
                targets = control.get("aria-describedby", "").split()
                if not targets or not set(targets) <= parts.ids:
                    failures.append(f"{path}: {control.get('name')} is invalid, described by {targets}")
        client.logout()
    assert not failures, "\n".join(failures)


def test_the_map_of_spills_names_every_marker_and_lets_a_keyboard_skip_it(client, town):
    """The program's map (core/components/map.html) on the spills list and a spill's page: the
    page's basics hold, the figure is named by its caption, every marker link has a <title> (what a
    screen reader says and a mouse shows), the skip link leads to the list, and nothing is inline."""
    spill = fog_spill(town, links=[(town.own_fse, "upstream")])
    fog_spill(town, address="2 Elm Street", latitude=Decimal("37.52"), longitude=Decimal("-122.28"))
    fog_spill(town, address="3 No Place", latitude=None, longitude=None)
    client.force_login(town.users[Role.INSPECTOR])
    problems = []
    for path in ("/spills/", f"/spills/{spill.pk}/"):
        html = client.get(path).content.decode()
        parts = parse_page(html)
        problems += [f"{path}: {inline}" for inline in parts.inline] + _page_problems(path, parts)
        figure = html[html.index('<figure class="map"') : html.index("</figure>")]
        if 'aria-labelledby="map-caption"' not in figure or "map-caption" not in parts.ids:
            problems.append(f"{path}: the map is not named by its caption")
        markers = re.findall(r'<a class="map-marker[^"]*" href="[^"]+">(<title>[^<]+</title>)?', figure)
        if not markers or not all(markers):
            problems.append(f"{path}: a marker link without a <title>: {markers}")
        for target in re.findall(r'href="#([^"]+)"', figure):
            if target not in parts.ids:
                problems.append(f"{path}: the map's skip link leads to #{target}, which is not on the page")
    assert not problems, "\n".join(problems)
