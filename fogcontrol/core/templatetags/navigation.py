"""`{% menu "main" %}`: a menu of `fogcontrol.core.navigation`, with the items the user may open
and the current page marked (`aria-current`)."""

from django import template

from fogcontrol.core.navigation import MAIN, menu_for

register = template.Library()


@register.inclusion_tag("core/components/menu.html", takes_context=True)
def menu(context, name: str = MAIN, label: str = ""):
    request = context.get("request")
    user = context.get("user") or getattr(request, "user", None)
    path = request.path if request is not None else ""
    return {
        "groups": menu_for(user, path, name),
        "label": label or ("Main" if name == MAIN else name.title()),
        "main": name == MAIN,
    }
