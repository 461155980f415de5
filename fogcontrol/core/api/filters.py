"""Filters shared by every app's FilterSets."""

import django_filters
from django import forms

# The largest id a 64-bit primary key can hold; a larger number can match nothing, and SQLite
# would refuse to bind it (OverflowError), so the form refuses it first with a clear message.
MAX_ID = 2**63 - 1


class IdFilter(django_filters.Filter):
    """Filter on a record id: a whole number from 1 to MAX_ID, else a 400 naming the parameter."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(*args, **kwargs)
