"""Related fields shared by every app's serializers."""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.relations import MANY_RELATION_KWARGS

from fogcontrol.core.api.filters import MAX_ID
from fogcontrol.core.scoping import VIEW


class PrefetchedManyRelatedField(serializers.ManyRelatedField):
    """A list of related records read straight from the row's prefetched cache when the list's
    query prefetched it (issue 16). DRF reads ``instance.<name>.all()``: Django builds a related
    manager for each row only to hand back that same cache, and building one costs far more than
    the list itself (a page of 50 FSEs with their haulers and users built 100). Without a
    prefetched cache, DRF's own way."""

    def get_attribute(self, instance):
        cache = getattr(instance, "_prefetched_objects_cache", None)
        if cache and len(self.source_attrs) == 1 and self.source_attrs[0] in cache:
            return cache[self.source_attrs[0]]
        return super().get_attribute(instance)


class PrefetchedMany:
    """For a related field: ``many=True`` gives a ``PrefetchedManyRelatedField``."""

    @classmethod
    def many_init(cls, *args, **kwargs):
        list_kwargs = {"child_relation": cls(*args, **kwargs)}
        list_kwargs.update({key: value for key, value in kwargs.items() if key in MANY_RELATION_KWARGS})
        return PrefetchedManyRelatedField(**list_kwargs)


class PrimaryKeyRelatedField(PrefetchedMany, serializers.PrimaryKeyRelatedField):
    """DRF's, reading a prefetched list without building a manager per row."""


class ScopedPrimaryKeyRelatedField(PrimaryKeyRelatedField):
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
