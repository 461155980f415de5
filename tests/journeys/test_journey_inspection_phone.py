"""Journey 3 (issue 18): an inspector on a phone (390 x 844) opens the day's visit, adds a photo of
a failed item, measures the device (over the 25% limit of E3), signs with the FSE's person and
completes the inspection; the FSE then signs in and finds the findings, with the photo, on its own
findings page. From login to the visible result, with axe-core run on every page visited."""

import io

import pytest
from PIL import Image
from playwright.sync_api import expect

from fogcontrol.core.roles import Role
from fogcontrol.inspections.services import inspection_schedule
from fogcontrol.program.selectors import town_today
from fogcontrol.testing.accessibility import assert_accessible
from fogcontrol.testing.browser import PHONE, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def a_photo() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (64, 48), (120, 90, 40)).save(out, format="JPEG")
    return out.getvalue()


def sign(page, canvas_selector: str) -> None:
    """A signature drawn with a finger on the canvas."""
    canvas = page.locator(canvas_selector)
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    page.mouse.move(box["x"] + 20, box["y"] + box["height"] * 0.7)
    page.mouse.down()
    for step in range(1, 8):
        page.mouse.move(box["x"] + 20 + step * 35, box["y"] + box["height"] * (0.3 if step % 2 else 0.7))
    page.mouse.up()


@pytest.mark.provision("E3")
@pytest.mark.provision("C1")
def test_e3_c1_an_inspection_on_a_phone_with_a_photo_reaches_the_fses_findings(open_tab, town):
    inspector = town.users[Role.INSPECTOR]
    today = town_today()
    inspection_schedule(
        establishment=town.own_fse, scheduled_on=today, inspector=inspector, acting_user="test"
    )
    page = open_tab(PHONE, name="inspector")
    sign_in(page, inspector.username)
    assert_accessible(page)
    page.goto(f"/inspections/day/?on={today.isoformat()}")
    assert_accessible(page)
    page.get_by_role("link", name="Start inspection").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Blue Plate Diner")
    assert_accessible(page)

    photos = page.locator("#photos")
    photos.get_by_label("Photo", exact=True).set_input_files(
        files=[{"name": "screens.jpg", "mimeType": "image/jpeg", "buffer": a_photo()}]
    )
    photos.get_by_label("Of").select_option("drain_screens")
    photos.get_by_role("button", name="Add photo").click()
    expect(page.locator("#photos")).to_contain_text("Photo")
    expect(page.locator("#photos a")).to_have_count(1)
    assert_accessible(page)

    page.get_by_label("Arrived").fill(f"{today.isoformat()}T09:00")
    page.get_by_label("FOG depth (in)").fill("6")
    page.get_by_label("Solids depth (in)").fill("8")
    page.get_by_label("Solids depth (in)").blur()
    expect(page.locator(f"#fill-{town.own_device.pk}")).to_contain_text("over the 25% limit (E3)")
    page.locator("#item-drain_screens").get_by_text("Fail", exact=True).click()
    page.locator("#item-signage").get_by_text("OK", exact=True).click()
    page.get_by_label("Inspector's name").fill("Ines Inspector")
    sign(page, 'canvas[data-signature-for="inspector_signature"]')
    page.get_by_label("FSE person's name").fill("Frank Owner")
    # The last change's draft save must have answered before "Complete": the test server's
    # in-memory SQLite cannot take two requests writing at once ("database table is locked").
    with page.expect_response(
        lambda answer: answer.request.method == "POST" and answer.url.endswith("/edit/")
    ):
        sign(page, 'canvas[data-signature-for="fse_signature"]')
    expect(page.locator("#save-status")).to_contain_text("Draft saved")
    assert_accessible(page)
    page.get_by_role("button", name="Complete inspection").click()
    expect(page.locator(".messages")).to_contain_text("Inspection completed")
    assert_accessible(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    fse = open_tab(name="fse")
    sign_in(fse, town.users[Role.FSE].username)
    fse.goto("/findings/")
    found = fse.locator("#results .finding")
    screens = found.filter(has_text="C1")
    expect(screens).to_contain_text("Drain screens are missing")
    expect(screens.get_by_role("link", name="Photo")).to_have_count(1)
    expect(found.filter(has_text="E3")).to_contain_text(town.own_device.identifier)
    assert_accessible(fse)
