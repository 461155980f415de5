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
