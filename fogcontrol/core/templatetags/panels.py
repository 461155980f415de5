"""`{% panels "registry.device" device %}`: the panels upper apps registered for a record's page
(fogcontrol.core.panels)."""

from django import template
from django.template.loader import render_to_string
from django.utils.html import format_html_join

from fogcontrol.core.panels import panels_for

register = template.Library()


@register.simple_tag(takes_context=True)
def panels(context, page: str, record):
    request = context.get("request")
    user = context.get("user") or getattr(request, "user", None)
    rendered = (
        (render_to_string(template_name, {**context.flatten(), **panel_context}, request=request),)
        for template_name, panel_context in panels_for(page, user, record)
    )
    # Each part is a rendered template (safe, escaped as it rendered): joined as it is.
    return format_html_join("", "{}", rendered)
