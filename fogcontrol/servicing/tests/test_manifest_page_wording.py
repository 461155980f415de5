"""What the manifest pages say: the certification is read before it is signed, and times are Town time."""

import datetime as dt
import re

import pytest
from django.test import Client
from django.utils import timezone

from fogcontrol.core.roles import Role
from fogcontrol.servicing import certification
from fogcontrol.servicing.models import Manifest
from fogcontrol.servicing.tests.test_pages import portal_post


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.provision("F7")
def test_f7_the_certification_statement_stands_above_the_name_and_the_box_that_sign_it(town):
    page = login(town.users[Role.HAULER]).get(f"/servicing/manifests/new/?device={town.own_device.pk}")
    html = page.content.decode()
    statement = html.index(certification.TEXTS[certification.CURRENT_VERSION][:40])
    name_box = html.index('name="certified_by_name"')
    tick_box = html.index('name="certify"')
    assert statement < name_box < tick_box
    assert "I certify the statement above" in html


@pytest.mark.provision("F7")
def test_f7_in_spanish_the_box_that_signs_stays_with_the_statement(town):
    """The form groups its signing fields by name; a field name is not text to translate (it was
    marked for translation once, and a Spanish catalogue would have moved the box out of the group)."""
    hauler = town.users[Role.HAULER]
    hauler.preferred_language = "es"
    hauler.save(update_fields=["preferred_language"])
    html = login(hauler).get(f"/servicing/manifests/new/?device={town.own_device.pk}").content.decode()
    statement = html.index(certification.TEXTS_ES[certification.CURRENT_VERSION][:40])
    name_box = html.index('name="certified_by_name"')
    tick_box = html.index('name="certify"')
    assert statement < name_box < tick_box
    assert html.count('name="certify"') == 1


@pytest.mark.provision("F1")
def test_f1_the_receipt_time_is_shown_in_town_time_labelled_so_and_the_record_keeps_utc(town):
    client = login(town.users[Role.HAULER])
    client.post("/servicing/manifests/new/", portal_post(town.own_device))
    manifest = Manifest.objects.get()
    html = client.get(f"/servicing/manifests/{manifest.pk}/").content.decode()
    local = timezone.localtime(manifest.received_at)
    utc = manifest.received_at.astimezone(dt.UTC)
    assert f"{local:%Y-%m-%d %H:%M:%S} Town time" in html
    assert f"{utc:%Y-%m-%dT%H:%M:%S}Z (UTC)" in html
    # No time is labelled UTC while carrying the Town's offset.
    assert not re.search(r"UTC [0-9T:-]+[+-]0[0-9]:00", html)
    assert 'class="hash"' in html
