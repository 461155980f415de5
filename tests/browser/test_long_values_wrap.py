"""Issue 18: a manifest's record hashes wrap instead of scrolling the page sideways, at phone and
desktop widths. The page is rendered by Django and laid out by Chromium with the product's own
stylesheet (a manifest is a copy of record, which a live server's flush between tests may not
delete, so this test needs no live server)."""

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from fogcontrol.core.roles import Role
from fogcontrol.servicing.tests.helpers import submit

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


@pytest.mark.provision("F7")
@pytest.mark.parametrize("width", [390, 1280])
def test_f7_a_manifests_hashes_wrap_at_phone_and_desktop_widths(browser, town, width):
    manifest = submit(town.users[Role.HAULER], town.own_device)
    client = Client()
    client.force_login(town.users[Role.FOG_MANAGER])
    html = client.get(f"/servicing/manifests/{manifest.pk}/").content.decode()
    context = browser.new_context(viewport={"width": width, "height": 844})
    page = context.new_page()
    try:
        page.set_content(html)
        with open(finders.find("fogcontrol/app.css"), encoding="utf-8") as stylesheet:
            page.add_style_tag(content=stylesheet.read())
        assert page.locator("code.hash").count() == 2
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()
