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


# The chart's points as the device history's template wrote them before `{% chart_circles %}`
# (servicing/templatetags/servicing_chart.py, issue 16): the oracle for the tag.
_CHART_LOOP = (
    "{% load i18n days %}{% translate 'M j, Y' as point_format %}{% for p in chart.points %}"
    '<circle cx="{{ p.x }}" cy="{{ p.y }}" r="4" fill="{% if p.source == \'manifest\' %}#0b5cad'
    '{% else %}#a15c00{% endif %}"><title>{{ p.day|day:point_format }}: {{ p.percent|floatformat:1 }}% '
    "({{ p.source }})</title></circle>{% endfor %}"
)
_CHART_TAG = (
    "{% load i18n servicing_chart %}{% translate 'M j, Y' as point_format %}"
    "{% chart_circles chart.points point_format %}"
)


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_devices_chart_circles_are_the_loops(language):
    import datetime as dt
    from decimal import Decimal

    from django.template import Context, Template
    from django.utils import translation

    points = [
        {"x": 0.0, "y": 200.0, "day": dt.date(2026, 1, 5), "percent": Decimal("0"), "source": "manifest"},
        {
            "x": 12.5,
            "y": 87.3,
            "day": dt.date(2026, 5, 31),
            "percent": Decimal("21.25"),
            "source": "manifest",
        },
        {
            "x": 640.0,
            "y": 3.1,
            "day": dt.date(2026, 12, 1),
            "percent": Decimal("99.95"),
            "source": "inspection",
        },
        {"x": 1e-7, "y": 10, "day": dt.date(2025, 2, 1), "percent": Decimal("7"), "source": "<self & co>"},
    ]
    with translation.override(language):
        loop = Template(_CHART_LOOP).render(Context({"chart": {"points": points}}))
        tag = Template(_CHART_TAG).render(Context({"chart": {"points": points}}))
    assert loop == tag
    assert tag.count("<circle") == 4 and "&lt;self &amp; co&gt;" in tag
