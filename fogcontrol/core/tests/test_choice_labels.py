"""``get_<field>_display()`` reads a kept value → label table (issue 16: a list page showed each
row's status by translating every label of the field); what it shows is Django's answer."""

from django.apps import apps
from django.db import models
from django.utils import translation

from fogcontrol.core import choice_labels


def _choice_fields():
    for model in apps.get_models():
        if not model.__module__.startswith("fogcontrol."):
            continue
        for field in model._meta.concrete_fields:
            if field.choices and isinstance(field.choices, (list, tuple)):
                yield model, field


def test_every_display_shows_djangos_label_in_each_language():
    fields = list(_choice_fields())
    assert fields  # the registry's statuses and categories at least
    for language in ("en", "es"):
        with translation.override(language):
            for model, field in fields:
                display = getattr(model, f"get_{field.name}_display")
                for value, _label in [*field.flatchoices, ("not-a-choice", None)]:
                    row = model(**{field.attname: value})
                    assert display(row) == models.Model._get_FIELD_display(row, field), (model, field, value)


def test_installed_once_and_kept_for_the_models_own_displays():
    assert choice_labels.install() == 0  # CoreConfig.ready installed them all
    replaced = [
        (model, field)
        for model, field in _choice_fields()
        if not choice_labels._is_djangos(model.__dict__.get(f"get_{field.name}_display"))
    ]
    assert replaced
