"""The template components (core/components/) and the menus (core/navigation.py)."""

import pytest
from django.template import Context, Template, TemplateSyntaxError
from django.test import RequestFactory

from fogcontrol.core import navigation
from fogcontrol.core.navigation import MenuItem
from fogcontrol.core.roles import STAFF_ROLES, Role
from fogcontrol.testing import factories


def _render(source: str, **context) -> str:
    return Template("{% load components %}" + source).render(Context(context))


def test_a_table_without_a_caption_does_not_compile():
    with pytest.raises(TemplateSyntaxError, match="caption"):
        Template("{% load components %}{% table %}<tbody></tbody>{% endtable %}")


def test_a_table_says_what_it_lists_in_its_caption():
    html = _render('{% table caption="Devices" %}<tbody><tr><td>GI-1</td></tr></tbody>{% endtable %}')
    assert '<table class="list">' in html and '<caption class="visually-hidden">Devices</caption>' in html
    assert "<td>GI-1</td>" in html


def test_a_card_takes_only_its_own_title_not_the_pages():
    html = _render('{% card id="x" %}<p>Body &amp; more</p>{% endcard %}', title="The page's title")
    assert "<h2>" not in html and "The page's title" not in html
    assert '<section class="card" id="x">' in html and "<p>Body &amp; more</p>" in html
    assert "<h2>Owner (A2)</h2>" in _render('{% card title="Owner (A2)" %}{% endcard %}')


@pytest.mark.django_db
def test_the_menu_shows_a_user_only_its_items_and_marks_the_current_page():
    navigation.register(
        menu="test",
        group="g",
        label="G",
        items=[
            MenuItem("Devices", "registry:device_list", roles=STAFF_ROLES),
            MenuItem("Rules", "calculator:home"),
            MenuItem("Manifests", "servicing:home", visible=lambda user: user.role == Role.HAULER),
        ],
    )
    staff = factories.UserFactory(role=Role.INSPECTOR)
    hauler = factories.UserFactory(role=Role.HAULER)
    [group] = navigation.menu_for(staff, "/registry/devices/12/", "test")
    assert [(i.label, i.current) for i in group.items] == [("Devices", "true"), ("Rules", "")]
    [group] = navigation.menu_for(hauler, "/rules/", "test")
    assert [(i.label, i.current) for i in group.items] == [("Rules", "page"), ("Manifests", "")]


@pytest.mark.django_db
def test_the_main_menu_renders_with_aria_current_on_the_page_shown():
    request = RequestFactory().get("/permits/")
    request.user = factories.UserFactory(role=Role.FSE)
    html = Template('{% load navigation %}{% menu "main" %}').render(
        Context({"request": request, "user": request.user})
    )
    assert 'aria-label="Main"' in html and '<a href="/permits/" aria-current="page">Permits</a>' in html
    assert "/registry/contacts/" not in html and "/program/" not in html
