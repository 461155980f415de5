"""The shared form field and form: `{% form_field %}` and `{% form_fields %}`, written in Python.

    {% load form_fields %}
    {% form_field form.name %}                     one field: label, control, error, help text
    {% form_field form.reason label=_("Why") %}     worded otherwise on this page
    {% form_field form.days each_error=True %}      each message in its own paragraph
    {% form_fields form %}                          a form: its errors, its fields, its hidden fields
    {% form_fields form fields=form.first_fields %} only those visible fields
    {% form_fields form draft_saved=True %}         the summary says the draft is kept

These are the one way a page writes a form field. They were two templates
(`core/components/form_field.html`, included once a field by `form_fields.html`); a device's history
spent 3.5-4 ms of about 25 in them for its two forms' 11 fields, most of it the template engine
resolving `field.errors`, `field.help_text`, `field.widget_type` … a dozen times a field, each
lookup first trying `field["errors"]`, which a bound field refuses with an exception
(docs/performance.md, "The shared form field, fifth pass"). Here each is read once. The markup is
written to the character as those templates wrote it, blank lines included, so that no page
changes: every `{{ value }}` goes through `render_value_in_context` (localised, escaped unless
already safe), the labels and help texts through `translated`, the control is the bound field's
own rendering (`core/form_renderer.py`). `core/tests/test_form_fields.py` pins the markup.
"""

from __future__ import annotations

from django import template
from django.template.base import render_value_in_context
from django.template.defaultfilters import join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from fogcontrol.core.templatetags.translated import translated

register = template.Library()

# The controls a field's box spans the grid's width for.
_WIDE = frozenset(("textarea", "clearablefile", "multiplefile", "selectmultiple"))


def field_html(context, field, label="", each_error=False) -> str:
    """One field: a fieldset for a group of choices, else a div with the label; then the error
    and the help text. Django gives a control aria-invalid and aria-describedby="<id>_error
    <id>_helptext": the ids written here are those."""

    def shown(value) -> str:
        return render_value_in_context(value, context)

    errors = field.errors
    help_text = field.help_text
    worded = shown(translated(label or field.label))
    control = shown(field)
    # The four blank lines the template's comments left before each field.
    parts = ["\n\n\n\n"]
    fieldset = field.use_fieldset
    if fieldset:
        described = ""
        if errors or help_text:
            auto_id = shown(field.auto_id)
            error_id = f"{auto_id}_error" if errors else ""
            between = " " if errors and help_text else ""
            help_id = f"{auto_id}_helptext" if help_text else ""
            described = f' aria-describedby="{error_id}{between}{help_id}"'
        required = " *" if field.field.required else ""
        parts.append(
            f'\n<fieldset class="field{" has-error" if errors else ""}"{described}>\n'
            f"  <legend>{worded}{required}</legend>\n  {control}\n"
        )
    else:
        kind = field.widget_type
        wide = " wide" if kind in _WIDE else ""
        parts.append(f'\n<div class="field{" has-error" if errors else ""}{wide}">\n  ')
        for_id = shown(field.id_for_label)
        if kind == "checkbox":
            parts.append(f'\n  <label for="{for_id}">{control} {worded}</label>\n  ')
        else:
            required = " *" if field.field.required else ""
            parts.append(f'\n  <label for="{for_id}">{worded}{required}</label>\n  {control}\n  ')
        parts.append("\n")
    parts.append("\n  ")
    if errors:
        error_id = f"{shown(field.auto_id)}_error"
        if each_error:
            messages = "".join(f'<p class="field-error">{shown(error)}</p>' for error in errors)
            parts.append(f'<div class="field-errors" id="{error_id}">{messages}</div>\n  ')
        else:
            parts.append(
                f'<p class="field-error" id="{error_id}">{join(errors, " ", autoescape=context.autoescape)}</p>'
            )
    parts.append("\n  ")
    if help_text:
        parts.append(
            f'<small class="muted" id="{shown(field.auto_id)}_helptext">{shown(translated(help_text))}</small>'
        )
    parts.append("\n</fieldset>\n" if fieldset else "\n</div>\n")
    return "".join(parts)


@register.simple_tag(takes_context=True)
def form_field(context, field, label="", each_error=False) -> SafeString:
    # Every value in it went through render_value_in_context or join(autoescape=...), as {{ }} does.
    return mark_safe(field_html(context, field, label=label, each_error=each_error))  # nosec B308 B703: escaped parts


@register.simple_tag(takes_context=True)
def form_fields(context, form, fields=None, draft_saved=False) -> SafeString:
    """A form's fields (`fields`: only those visible fields, for a form whose last fields follow
    text of its own), its errors above them and its hidden fields. `draft_saved`: the page kept
    the draft although the form has errors, and the summary says so."""

    def shown(value) -> str:
        return render_value_in_context(value, context)

    # What the template's `{% comment %}` left: one line break.
    parts = ["\n"]
    if form.errors:
        if draft_saved:
            said = gettext(
                "Your draft is saved, but it cannot be submitted yet: complete the fields marked below."
            )
        else:
            said = gettext("Please correct the fields marked below. Nothing has been saved yet.")
        parts.append(f'<p class="error" role="alert">{shown(said)}</p>')
    parts.append("\n")
    non_field_errors = form.non_field_errors()
    if non_field_errors:
        items = "".join(f"<li>{shown(error)}</li>" for error in non_field_errors)
        parts.append(f'<ul class="errorlist nonfield">{items}</ul>')
    parts.append("\n\n")
    hidden = form.hidden_fields()
    # A hidden field has no control a person fills in: its error is about the form, shown with the form's own.
    for field in hidden:
        if field.errors:
            errors = join(field.errors, " ", autoescape=context.autoescape)
            parts.append(f'<p class="error" role="alert">{shown(field.label)}: {errors}</p>')
    parts.append('\n<div class="formgrid">\n')
    for field in fields or form.visible_fields():
        parts.append(field_html(context, field))
    parts.append("\n</div>\n")
    parts.extend(shown(field) for field in hidden)
    parts.append("\n")
    return mark_safe("".join(parts))  # nosec B308 B703: every value escaped as in field_html
