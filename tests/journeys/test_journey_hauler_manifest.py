"""Journey 2 (issue 18): a hauler submits a manifest in the portal and sees the device's new due
date (E1: the last full pump-out plus the frequency); then uploads a CSV of manifests and reads the
report of every row. From login to the visible result, with axe-core run on every page visited."""

import csv
import io

import pytest
from playwright.sync_api import expect

from fogcontrol.core.roles import Role
from fogcontrol.servicing import certification
from fogcontrol.servicing.imports import COLUMNS
from fogcontrol.servicing.models import DeviceServiceState
from fogcontrol.servicing.tests.helpers import days_ago
from fogcontrol.testing.accessibility import assert_accessible
from fogcontrol.testing.browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def manifests_csv(town) -> bytes:
    def row(device, number, **changes):
        values = {
            "device": device.identifier,
            "manifest_number": number,
            "serviced_at": days_ago(2).strftime("%Y-%m-%d %H:%M"),
            "full_pumpout": "yes",
            "baffles_cleaned": "yes",
            "fog_depth_in": "4",
            "solids_depth_in": "3",
            "gallons_removed": "900",
            "driver": "Dana Driver",
            "certified_by_name": "Dana Driver",
            "certification_version": certification.CURRENT_VERSION,
        }
        return values | changes

    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=[name for name, _, _ in COLUMNS])
    writer.writeheader()
    writer.writerow(row(town.shared_device, "C-1"))  # not this hauler's customer: rejected
    writer.writerow(row(town.own_device, "C-2", serviced_at="yesterday"))  # rejected: not a date
    writer.writerow(row(town.own_device, "C-3", serviced_at=days_ago(3).strftime("%Y-%m-%d %H:%M")))
    return out.getvalue().encode()


def device_row(page, device):
    return (
        page.get_by_role("table", name="Devices and their service status")
        .get_by_role("row")
        .filter(has=page.get_by_role("link", name=device.identifier, exact=True))
    )


@pytest.mark.provision("F1")
@pytest.mark.provision("E1")
def test_f1_e1_a_hauler_files_a_manifest_sees_the_new_due_date_then_uploads_a_csv(open_tab, town):
    device = town.own_device
    page = open_tab(name="hauler")
    sign_in(page, town.users[Role.HAULER].username)
    assert_accessible(page)

    page.goto("/servicing/")
    row = device_row(page, device)
    expect(row).to_be_visible()
    due_before = row.locator('[data-label="Next due"]').inner_text()
    assert_accessible(page)

    row.get_by_role("link", name="Manifest").click()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert_accessible(page)
    serviced = days_ago(1)
    page.get_by_label("Manifest / ticket number").fill("P-100")
    page.get_by_label("Date and time of service").fill(serviced.strftime("%Y-%m-%dT%H:%M"))
    page.get_by_label("FOG depth before pumping (in)").fill("4")
    page.get_by_label("Solids depth before pumping (in)").fill("3")
    page.get_by_label("Gallons removed").fill("900")
    page.get_by_label("Driver").fill("Dana Driver")
    page.get_by_label("Vehicle plate").fill("8TRK001")
    page.get_by_label("Certified by (type your full name)").fill("Dana Driver")
    page.get_by_label("I certify the statement above").check()
    page.get_by_role("button", name="Submit the manifest").click()
    expect(page.locator(".messages")).to_contain_text("Manifest P-100 received.")
    assert_accessible(page)

    page.goto("/servicing/")
    next_due = DeviceServiceState.objects.get(device=device).next_due
    shown = f"{next_due:%b} {next_due.day}, {next_due.year}"
    expect(device_row(page, device).locator('[data-label="Next due"]')).to_have_text(shown)
    assert shown != due_before
    expect(device_row(page, device).locator('[data-label="Last full pump-out"]')).to_have_text(
        f"{serviced:%b} {serviced.day}, {serviced.year}"
    )

    page.goto("/servicing/imports/")
    assert_accessible(page)
    page.get_by_label("CSV file").set_input_files(
        files=[{"name": "manifests.csv", "mimeType": "text/csv", "buffer": manifests_csv(town)}]
    )
    page.get_by_label("Dry run: check every row, save nothing").uncheck()
    page.get_by_role("button", name="Upload").click()
    status = page.locator("#import-status")
    expect(status).to_contain_text("Rows read 3", use_inner_text=True)
    expect(status).to_contain_text("Accepted 1", use_inner_text=True)
    expect(status).to_contain_text("Rejected 2", use_inner_text=True)
    rejected = page.get_by_role("table", name="Rejected rows")
    expect(rejected.get_by_role("row").filter(has_text="C-1")).to_contain_text("device")
    expect(rejected.get_by_role("row").filter(has_text="C-2")).to_contain_text("'yesterday' is not a date")
    expect(page.get_by_role("link", name="Download the report for every row (CSV)")).to_be_visible()
    assert_accessible(page)
