"""``get_<field>_display()`` without rebuilding the field's choices on every call (issue 16).

Django's own builds ``dict(make_hashable(field.flatchoices))`` at each call, and hashing a lazy
label translates it: a status or category shown on each row of a list page costs every one of the
field's labels translated, per row. Ours keeps the field's value → label table (labels still lazy,
so each is translated into the request's language when shown, as before) and translates the one
label shown, once a language (the translated text kept per value and language). Installed by
``CoreConfig.ready`` on this project's models, for fields whose choices are a fixed list; a model
that writes its own ``get_<field>_display`` keeps it.
"""

from __future__ import annotations

from functools import partialmethod

from django.apps import apps
from django.db import models
from django.utils.encoding import force_str
from django.utils.functional import Promise
from django.utils.hashable import make_hashable
from django.utils.translation import get_language

_LABELS = "_fogcontrol_choice_labels"
_WRITTEN = "_fogcontrol_choice_labels_written"


def _labels(field) -> dict:
    table = field.__dict__.get(_LABELS)
    if table is None:
        table = {make_hashable(value): label for value, label in field.flatchoices}
        field.__dict__[_LABELS] = table
    return table


def _display(self, field):
    value = getattr(self, field.attname)
    try:
        key = make_hashable(value)
        label = _labels(field).get(key, value)
    except TypeError:  # a value that cannot be a key: Django's own answer
        return models.Model._get_FIELD_display(self, field)
    if not isinstance(label, Promise):
        return force_str(label, strings_only=True)
    # A lazy label is the same text in the same language every time: translated once a language,
    # not once a row (a list writes two or three labels on each of its rows).
    written = field.__dict__.setdefault(_WRITTEN, {})
    language = get_language()
    text = written.get((key, language))
    if text is None:
        text = written[(key, language)] = force_str(label)
    return text


def _is_djangos(attribute) -> bool:
    return isinstance(attribute, partialmethod) and attribute.func is models.Model._get_FIELD_display


def install(prefix: str = "fogcontrol.") -> int:
    """Give each model under ``prefix`` the kept table for its fields with fixed choices; returns
    how many displays were replaced."""
    replaced = 0
    for model in apps.get_models():
        if not model.__module__.startswith(prefix):
            continue
        for field in model._meta.concrete_fields:
            if not field.choices or not isinstance(field.choices, (list, tuple)):
                continue  # no choices, or a callable's (read afresh by Django each time)
            name = f"get_{field.name}_display"
            if _is_djangos(model.__dict__.get(name)):
                setattr(model, name, partialmethod(_display, field=field))
                replaced += 1
    return replaced
