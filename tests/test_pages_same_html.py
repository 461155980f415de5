"""Issue 16: the pages are the same HTML with the project's form renderer as with Django's own.

`core.form_renderer.FormRenderer` writes the commonest widgets in Python (their comparison widget
by widget is core/tests/test_form_renderer.py); here the pages whose filter forms and forms it
writes (the FSE, manifest and permit lists, an FSE's page, a device's history with the FOG
Manager's three forms, the password change) are requested once with it and once with Django's
`DjangoTemplates` renderer, the oracle, and must be the same byte for byte (CSRF tokens and CSP
nonces, new on every response, blanked).
"""

import re

import pytest
from django.test import Client, override_settings

from fogcontrol.core.roles import Role
from fogcontrol.permits.tests.factories import fee_schedule
from fogcontrol.permits.tests.rows import add_permit_rows
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.registry.tests.rows import add_registry_rows
from fogcontrol.servicing.tests.rows import add_servicing_rows

pytestmark = pytest.mark.django_db

_PER_RESPONSE = re.compile(r'(csrfmiddlewaretoken" value=|X-CSRFToken": |nonce=)"[^"]*"')


def _html(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return _PER_RESPONSE.sub(r'\1""', response.content.decode())


def test_each_page_is_the_same_html_as_with_djangos_renderer(town):
    manager = town.users[Role.FOG_MANAGER]
    fee_schedule()
    add_registry_rows(town, 2, bound_user=manager)
    add_servicing_rows(town, 2)
    add_permit_rows(2, manager=manager)
    device = GreaseControlDevice.objects.filter(establishments=town.own_fse).order_by("pk").last()
    urls = [
        "/registry/establishments/",
        "/registry/establishments/?q=a&status=active",
        "/servicing/manifests/",
        "/servicing/manifests/?flagged=true&channel=nonsense",
        "/permits/list/",
        f"/registry/establishments/{town.own_fse.pk}/",
        f"/servicing/devices/{device.pk}/",
        "/password/change/",
    ]
    client = Client()
    client.force_login(manager)
    ours = {url: _html(client, url) for url in urls}
    with override_settings(FORM_RENDERER="django.forms.renderers.DjangoTemplates"):
        djangos = {url: _html(client, url) for url in urls}
    for url in urls:
        assert "<select" in ours[url] or "<input" in ours[url], url  # a page with widgets
        assert ours[url] == djangos[url], url


def _clear_kept():
    from fogcontrol.core.templatetags import badges, days

    badges._rendered.clear()
    days._written.cache_clear()
    days._written_at.cache_clear()


def test_the_lists_and_the_home_are_the_same_html_from_the_kept_badges_and_days(town):
    """The status badges (`{% badge %}`) and the manifests' and charts' dates (`|day`) are kept in
    the process once written: each page in each language is the same whether they were kept or not
    (core/tests/test_badges.py and test_days.py compare them with the include and `|date` they
    replace)."""
    manager = town.users[Role.FOG_MANAGER]
    fee_schedule()
    add_registry_rows(town, 2, bound_user=manager)
    add_servicing_rows(town, 2)
    add_permit_rows(2, manager=manager)
    urls = ["/", "/registry/establishments/", "/servicing/manifests/", "/permits/list/"]
    client = Client()
    client.force_login(manager)
    for language in ["en", "es"]:
        manager.preferred_language = language
        manager.save(update_fields=["preferred_language"])
        _clear_kept()
        written = {url: _html(client, url) for url in urls}
        kept = {url: _html(client, url) for url in urls}
        for url in urls:
            assert 'class="badge' in written[url] or url in ("/", "/servicing/manifests/"), url
            assert written[url] == kept[url], (language, url)
