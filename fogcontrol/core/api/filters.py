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


class _RecordField(forms.ModelChoiceField):
    """A record id among a scoped queryset; an impossible id is refused before any query."""

    def to_python(self, value):
        if value not in self.empty_values and not (str(value).isdigit() and 1 <= int(value) <= MAX_ID):
            raise forms.ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return super().to_python(value)


class RecordFilter(django_filters.ModelChoiceFilter):
    """Filter on a related record by id, among the records the user may see
    (``Model.objects.visible_to(request.user)``): an id outside the user's scope is refused with
    the same 400 as an id that does not exist, so a filter never tells which records exist."""

    field_class = _RecordField

    def __init__(self, *args, model, what: str, **kwargs):
        kwargs["queryset"] = lambda request: model.objects.visible_to(getattr(request, "user", None))
        kwargs.setdefault("label", f"{what.capitalize()} id")
        kwargs.setdefault(
            "error_messages",
            {
                "invalid_choice": f"No {what} with this id is on record for you: give the id of one you can see."
            },
        )
        super().__init__(*args, **kwargs)
