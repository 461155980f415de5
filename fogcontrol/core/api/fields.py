"""Related fields shared by every app's serializers.

A list of related ids (``many=True``) is DRF's own field. A list's selector that prefetches such a
relation loads it as a plain list (``Prefetch(..., to_attr=...)``) and the serializer names it in
``RowsSerializerMixin.prefetched_lists`` (core/api/serializers.py): the one way the API reads
prefetched rows without a related manager built for each row (issue 16)."""

from __future__ import annotations

from rest_framework import serializers

from fogcontrol.core.api.filters import MAX_ID
from fogcontrol.core.scoping import VIEW


class ScopedPrimaryKeyRelatedField(serializers.PrimaryKeyRelatedField):
    """A related id, looked up among the records the requesting user may ``action``
    (``Model.objects.visible_to``). Any other id reads as unknown, exactly like one that does not
    exist, so nothing leaks. ``what`` names the record in the message, ``where`` lists valid ids.
    """

    def __init__(self, *, what: str, where: str, action: str = VIEW, **kwargs):
        self.action = action
        kwargs.setdefault(
            "error_messages",
            {
                "does_not_exist": f'No {what} with id "{{pk_value}}" is on record for you. Give the id of '
                f"one of the {what} records you can see (see {where}).",
                "incorrect_type": f"Give the {what}'s id as a whole number, not {{data_type}}.",
            },
        )
        super().__init__(**kwargs)

    def get_queryset(self):
        request = self.context.get("request")
        return self.queryset.visible_to(getattr(request, "user", None), self.action)

    def to_internal_value(self, data):
        # An id too large for a key can match nothing (and SQLite cannot bind it).
        if isinstance(data, int | str) and str(data).isdigit() and int(data) > MAX_ID:
            self.fail("does_not_exist", pk_value=data)
        return super().to_internal_value(data)


class RecordIdField(serializers.IntegerField):
    """A record's id in a request body: a whole number from 1 to MAX_ID (the database's largest),
    so a larger number is a 400 naming the field, never an overflow in the database driver."""

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(**kwargs)
