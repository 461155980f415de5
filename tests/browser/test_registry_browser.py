"""The registry in a real browser: live search (htmx), an FSE, a new device and its A4 flag, a phone."""

import re

import pytest
from playwright.sync_api import expect

from fogcontrol.core.roles import Role
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogcontrol.testing.browser import sign_in
from fogcontrol.testing.factories import PartyFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.provision("A4")
def test_fog_manager_finds_an_fse_adds_a_one_compartment_device_and_sees_the_a4_flag(page, town):
    sign_in(page, town.users[Role.FOG_MANAGER].username)
    page.goto("/registry/establishments/")
    results = page.locator("#results")
    expect(results).to_contain_text("Blue Plate Diner")

    # Live search: the results change as the user types, without reloading the page.
    page.evaluate("window.__sameDocument = true")
    page.get_by_role("searchbox").fill("wok")
    expect(results).not_to_contain_text("Blue Plate Diner")
    expect(results).to_contain_text("Golden Wok")
    expect(results).to_contain_text("1 establishment")
    assert page.evaluate("window.__sameDocument") is True
    expect(page).to_have_url(re.compile(r"\?q=wok"))  # bookmarkable

    results.get_by_role("link", name="Golden Wok").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Golden Wok")

    page.get_by_role("link", name="Add a device").click()
    expect(page.get_by_label("FSEs served")).to_have_values([str(town.other_fse.pk)])
    page.get_by_label("Identifier").fill("GI-77001")
    page.get_by_label("Kind").select_option("gravity_interceptor")
    page.get_by_label("Total design hydraulic depth (in)").fill("48")
    page.get_by_label("Compartments").fill("1")
    page.get_by_label("Access manhole diameter (in)").fill("24")
    page.get_by_role("button", name="Save").click()

    expect(page.locator(".messages")).to_contain_text("GI-77001")
    flags = page.locator("#a4")
    expect(flags).to_contain_text("Below the A4 construction minimums")
    expect(flags).to_contain_text("1 compartment(s); at least 2 required")
    page.screenshot(path="/tmp/registry_device_a4.png", full_page=True)

    device = GreaseControlDevice.objects.get(identifier="GI-77001")
    assert list(device.establishments.all()) == [town.other_fse]
    assert device.a4_flags


def test_a_form_error_is_shown_beside_its_field(page, town):
    sign_in(page, town.users[Role.INSPECTOR].username)
    page.goto("/registry/devices/new/")
    page.get_by_label("Identifier").fill(town.own_device.identifier)
    page.get_by_label("Kind").select_option("gravity_interceptor")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#id_identifier_error")).to_contain_text("already exists")
    expect(page.get_by_label("Identifier")).to_have_value(town.own_device.identifier)


def test_closing_an_fse_asks_first(page, town):
    sign_in(page, town.users[Role.FOG_MANAGER].username)
    page.goto(f"/registry/establishments/{town.own_fse.pk}/")
    close = page.get_by_role("button", name="Close this FSE")

    page.once("dialog", lambda dialog: dialog.dismiss())
    close.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Active")

    page.once("dialog", lambda dialog: dialog.accept())
    close.click()
    expect(page.locator(".messages")).to_contain_text("was closed")
    expect(page.locator("#history")).to_contain_text("establishment.update")
    assert FoodServiceEstablishment.objects.get(pk=town.own_fse.pk).status == "closed"


def test_the_establishment_list_is_usable_on_a_phone(phone_page, town):
    page = phone_page
    sign_in(page, town.users[Role.INSPECTOR].username)
    page.goto("/registry/establishments/?status=active")
    # The phone layout is the stylesheet's: without it nothing below can hold.
    stylesheet = page.request.get("/static/fogcontrol/app.css")
    assert stylesheet.ok, "fogcontrol/app.css is not served: is fogcontrol/static in STATICFILES_DIRS?"
    # Nothing wider than the screen: no sideways scrolling on a 390 px phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    search = page.get_by_role("searchbox")
    expect(search).to_be_visible()
    box = search.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    # Each row reads as a card with its labels, and its link is big enough to tap.
    row_link = page.locator("#results").get_by_role("link", name="Plaza Pizza")
    expect(row_link).to_be_visible()
    assert row_link.bounding_box()["height"] >= 16
    expect(page.locator("#results thead")).to_be_hidden()
    licence_label = page.locator('#results td[data-label="Licence"]').first.evaluate(
        "cell => getComputedStyle(cell, '::before').content"
    )
    assert licence_label == '"Licence: "'
    search.fill("plaza")
    expect(page.locator("#results")).to_contain_text("2 establishments")
    page.screenshot(path="/tmp/registry_phone.png", full_page=True)
    row_link.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Plaza Pizza")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_long_contact_email_wraps_inside_its_card_on_a_phone(phone_page, town):
    """Issue 18: contact e-mails overflowed their card. At 390 px the establishment page's contact card
    holds a 70-character address without scrolling, and the page does not scroll sideways."""
    email = "accounts-payable.and.grease-interceptor-records@blue-plate-diner-holdings.example"
    town.own_fse.contact = PartyFactory(name="Blue Plate Holdings", email=email)
    town.own_fse.save(update_fields=["contact"])
    page = phone_page
    sign_in(page, town.users[Role.FOG_MANAGER].username)
    page.goto(f"/registry/establishments/{town.own_fse.pk}/")
    link = page.get_by_role("link", name=email)
    expect(link).to_be_visible()
    card = link.locator("xpath=ancestor::*[contains(concat(' ', @class, ' '), ' card ')][1]")
    sizes = card.evaluate("card => [card.scrollWidth, card.clientWidth]")
    assert sizes[0] <= sizes[1], sizes
    box, card_box = link.bounding_box(), card.bounding_box()
    assert box["x"] + box["width"] <= card_box["x"] + card_box["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
