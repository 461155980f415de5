"""`{% menu "main" %}`: a menu of `fogcontrol.core.navigation`, with the items the user may open
and the current page marked (`aria-current`).

Every page of a signed-in user shows the main menu, and rendering its two dozen links was a third
of a plain staff page's template time (issue 16). Its HTML depends only on which items the user
may open, which one is current, the language and the URL configuration: it is rendered once for
each such combination and kept in this process (a bounded number: roles × current items).
"""

from django import template
from django.conf import settings
from django.urls import get_script_prefix, get_urlconf
from django.utils import translation

from fogcontrol.core import navigation

register = template.Library()

TEMPLATE = "core/components/menu.html"
# Enough for every role's menu on every menu item's pages in both languages; past it, start over.
KEPT = 2048
_rendered: dict[tuple, str] = {}


@register.simple_tag(takes_context=True)
def menu(context, name: str = navigation.MAIN, label: str = ""):
    request = context.get("request")
    user = context.get("user") or getattr(request, "user", None)
    path = request.path if request is not None else ""
    label = str(label) or ("Main" if name == navigation.MAIN else name.title())
    shown = navigation.shown_items(user, name)
    current = navigation.current_url(shown, path, name)
    key = (
        name,
        label,
        translation.get_language(),
        context.autoescape,
        get_urlconf() or settings.ROOT_URLCONF,
        get_script_prefix(),
        navigation.generation(),
        shown,
        current,
        current == path,
    )
    html = _rendered.get(key)
    if html is None:
        values = {
            "groups": navigation.menu_for(user, path, name, shown=shown),
            "label": label,
            "main": name == navigation.MAIN,
        }
        html = context.template.engine.get_template(TEMPLATE).render(context.new(values))
        if len(_rendered) >= KEPT:
            _rendered.clear()
        _rendered[key] = html
    return html
