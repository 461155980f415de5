"""Block components whose content is markup: `{% table %}` and `{% card %}`.

    {% load components %}
    {% table caption="Devices of this parcel" %}<thead>…</thead><tbody>…</tbody>{% endtable %}
    {% card title="Who is responsible" id="responsibility" %}<p>…</p>{% endcard %}

A table without a caption does not compile (TemplateSyntaxError): every table says what it lists to
a screen reader. The caption is visually hidden unless `show_caption=True` (the heading above says
it to the eye). The markup is in `core/templates/core/components/`.
"""

from django import template
from django.template import Engine
from django.template.base import token_kwargs

register = template.Library()


# Each component's arguments and their defaults: an argument not given must not be read from the
# page's own context (a page's `title` is not its cards' title).
ARGUMENTS = {
    "table": {"caption": "", "classes": "", "id": "", "show_caption": False},
    "card": {"title": "", "classes": "", "id": ""},
}


class _ComponentNode(template.Node):
    def __init__(self, name: str, nodelist, kwargs):
        self.name = name
        self.template_name = f"core/components/{name}.html"
        self.nodelist = nodelist
        self.kwargs = kwargs

    def render(self, context):
        values = dict(ARGUMENTS[self.name])
        values.update({name: value.resolve(context) for name, value in self.kwargs.items()})
        values["body"] = self.nodelist.render(context)
        # A partial rendered alone (`page.html#results`) has no template bound to its context.
        engine = context.template.engine if context.template is not None else Engine.get_default()
        component = engine.get_template(self.template_name)
        with context.push(**values):
            return component.render(context)


def _component(parser, token, name: str, required: tuple[str, ...]):
    bits = token.split_contents()
    kwargs = token_kwargs(bits[1:], parser)
    if len(kwargs) != len(bits) - 1 or not set(kwargs) <= set(ARGUMENTS[name]):
        raise template.TemplateSyntaxError(f"{{% {name} %}} takes {', '.join(ARGUMENTS[name])} as name=value")
    for argument in required:
        if argument not in kwargs:
            raise template.TemplateSyntaxError(f"{{% {name} %}} needs {argument}=")
    nodelist = parser.parse((f"end{name}",))
    parser.delete_first_token()
    return _ComponentNode(name, nodelist, kwargs)


@register.tag
def table(parser, token):
    return _component(parser, token, "table", required=("caption",))


@register.tag
def card(parser, token):
    return _component(parser, token, "card", required=())
