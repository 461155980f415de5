"""The pages' language (issue 18, docs/i18n.md): the browser's before sign-in, the user's
`preferred_language` after, and the header's switcher, which also saves the preference."""

import pytest
from django.urls import reverse

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.testing.crawl import parse_page


def test_before_sign_in_the_browser_language_chooses(client, db):
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="es-MX,es;q=0.9,en;q=0.5")
    html = page.content.decode()
    assert '<html lang="es">' in html
    assert "Iniciar sesión" in html
    assert "Sign in" not in html
    english = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content.decode()
    assert '<html lang="en">' in english and "Sign in" in english


def test_a_signed_in_user_reads_their_own_language(client, town):
    user = town.users[Role.FSE]
    user.preferred_language = "es"
    user.save(update_fields=["preferred_language"])
    client.force_login(user)
    # The browser asks for English: the user's own choice wins.
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="es">' in html
    assert "Sus registros" in html and "Cerrar sesión" in html


def test_the_switcher_is_a_labelled_form_that_saves_the_preference(client, town):
    user = town.users[Role.HAULER]
    client.force_login(user)
    html = client.get("/").content.decode()
    parts = parse_page(html)
    switcher = [c for c in parts.controls if c.get("name") == "language"]
    assert switcher and switcher[0]["id"] == "id_site_language"
    assert not [u for u in parts.unlabelled if "language" in u]
    assert 'action="/i18n/setlang/"' in html

    answer = client.post("/i18n/setlang/", {"language": "es", "next": "/servicing/"})
    assert answer.status_code == 302 and answer["Location"] == "/servicing/"
    user.refresh_from_db()
    assert user.preferred_language == "es"
    assert AuditEntry.objects.filter(action="user.language", object_id=str(user.pk)).exists()
    assert '<html lang="es">' in client.get("/servicing/").content.decode()

    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    user.refresh_from_db()
    assert user.preferred_language == "en"
    assert '<html lang="en">' in client.get("/").content.decode()


def test_the_switcher_refuses_a_language_we_do_not_offer(client, town):
    user = town.users[Role.FSE]
    client.force_login(user)
    client.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    user.refresh_from_db()
    assert user.preferred_language == "en"


@pytest.mark.parametrize("role", [Role.FOG_MANAGER, Role.INSPECTOR])
def test_staff_pages_show_no_switcher(client, town, role):
    client.force_login(town.users[role])
    assert "id_site_language" not in client.get("/").content.decode()


def test_the_one_language_route_returns_only_to_a_page_of_this_site(client, town):
    """The switcher and the account page's form post to /i18n/setlang/ (the account page's own
    route is gone): `next` is followed only when it is a path here, else the home page."""
    user = town.users[Role.FSE]
    client.force_login(user)
    assert 'action="/i18n/setlang/"' in client.get(reverse("accounts:account")).content.decode()
    away = client.post("/i18n/setlang/", {"language": "es", "next": "https://evil.example/"})
    assert away.status_code == 302 and away["Location"] == "/"
    user.refresh_from_db()
    assert user.preferred_language == "es"
    back = client.post("/i18n/setlang/", {"language": "en", "next": reverse("accounts:account")})
    assert back["Location"] == reverse("accounts:account")
    assert "/account/language/" not in client.get(reverse("accounts:account")).content.decode()
