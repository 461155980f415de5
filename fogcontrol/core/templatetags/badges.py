"""`{% badge label tone="ok" %}`: `core/components/status_badge.html`, the one markup of a status
badge, written once per label, tone and language and kept in this process.

A list writes a badge on every row, and `{% include "core/components/status_badge.html" with … %}`
costs a template lookup, a context pushed and popped and the label translated, per row: 0.8 ms
for the FSE list's 25 rows, 0.4 through this tag (docs/performance.md, "The lists, the home and a
signed-in request's fixed cost, fourth pass"). The badge's HTML depends
on nothing but its label, its tone, the language and autoescaping, so the same badge is rendered
once by the same template and kept (at most 1,024, then started over). Only text is kept (a `str`
label and tone, or none): anything else (a lazy label, a number) renders the template as before.
The tag passes `tone` itself (default none), where an include without it would read the page's own.
"""

from django import template
from django.template import Engine
from django.utils.safestring import SafeData
from django.utils.translation import get_language

register = template.Library()

TEMPLATE = "core/components/status_badge.html"
KEPT = 1024
_rendered: dict[tuple, str] = {}


def _keyable(value) -> bool:
    return value is None or isinstance(value, str)


@register.simple_tag(takes_context=True)
def badge(context, label, tone=""):
    key = None
    if _keyable(label) and _keyable(tone):
        # A safe label is written as is, a plain one escaped: the two are different badges.
        key = (
            label,
            isinstance(label, SafeData),
            tone,
            isinstance(tone, SafeData),
            get_language(),
            context.autoescape,
        )
        html = _rendered.get(key)
        if html is not None:
            return html
    # A partial rendered alone (`page.html#results`) has no template bound to its context.
    engine = context.template.engine if context.template is not None else Engine.get_default()
    html = engine.get_template(TEMPLATE).render(context.new({"label": label, "tone": tone}))
    if key is not None:
        if len(_rendered) >= KEPT:
            _rendered.clear()
        _rendered[key] = html
    return html
