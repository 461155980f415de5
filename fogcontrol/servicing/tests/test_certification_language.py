"""Issue 18: the manifest's certification (E7's work, F7's copy of record) is read and signed in the
signer's language, and the copy of record keeps the words shown with their language. English stays
byte-identical."""

import json

import pytest
from django.test import Client
from django.utils.html import strip_tags

from fogcontrol.core.records import verify_chain
from fogcontrol.core.roles import Role
from fogcontrol.servicing import certification
from fogcontrol.servicing.models import Manifest
from fogcontrol.servicing.tests.helpers import submit
from fogcontrol.servicing.tests.test_pages import portal_post
from fogcontrol.testing.documents import english_left

ENGLISH = certification.TEXTS[certification.CURRENT_VERSION]
SPANISH = certification.TEXTS_ES[certification.CURRENT_VERSION]


def _hauler(town, language) -> Client:
    user = town.users[Role.HAULER]
    user.preferred_language = language
    user.save(update_fields=["preferred_language"])
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.provision("E7", "F7")
def test_e7_f7_a_spanish_hauler_reads_and_signs_the_certification_in_spanish(town):
    client = _hauler(town, "es")
    html = client.get(f"/servicing/manifests/new/?device={town.own_device.pk}").content.decode()
    assert SPANISH in html and ENGLISH not in html
    # The statement is Spanish now: it is no longer marked as English.
    assert 'lang="en" id="certification-text"' not in html
    assert english_left(SPANISH) == []
    assert "(Capítulo 10.02, E7)" in SPANISH and "(F7)" in SPANISH

    # The browser posts the form's hidden language with it.
    assert 'name="certification_language" value="es"' in html
    client.post("/servicing/manifests/new/", portal_post(town.own_device, certification_language="es"))
    manifest = Manifest.objects.get()
    # F7: the copy of record keeps exactly the words shown and their language.
    assert manifest.certification_text == SPANISH
    assert manifest.certification_language == "es"
    assert manifest.certification_version == certification.CURRENT_VERSION
    assert json.loads(manifest.submission)["certification_language"] == "es"  # as posted
    assert verify_chain(Manifest).ok
    detail = client.get(f"/servicing/manifests/{manifest.pk}/").content.decode()
    assert SPANISH in detail

    # An English reader of that record sees the Spanish words as signed, marked as Spanish.
    english_page = _hauler(town, "en").get(f"/servicing/manifests/{manifest.pk}/").content.decode()
    assert f'lang="es" id="certification-signed">{SPANISH}' in english_page


@pytest.mark.provision("E7", "F7")
def test_e7_f7_an_english_hauler_signs_the_english_text_byte_for_byte(town):
    client = _hauler(town, "en")
    html = client.get(f"/servicing/manifests/new/?device={town.own_device.pk}").content.decode()
    assert ENGLISH in strip_tags(html) and SPANISH not in html
    client.post("/servicing/manifests/new/", portal_post(town.own_device))
    manifest = Manifest.objects.get()
    assert manifest.certification_text == ENGLISH
    assert manifest.certification_language == "en"
    assert verify_chain(Manifest).ok
    # A Spanish reader of the English record sees it as written, marked English.
    spanish_page = _hauler(town, "es").get(f"/servicing/manifests/{manifest.pk}/").content.decode()
    assert f'lang="en" id="certification-signed">{ENGLISH}' in spanish_page


@pytest.mark.provision("F7")
def test_f7_a_service_submission_without_a_language_certifies_the_english_text(town):
    """The API, the CSV upload and every caller that names no language: the English of record."""
    manifest = submit(town.users[Role.HAULER], town.own_device)
    assert (manifest.certification_text, manifest.certification_language) == (ENGLISH, "en")


@pytest.mark.provision("F7")
def test_f7_a_language_the_version_is_not_written_in_is_refused(town):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as refused:
        submit(town.users[Role.HAULER], town.own_device, certification_language="fr")
    assert "certification_language" in refused.value.message_dict
    assert not Manifest.objects.exists()
