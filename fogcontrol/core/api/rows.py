"""How `RowsSerializerMixin` reads and writes each field of a row: DRF's own steps, planned once a
serializer instead of decided again for every value (issue 16).

DRF's ``Field.to_representation`` of a date-time converts it to the current time zone through
``enforce_timezone`` and its checks, a decimal copies the thread's decimal context and builds its
exponent, a choice tests for an ``Enum`` first; each is a chain of Python calls for every value of
every row. ``representation(field)`` gives, for a field of one of DRF's own classes with DRF's own
settings (ISO 8601, decimals as strings, no localising), a function that does the same steps with
their constants worked out once: the same text for the same value. A value of another type than
the column's (a string in a date field, an ``Enum`` member, a naive date-time) and every other
field go to the field's own ``to_representation``.

``field_plan(field, model)`` gives a getter (``operator.attrgetter``) for a field that reads an
attribute the way DRF's ``Field.get_attribute`` does: a single attribute, or a chain of the model's
forward relations ending in a column (``parcel.apn``). A ``PrimaryKeyRelatedField`` on a forward
relation reads its id column (``parcel_id``), which is what DRF's ``PKOnlyObject`` carries. When the
getter fails (a related record that is not there, a property that raises) or finds a callable,
the row reads that field DRF's way, which decides as it always did (its default, ``None``, or the
error).
"""

from __future__ import annotations

import datetime
import decimal
from collections.abc import Callable
from operator import attrgetter

from rest_framework import fields, relations
from rest_framework.settings import api_settings

ISO_8601 = "iso-8601"


def field_plan(field: fields.Field, model) -> tuple[Callable | None, Callable]:
    """How a row reads the field from a record of ``model`` (None: DRF's way) and writes its value
    when that is not None."""
    attrs = field.source_attrs
    if not attrs or model is None:
        return None, representation(field)
    if type(field).get_attribute is fields.Field.get_attribute:
        if len(attrs) == 1:
            return attrgetter(attrs[0]), representation(field)
        if _column_through_relations(model, attrs):
            return attrgetter(".".join(attrs)), representation(field)
        return None, representation(field)
    if (
        len(attrs) == 1
        and type(field).get_attribute is relations.RelatedField.get_attribute
        and type(field).to_representation is relations.PrimaryKeyRelatedField.to_representation
        and field.pk_field is None
    ):
        relation = _forward_relation(model, attrs[0])
        if relation is not None:
            return attrgetter(relation.attname), _same  # the id, which DRF's PKOnlyObject carries
    return None, representation(field)


def _same(value):
    return value


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


def representation(field: fields.Field) -> Callable:
    """What ``field.to_representation`` returns for a value that is not None, planned once."""
    kind = type(field)
    method = kind.to_representation
    if method is fields.CharField.to_representation:
        return str
    if method is fields.IntegerField.to_representation:
        return int
    if method is fields.BooleanField.to_representation:
        return _same_if(bool, field.to_representation)
    if method is fields.ChoiceField.to_representation:
        return _choice(field)
    if method is fields.DateField.to_representation and _iso(field, api_settings.DATE_FORMAT):
        return _day(field)
    if method is fields.DateTimeField.to_representation and _iso(field, api_settings.DATETIME_FORMAT):
        return _moment(field)
    if method is fields.DecimalField.to_representation and kind.quantize is fields.DecimalField.quantize:
        return _number(field)
    if method is fields.ListField.to_representation:
        child = representation(field.child)
        return lambda items: [None if item is None else child(item) for item in items]
    if (
        method is relations.ManyRelatedField.to_representation
        and type(field.child_relation).to_representation is relations.PrimaryKeyRelatedField.to_representation
        and field.child_relation.pk_field is None
    ):
        return lambda records: [record.pk for record in records]
    return field.to_representation


def _same_if(kind: type, otherwise: Callable) -> Callable:
    return lambda value: value if type(value) is kind else otherwise(value)


def _iso(field, default: str) -> bool:
    output = getattr(field, "format", default)
    return isinstance(output, str) and output.lower() == ISO_8601


def _choice(field) -> Callable:
    names = field.choice_strings_to_values
    drf = field.to_representation

    def choice(value):
        # A column's plain, non-empty text: DRF's own look-up, without its checks for '' and Enum.
        if type(value) is str and value:
            return names.get(value, value)
        return drf(value)

    return choice


def _day(field) -> Callable:
    drf = field.to_representation
    return lambda value: value.isoformat() if type(value) is datetime.date else drf(value)


def _moment(field) -> Callable:
    drf = field.to_representation
    if type(field).enforce_timezone is not fields.DateTimeField.enforce_timezone:
        return drf
    zone = field.timezone if hasattr(field, "timezone") else field.default_timezone()
    if zone is None:
        return drf

    def moment(value):
        # An aware date-time in the current time zone, "+00:00" written "Z", as DRF writes it.
        if type(value) is not datetime.datetime or value.utcoffset() is None:
            return drf(value)
        try:
            text = value.astimezone(zone).isoformat()
        except OverflowError:
            return drf(value)  # DRF's own "overflow" error
        return text[:-6] + "Z" if text.endswith("+00:00") else text

    return moment


def _number(field) -> Callable:
    drf = field.to_representation
    if (
        not getattr(field, "coerce_to_string", api_settings.COERCE_DECIMAL_TO_STRING)
        or field.localize
        or field.normalize_output
        or field.decimal_places is None
    ):
        return drf
    # DRF's quantize, with its exponent and context made once, not for every value.
    places = decimal.Decimal(".1") ** field.decimal_places
    context = decimal.getcontext().copy()
    if field.max_digits is not None:
        context.prec = field.max_digits
    rounding = field.rounding

    def number(value):
        if type(value) is not decimal.Decimal:
            return drf(value)
        return f"{value.quantize(places, rounding=rounding, context=context):f}"

    return number
