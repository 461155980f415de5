"""`{% panels "registry.device" device %}`: the panels upper apps registered for a record's page
(fogcontrol.core.panels)."""

from django import template
from django.template import Engine
from django.utils.html import format_html_join

from fogcontrol.core.panels import panels_for

register = template.Library()


@register.simple_tag(takes_context=True)
def panels(context, page: str, record):
    """Each panel is rendered in the page's own context with its builder's context on top: the page's
    request, user and context processors' values, computed once for the page (issue 16: not again
    for each panel, as a fresh ``render_to_string`` would)."""
    request = context.get("request")
    user = context.get("user") or getattr(request, "user", None)
    # A partial rendered alone (`page.html#part`) has no template bound to its context.
    engine = context.template.engine if context.template is not None else Engine.get_default()
    rendered = []
    for template_name, panel_context in panels_for(page, user, record):
        with context.push(**panel_context):
            rendered.append((engine.get_template(template_name).render(context),))
    # Each part is a rendered template (safe, escaped as it rendered): joined as it is.
    return format_html_join("", "{}", rendered)
