"""An inspection on a phone (390 x 844): the inspector opens the day's visit, measures the device
(the 25% result shows on the spot), fails an item, both people sign on screen, and completes."""

import time

import pytest
from playwright.sync_api import expect

from fogcontrol.core.roles import Role
from fogcontrol.findings.models import Finding
from fogcontrol.inspections.models import Inspection
from fogcontrol.inspections.services import inspection_schedule
from fogcontrol.program.selectors import town_today
from fogcontrol.servicing.models import ServiceRequirement
from fogcontrol.testing.browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sign(page, canvas_selector: str) -> None:
    canvas = page.locator(canvas_selector)
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    page.mouse.move(box["x"] + 20, box["y"] + box["height"] * 0.7)
    page.mouse.down()
    for step in range(1, 8):
        page.mouse.move(box["x"] + 20 + step * 35, box["y"] + box["height"] * (0.3 if step % 2 else 0.7))
    page.mouse.up()


@pytest.mark.provision("E6")
@pytest.mark.provision("C1")
def test_an_inspector_fills_in_and_completes_an_inspection_on_a_phone(phone_page, town):
    page = phone_page
    inspector = town.users[Role.INSPECTOR]
    today = town_today()
    inspection_schedule(
        establishment=town.own_fse, scheduled_on=today, inspector=inspector, acting_user="test"
    )
    sign_in(page, inspector.username)
    page.goto(f"/inspections/day/?on={today.isoformat()}")
    expect(page.get_by_role("heading", level=2)).to_contain_text(town.own_fse.site_address)
    page.get_by_role("link", name="Start inspection").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Blue Plate Diner")

    page.get_by_label("Arrived").fill(f"{today.isoformat()}T09:00")
    device = town.own_device.pk
    page.get_by_label("FOG depth (in)").fill("6")
    page.get_by_label("Solids depth (in)").fill("8")
    page.get_by_label("Solids depth (in)").blur()
    expect(page.locator(f"#fill-{device}")).to_contain_text("over the 25% limit (E3)")
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
    # The targets are large enough for a thumb.
    assert page.locator("#item-drain_screens .seg span").first.bounding_box()["height"] >= 44
    page.screenshot(path="/tmp/inspection_form_phone.png", full_page=True)

    page.get_by_role("button", name="Complete inspection").click()
    expect(page.locator(".messages")).to_contain_text("Inspection completed")
    expect(page.locator("main")).to_contain_text("Drain screens are missing")
    expect(page.get_by_role("link", name="Report (PDF)")).to_be_visible()

    inspection = Inspection.objects.get()
    assert inspection.status == Inspection.Status.COMPLETED
    assert inspection.inspector_signature and inspection.fse_signature
    assert sorted(Finding.objects.values_list("provision", flat=True)) == ["C1", "E3"]
    assert ServiceRequirement.objects.filter(
        device=town.own_device, kind="immediate_service", status="open"
    ).exists()


@pytest.mark.provision("D8")
def test_complete_right_after_a_change_cancels_the_waiting_autosave_and_never_races_it(phone_page, town):
    """A change and then "Complete inspection" at once (the race that gave a 500 on the test
    server): the autosave still waiting for its delay is cancelled, the form is sent alone, and no
    answer is a 500 (docs/inspections.md)."""
    page = phone_page
    inspector = town.users[Role.INSPECTOR]
    inspection = inspection_schedule(
        establishment=town.own_fse, scheduled_on=town_today(), inspector=inspector, acting_user="test"
    )
    sign_in(page, inspector.username)
    page.goto(f"/inspections/{inspection.pk}/edit/")
    answers = []
    page.on("response", lambda answer: answers.append((answer.request.method, answer.url, answer.status)))
    # A slow server: "Complete" is held longer than the autosave's delay, as on a busy test server.
    page.route("**/complete/", lambda route: (time.sleep(1.5), route.continue_()))
    page.get_by_label("FSE person met").fill("Frank Owner")
    page.get_by_role("button", name="Complete inspection").click()  # the field's change fires now
    # Not signed yet: the form comes back with the reasons, the draft kept (400, not a 500).
    expect(page.get_by_role("heading", name="Not completed yet: the draft is kept")).to_be_visible()
    assert not [a for a in answers if a[2] >= 500], answers
    assert not [a for a in answers if a[0] == "POST" and a[1].endswith("/edit/")], answers
    inspection.refresh_from_db()
    assert inspection.person_met == "Frank Owner"  # saved by the complete form itself
