"""`{{ value|translated }}`: a label that reaches a template as plain English (a form field's label
Django derives from its model field, a choice's display value) in the page's language, when our
catalogues hold it (docs/i18n.md). Labels derived from model fields are marked for the catalogues
in `fogcontrol/core/derived_labels.py`."""

from django import template
from django.utils.translation import gettext

register = template.Library()


@register.filter
def translated(value):
    if not value or not isinstance(value, str):
        return value
    return gettext(value)
