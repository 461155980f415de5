"""How `RowsSerializerMixin` reads and writes each field of a row: DRF's own steps, planned once a
serializer class instead of decided again for every value (issue 16).

Reading. DRF's ``Field.get_attribute`` walks a field's source through a generic getter that asks
of each value whether it is a callable to call and wraps the read in exception handling. For a
field that reads an attribute DRF's way, a single attribute or a chain of the model's forward
relations ending in a column (``parcel.apn``), the plan holds an ``operator.attrgetter``; a
``PrimaryKeyRelatedField`` on a forward relation reads its id column (``parcel_id``), which is what
DRF's ``PKOnlyObject`` carries; a ``SerializerMethodField`` calls its method with the record. When
a getter fails (a related record that is not there, a property that raises) or finds a callable,
the row reads that field DRF's way, which decides as it always did (its default, None, the error).

Writing. DRF's ``to_representation`` of a date-time converts it to the current time zone through
``enforce_timezone`` and its checks, a decimal copies the thread's decimal context and builds its
exponent, a choice tests for an ``Enum`` first: a chain of Python calls for every value of every
row. For a field of one of DRF's own classes with DRF's own settings (ISO 8601, decimals as
strings, no localising) the plan does the same steps with their constants worked out once: the
same text for the same value. A value of another type than the column's (a string in a date
field, an ``Enum`` member, a naive date-time) goes to the field's own ``to_representation``.

Planned once a class. DRF builds a serializer's fields again for every serializer (every request:
a ModelSerializer's fields from its model, its declared fields deep-copied and bound), about 2 ms of
a list of 30 fields. What the plan keeps of them is the class's (its Meta and declarations: the
fields' kinds, sources, choices, decimal places, method names), never a bound field, its parent or
its context; so a serializer that reads its rows by the plan builds no field, except a nested
serializer's field (built alone, as DRF builds it) and, when a row must be read or written DRF's
way, its fields as DRF builds them. The current time zone is read for each serializer, as DRF does
for each value.
"""

from __future__ import annotations

import datetime
import decimal
from collections.abc import Callable
from operator import attrgetter
from typing import NamedTuple

from django.conf import settings
from django.utils import timezone
from rest_framework import fields, relations
from rest_framework.settings import api_settings

ISO_8601 = "iso-8601"

# A factory of a field's representation: given how to get the serializer's bound field (for DRF's
# own ``to_representation`` of an unexpected value), the function that writes a value not None.
Make = Callable[[Callable[[], fields.Field]], Callable]


class FieldPlan(NamedTuple):
    name: str
    listed: str | None  # the plain list the list's selector loaded (``prefetched_lists``)
    read: Callable | None  # None: the bound field's ``get_attribute``
    method: str | None  # a SerializerMethodField's method, called with the record
    make: Make | None  # None: the bound field's ``to_representation``


def field_plan(field: fields.Field, model, prefetched_lists: dict[str, str]) -> FieldPlan:
    attrs = field.source_attrs
    listed = prefetched_lists.get(attrs[0]) if len(attrs) == 1 else None
    kind = type(field)
    if (
        kind is fields.SerializerMethodField
        and field.source == "*"
        and kind.get_attribute is fields.Field.get_attribute
    ):
        return FieldPlan(field.field_name, None, None, field.method_name, None)
    read = _reader(field, model) if attrs and model is not None else None
    if read is _ID:
        return FieldPlan(
            field.field_name, listed, attrgetter(_forward_relation(model, attrs[0]).attname), None, _same
        )
    return FieldPlan(field.field_name, listed, read, None, representation(field))


_ID = object()


def _reader(field, model):
    attrs = field.source_attrs
    if type(field).get_attribute is fields.Field.get_attribute:
        if len(attrs) == 1:
            return attrgetter(attrs[0])
        return attrgetter(".".join(attrs)) if _column_through_relations(model, attrs) else None
    if (
        len(attrs) == 1
        and type(field).get_attribute is relations.RelatedField.get_attribute
        and type(field).to_representation is relations.PrimaryKeyRelatedField.to_representation
        and field.pk_field is None
        and _forward_relation(model, attrs[0]) is not None
    ):
        return _ID
    return None


def _forward_relation(model, name: str):
    """The model's own foreign key or one-to-one field called ``name``, or None."""
    for column in model._meta.concrete_fields:
        if column.name == name:
            return column if column.is_relation and (column.many_to_one or column.one_to_one) else None
    return None


