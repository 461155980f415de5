"""Serializers shared by every app's API."""

from functools import cached_property

from rest_framework import serializers
from rest_framework.fields import SkipField
from rest_framework.relations import PKOnlyObject


class ExplanationSerializer(serializers.Serializer):
    """A `rules.explain.Explanation`: the provisions a result rests on and the steps that produced
    it, so that a program can show the working a clerk would read at a hearing."""

    provisions = serializers.ListField(child=serializers.CharField(), help_text="Provision IDs, e.g. L2.")
    steps = serializers.ListField(child=serializers.CharField(), help_text="The working, in order.")
    text = serializers.CharField(help_text="Provisions and numbered steps as plain text.")


class VerdictSerializer(serializers.Serializer):
    """One step of `fogcontrol.core.actions`: may the requesting user take it now, and if not, why."""

    allowed = serializers.BooleanField(source="ok")
    reason = serializers.CharField(help_text="Empty when allowed; else what stands in the way.")


def actions_data(actions: dict) -> dict:
    return {step: VerdictSerializer(verdict).data for step, verdict in actions.items()}


# DRF's ``to_representation``, reading a model's own columns straight off the row (issue 16).
#
# For every field of every row DRF calls ``Field.get_attribute``, which walks the source
# through a generic getter that asks whether each value is a callable to call (an inspection
# of its signature) and wraps the read in exception handling for missing attributes. A model's
# concrete column (``business_name``, ``serviced_at``, ``device_id``) is never a callable and
# never missing, so for a field whose source is one such column and whose class reads it DRF's
# own way, this reads it with ``getattr``; every other field (related names, methods, nested
# serializers, defaults) goes through DRF as before. Same keys, same order, same values: the
# plan is made once a serializer (once a list), not once a row.
#
# ``prefetched_lists`` names, by a field's source, the relations a list's selector loads as plain
# lists (``Prefetch(name, to_attr=...)``): for those Django builds no related manager and filtered
# queryset for each row, at the prefetch and again when the field reads it (the devices API's list
# puts rows of the FSEs served there, `registry.selectors.with_served_rows`). A record loaded
# another way (a detail, the answer to a write) has no such list and is read through its relation,
# DRF's way. This is the API's one way of reading prefetched related rows (issue 16).
# (No docstring: the OpenAPI schema takes a serializer's description from the first class of
# its MRO that has one, and these serializers' descriptions must stay as they were.)
class RowsSerializerMixin:
    prefetched_lists: dict[str, str] = {}

    @cached_property
    def _row_plan(self) -> list[tuple[str, serializers.Field, str | None, str | None]]:
        model = getattr(getattr(self, "Meta", None), "model", None)
        columns = set()
        if model is not None:
            for column in model._meta.concrete_fields:
                columns.add(column.attname if column.is_relation else column.name)
        plan = []
        for field in self._readable_fields:
            attrs = field.source_attrs
            direct = (
                len(attrs) == 1
                and attrs[0] in columns
                and type(field).get_attribute is serializers.Field.get_attribute
            )
            listed = self.prefetched_lists.get(attrs[0]) if len(attrs) == 1 else None
            plan.append((field.field_name, field, attrs[0] if direct else None, listed))
        return plan

    def to_representation(self, instance):
        row = {}
        for name, field, column, listed in self._row_plan:
            if column is not None:
                attribute = getattr(instance, column)
            elif listed is not None and hasattr(instance, listed):
                attribute = getattr(instance, listed)
            else:
                try:
                    attribute = field.get_attribute(instance)
                except SkipField:
                    continue
            check_for_none = attribute.pk if isinstance(attribute, PKOnlyObject) else attribute
            row[name] = None if check_for_none is None else field.to_representation(attribute)
        return row
