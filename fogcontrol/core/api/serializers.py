"""Serializers shared by every app's API."""

import copy
import re
from functools import cached_property, partial

from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import MaxLengthValidator, ProhibitNullCharactersValidator
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.fields import SkipField, empty
from rest_framework.relations import PKOnlyObject
from rest_framework.validators import ProhibitSurrogateCharactersValidator

from fogcontrol.core.api import rows


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


# DRF's ``to_representation``, with each field's reading and writing planned once a serializer
# class (issue 16).
#
# For every field of every row DRF calls ``Field.get_attribute``, which walks the source through a
# generic getter that asks whether each value is a callable to call (an inspection of its
# signature) and wraps the read in exception handling for missing attributes, then the field's
# ``to_representation``, which decides again for every value what the field's settings are; and it
# builds every field again for every serializer. The plan (``core.api.rows``), made once a class
# from its fields, gives each field of DRF's own classes a getter (an attribute, a column through
# the model's forward relations, a relation's id column, a method) and its representation with its
# constants worked out; a read that fails or finds a callable, and every other field (nested
# serializers, defaults), goes through the serializer's own bound field, DRF's way. Same keys, same
# order, same values. A serializer whose fields are not its class's alone (its own ``get_fields``)
# is planned from its own fields, each time.
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

    @classmethod
    def _class_plan(cls, serializer) -> list[rows.FieldPlan]:
        plan = cls.__dict__.get("_row_plans")
        if plan is None:
            model = getattr(getattr(cls, "Meta", None), "model", None)
            plan = [
                rows.field_plan(field, model, cls.prefetched_lists) for field in serializer._readable_fields
            ]
            if type(serializer).get_fields is serializers.ModelSerializer.get_fields:
                cls._row_plans = plan  # on this class itself, not inherited by a subclass
        return plan

    def _bound_field(self, name: str) -> serializers.Field:
        """The serializer's field, bound as DRF binds it. A declared field is built alone (what
        ``ModelSerializer.get_fields`` does with it: a deep copy, bound to this serializer) while no
        other field is needed; anything else builds the serializer's fields."""
        alone = self.__dict__.setdefault("_fields_alone", {})
        if "fields" in self.__dict__ or name not in self._declared_fields:
            return self.fields[name]
        if name not in alone:
            field = copy.deepcopy(self._declared_fields[name])
            field.bind(field_name=name, parent=self)
            alone[name] = field
        return alone[name]

    @cached_property
    def _row_plan(self) -> list[tuple]:
        plan = []
        for entry in self._class_plan(self):
            name = entry.name
            bound = partial(self._bound_field, name)
            if entry.method is not None:
                write = getattr(self, entry.method)
            elif entry.make is not None:
                write = entry.make(bound)
            else:
                write = None
            plan.append((name, entry.listed, entry.read, entry.method is not None, write, bound))
        return plan

    def to_representation(self, instance):
        row = {}
        for name, listed, read, method, write, bound in self._row_plan:
            if method:
                row[name] = write(instance)
                continue
            if listed is not None and hasattr(instance, listed):
                attribute = getattr(instance, listed)
            else:
                attribute = _UNREAD
                if read is not None:
                    try:
                        attribute = read(instance)
                    except (AttributeError, ObjectDoesNotExist):
                        attribute = _UNREAD
                    if callable(attribute):
                        attribute = _UNREAD
                if attribute is _UNREAD:  # DRF's way, which decides: a default, None, the error
                    field = bound()
                    try:
                        attribute = field.get_attribute(instance)
                    except SkipField:
                        continue
                    if isinstance(attribute, PKOnlyObject):
                        row[name] = None if attribute.pk is None else field.to_representation(attribute)
                        continue
            if attribute is None:
                row[name] = None
            else:
                row[name] = bound().to_representation(attribute) if write is None else write(attribute)
        return row


_UNREAD = object()


# DRF's ``run_validation`` of an input serializer, for many items, without its machinery per
# value (issue 16: the API batch).
#
# For every field of every item DRF looks the value up, tests it for emptiness, converts it,
# calls each of the field's validators through a try block, and sets it into the result: for a
# 500-item batch of 20 fields that cost about 100 µs an item, more than parsing the same row from
# CSV (≈ 10 µs). Most of those fields are text and flags, and a JSON client sends them as a plain
# ``str`` or ``bool``: for those, this computes what DRF's own steps return (the text stripped;
# blank only where allowed; no NUL or surrogate and within ``max_length``, its validators'
# checks; the flag itself), an optional field left out gives its default, and every other
# value (numbers, dates, ``None``, a string for a flag) goes through the field's own
# ``run_validation``. An item that fails anywhere is checked again by ``run_validation`` whole,
# so a refused item's errors are DRF's, word for word; a serializer with anything this does not
# know (``validate``, serializer validators, a ``validate_<field>``, dotted sources, other kinds
# of text field) is checked by ``run_validation`` for every item.
_TEXT, _FLAG, _FIELD = "text", "flag", "field"
_SURROGATE = re.compile("[\ud800-\udfff]")
_TEXT_CHECKS = (ProhibitNullCharactersValidator, ProhibitSurrogateCharactersValidator, MaxLengthValidator)


class PlainItemsMixin:
    @cached_property
    def _item_plan(self) -> list[tuple[str, serializers.Field, str]] | None:
        if (
            type(self).validate is not serializers.Serializer.validate
            or self.validators
            or getattr(self, "partial", False)
        ):
            return None
        plan = []
        for field in self._writable_fields:
            if hasattr(self, "validate_" + field.field_name) or field.source_attrs != [field.field_name]:
                return None
            kind = _FIELD
            if (
                type(field) is serializers.CharField
                and field.trim_whitespace
                and all(type(check) in _TEXT_CHECKS for check in field.validators)
            ):
                kind = _TEXT
            elif type(field) is serializers.BooleanField and not field.validators:
                kind = _FLAG
            plan.append((field.field_name, field, kind))
        return plan

    def check_item(self, item) -> dict:
        """What ``run_validation(item)`` returns, or the ``ValidationError`` it raises."""
        plan = self._item_plan
        if plan is None or type(item) is not dict:
            return self.run_validation(item)
        out = {}
        try:
            for name, field, kind in plan:
                value = item.get(name, empty)
                if kind is _TEXT and type(value) is str:
                    text = value.strip()
                    if not text and not field.allow_blank:
                        return self.run_validation(item)  # DRF's "may not be blank"
                    if text and (
                        "\x00" in text
                        or _SURROGATE.search(text)
                        or (field.max_length is not None and len(text) > field.max_length)
                    ):
                        return self.run_validation(item)
                    out[name] = text
                elif kind is _FLAG and type(value) is bool:
                    out[name] = value
                elif value is empty and not field.required:  # left out: its default, or nothing
                    if field.default is not empty:
                        out[name] = field.get_default()
                else:
                    try:
                        out[name] = field.run_validation(value)
                    except SkipField:
                        pass
        except (ValidationError, DjangoValidationError):
            return self.run_validation(item)  # its errors as DRF words them, every field's
        return out