def _column_through_relations(model, attrs: list[str]) -> bool:
    for name in attrs[:-1]:
        relation = _forward_relation(model, name)
        if relation is None:
            return False
        model = relation.related_model
    return any(attrs[-1] in (column.name, column.attname) for column in model._meta.concrete_fields)


def _same(bound):
    return _identity  # a relation's id (what DRF's PKOnlyObject carries), a read-only field's value


def _identity(value):
    return value


def representation(field: fields.Field) -> Make | None:
    """How to write the field's value when it is not None, or None: its own ``to_representation``."""
    kind = type(field)
    method = kind.to_representation
    if method is fields.CharField.to_representation:
        return lambda bound: str
    if method is fields.IntegerField.to_representation:
        return lambda bound: int
    if method is fields.BigIntegerField.to_representation:
        text = getattr(field, "coerce_to_string", api_settings.COERCE_BIGINT_TO_STRING)
        return (lambda bound: str) if text else (lambda bound: int)
    if method is fields.ReadOnlyField.to_representation:
        return _same
    if method is fields.BooleanField.to_representation:
        return _flag
    if method is fields.ChoiceField.to_representation:
        return _choice(field.choice_strings_to_values)
    if method is fields.DateField.to_representation and _iso(field, api_settings.DATE_FORMAT):
        return _day
    if (
        method is fields.DateTimeField.to_representation
        and kind.enforce_timezone is fields.DateTimeField.enforce_timezone
        and kind.default_timezone is fields.DateTimeField.default_timezone
        and _iso(field, api_settings.DATETIME_FORMAT)
    ):
        return _moment(field)
    if method is fields.DecimalField.to_representation and kind.quantize is fields.DecimalField.quantize:
        return _number(field)
    if method is fields.ListField.to_representation:
        child = representation(field.child)
        return None if child is None else _items(child)
    if (
        method is relations.ManyRelatedField.to_representation
        and type(field.child_relation).to_representation is relations.PrimaryKeyRelatedField.to_representation
        and field.child_relation.pk_field is None
    ):
        return lambda bound: _ids
    return None


def _ids(records):
    return [record.pk for record in records]


def _iso(field, default: str) -> bool:
    output = getattr(field, "format", default)
    return isinstance(output, str) and output.lower() == ISO_8601


def _flag(bound):
    def flag(value):
        return value if type(value) is bool else bound().to_representation(value)

    return flag


def _choice(names: dict) -> Make:
    def make(bound):
        def choice(value):
            # A column's plain, non-empty text: DRF's own look-up, without its checks for '' and Enum.
            if type(value) is str and value:
                return names.get(value, value)
            return bound().to_representation(value)

        return choice

    return make


def _day(bound):
    def day(value):
        return value.isoformat() if type(value) is datetime.date else bound().to_representation(value)

    return day


def _moment(field) -> Make:
    fixed = field.timezone if hasattr(field, "timezone") else _CURRENT

    def make(bound):
        # The zone DRF's enforce_timezone reads: the field's own, else its default_timezone().
        zone = fixed
        if zone is _CURRENT:
            zone = timezone.get_current_timezone() if settings.USE_TZ else None
        if zone is None:
            return lambda value: bound().to_representation(value)

        def moment(value):
            # An aware date-time in that zone, "+00:00" written "Z", as DRF writes it.
            if type(value) is not datetime.datetime or value.utcoffset() is None:
                return bound().to_representation(value)
            try:
                text = value.astimezone(zone).isoformat()
            except OverflowError:
                return bound().to_representation(value)  # DRF's own "overflow" error
            return text[:-6] + "Z" if text.endswith("+00:00") else text

        return moment

    return make


_CURRENT = object()


def _number(field) -> Make | None:
    if (
        not getattr(field, "coerce_to_string", api_settings.COERCE_DECIMAL_TO_STRING)
        or field.localize
        or field.normalize_output
        or field.decimal_places is None
    ):
        return None
    # DRF's quantize, with its exponent and context made once, not for every value.
    places = decimal.Decimal(".1") ** field.decimal_places
    context = decimal.getcontext().copy()
    if field.max_digits is not None:
        context.prec = field.max_digits
    rounding = field.rounding

    def make(bound):
        def number(value):
            if type(value) is not decimal.Decimal:
                return bound().to_representation(value)
            return f"{value.quantize(places, rounding=rounding, context=context):f}"

        return number

    return make


def _items(child: Make) -> Make:
    def make(bound):
        write = child(lambda: bound().child)
        return lambda items: [None if item is None else write(item) for item in items]

    return make
