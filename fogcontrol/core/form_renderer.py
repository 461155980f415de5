"""The form renderer (settings.FORM_RENDERER): Django's, with its commonest widgets written in Python.

Django renders every widget through its template engine: a select is `select.html`, which
includes `select_option.html` for each option, which includes `attrs.html`; a text box is
`text.html`, which includes `input.html`, which includes `attrs.html`. On a list page the filter
form's selects are a fifth of the page's CPU (docs/performance.md, "The pages' Python, third
pass"). Here the input boxes, the textarea and the select with its options are written out in
Python the way those templates write them, to the character: the same escaping (a value that is
already safe is not escaped again), the same `value="…"` only when there is a value, the same
attributes in the same order (`True` written bare, `False` left out), the same spaces and line
breaks. Anything else, or anything unusual in these (a label that is not text, an option with its
own template, a callable the template engine would call), goes to Django's templates as before.
`core/tests/test_form_renderer.py` renders every kind of widget both ways and compares them.
"""

from __future__ import annotations

from django.forms.renderers import DjangoTemplates
from django.template import Context
from django.template.base import render_value_in_context
from django.utils.functional import Promise
from django.utils.html import conditional_escape
from django.utils.safestring import SafeData

_WIDGETS = "django/forms/widgets/"
# The widgets whose template is only `{% include "django/forms/widgets/input.html" %}`.
_INPUTS = frozenset(
    f"{_WIDGETS}{name}.html"
    for name in ("text", "number", "email", "url", "password", "date", "datetime", "time", "search")
    + ("tel", "hidden", "color", "checkbox")
)
_SELECT = f"{_WIDGETS}select.html"
_OPTION = f"{_WIDGETS}select_option.html"
_TEXTAREA = f"{_WIDGETS}textarea.html"
# What the template backend renders a widget's template with: autoescape on, no request.
_TEMPLATE_CONTEXT = Context(autoescape=True)


class _Unusual(Exception):
    """Something the templates would treat in a way not written out here: render with them."""


def _shown(value) -> str:
    """`{{ value }}`: localised and escaped as the template engine writes a variable."""
    if isinstance(value, str):
        return conditional_escape(value)
    if callable(value):
        raise _Unusual  # the template engine would call it
    if isinstance(value, Promise):  # a lazy translation
        return conditional_escape(str(value))
    return render_value_in_context(value, _TEMPLATE_CONTEXT)


def _formatted(value) -> str:
    """`{{ value|stringformat:'s' }}`: `"%s" % value`, safe if the value was, then escaped."""
    if callable(value):
        raise _Unusual
    text = "%s" % (str(value) if isinstance(value, tuple) else value)  # noqa: UP031 (the filter's own)
    return text if isinstance(value, SafeData) else conditional_escape(text)


def _attrs(attrs: dict) -> str:
    """`attrs.html`: ` name="value"` each, `True` bare, `False` left out."""
    parts = []
    for name, value in attrs.items():
        if value is False:
            continue
        if value is True:
            parts.append(f" {_shown(name)}")
        else:
            parts.append(f' {_shown(name)}="{_formatted(value)}"')
    return "".join(parts)


def _input(widget: dict) -> str:
    value = widget["value"]
    shown = f' value="{_formatted(value)}"' if value != None else ""  # noqa: E711 (the template's `!= None`)
    return f'<input type="{_shown(widget["type"])}" name="{_shown(widget["name"])}"{shown}{_attrs(widget["attrs"])}>'


def _textarea(widget: dict) -> str:
    value = widget["value"]
    text = _shown(value) if value else ""
    return f'<textarea name="{_shown(widget["name"])}"{_attrs(widget["attrs"])}>\n{text}</textarea>'


def _select(widget: dict) -> str:
    parts = [f'<select name="{_shown(widget["name"])}"{_attrs(widget["attrs"])}>']
    for group_name, options, _index in widget["optgroups"]:
        if group_name:
            parts.append(f'\n  <optgroup label="{_shown(group_name)}">')
        for option in options:
            if option["template_name"] != _OPTION:
                raise _Unusual
            parts.append(
                f'\n  <option value="{_formatted(option["value"])}"{_attrs(option["attrs"])}>'
                f"{_shown(option['label'])}</option>\n"  # the option's template ends with a line break
            )
        if group_name:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return "".join(parts)


_IN_PYTHON = {_SELECT: _select, _TEXTAREA: _textarea} | dict.fromkeys(_INPUTS, _input)


class FormRenderer(DjangoTemplates):
    """Django's DjangoTemplates renderer; the widgets in `_IN_PYTHON` written without templates."""

    def render(self, template_name, context, request=None):
        write = _IN_PYTHON.get(template_name)
        if write is not None:
            try:
                return write(context["widget"])
            except _Unusual:
                pass
        return super().render(template_name, context, request=request)
