"""The API's OpenAPI schema documents the errors every operation can answer with (issue 15).

drf-spectacular documents the success of an operation; the refusals come from DRF and from our
exception handler (fogcontrol.core.api.errors) alike for every view, so they are added here, once,
for every operation, as they really occur:

- 400, what was sent is wrong (a field-by-field body): every write (the services validate even a
  step without a body: "already has an application in progress"), and operations with query or
  header parameters.
- 401, no or a bad token (`WWW-Authenticate: Token`), and 403, a role that may not (or staff
  signing for a party without fresh authentication): operations that need a signed-in user.
- 404, the record does not exist or is outside the user's scope (one answer for both): every
  operation that needs a signed-in user (what a role may not see, staff-only settings and imports
  among them, answers 404 to it), operations with a path parameter, and paginated lists (a page
  past the end).
- 409, the record's state forbids the change, or the copy edited is stale: writes on one record
  (PUT, PATCH, DELETE, and POST steps under a record's path).
- 415, a write whose body is in a media type the operation does not read;
- 429, too many requests: operations with a throttle, with `Retry-After`.

A status the view documents itself (with its own description) is kept as it is.

And one correction to the fields: DRF drops `allow_blank` from a read-only field built from the
model, so a choice left empty (`blank=True`) was documented as one of the choices only; it is
documented with the empty choice too (`BlankEnum`).
"""

from __future__ import annotations

from django.core.exceptions import FieldDoesNotExist
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.plumbing import ResolvedComponent
from rest_framework import serializers
from rest_framework.permissions import AllowAny

_DETAIL = {"type": "string", "description": "What is wrong, and how to put it right."}

ERROR_COMPONENTS = {
    "ValidationErrorBody": {
        "type": "object",
        "description": "Each field that is wrong, with what is wrong with it "
        '(`{"licence_number": ["..."]}`); `non_field_errors` for what concerns several fields; '
        "`detail` when the body itself cannot be read (malformed JSON).",
        "additionalProperties": {},
    },
    "ErrorBody": {
        "type": "object",
        "properties": {
            "detail": _DETAIL,
            "code": {"type": "string", "description": "A stable name for the refusal, where it has one."},
        },
        "required": ["detail"],
    },
    "ConflictBody": {
        "type": "object",
        "properties": {
            "detail": _DETAIL,
            "code": {"type": "string", "description": "`stale_record` when the copy edited is out of date."},
            "current_version": {
                "type": "integer",
                "description": "With `stale_record`: the record's version now (also in `ETag`).",
            },
        },
        "required": ["detail"],
        "additionalProperties": {},
    },
}

ERRORS = {
    "400": ("ValidationErrorBody", "What was sent is not valid: each field with what is wrong."),
    "401": ("ErrorBody", "No credentials, or a token that is not valid (`WWW-Authenticate: Token`)."),
    "403": (
        "ErrorBody",
        "The user's role may not do this (or staff signing for a party must authenticate again).",
    ),
    "404": ("ErrorBody", "No such record, or none the user may see."),
    "409": ("ConflictBody", "The record's state does not allow this, or the copy edited is out of date."),
    "415": ("ErrorBody", "The body's media type is not one the operation reads: send JSON."),
    "429": ("ErrorBody", "Too many requests: wait the `Retry-After` seconds and try again."),
}
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
WRITES_ON_ONE_RECORD = frozenset({"PUT", "PATCH", "DELETE"})


class AutoSchema(SpectacularAutoSchema):
    """drf-spectacular's AutoSchema, with each operation's error answers added."""

    def _get_paginator(self):
        # DRF pages only a GET list. A write that answers with a list (the invoices one POST
        # issues) sends a plain array, which the schema must say, not a page of results.
        if self.method != "GET":
            return None
        return super()._get_paginator()

    def get_operation(self, path, path_regex, path_prefix, method, registry):
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        responses = operation.setdefault("responses", {})
        for status in self._error_statuses(operation):
            name, description = ERRORS[status]
            existing = responses.get(status)
            if existing is not None and existing.get("content"):
                continue
            response = {
                "description": (existing or {}).get("description") or description,
                "content": {"application/json": {"schema": self._error_component(name)}},
            }
            if status == "429":
                response["headers"] = {
                    "Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait."}
                }
            responses[status] = response
        operation["responses"] = dict(sorted(responses.items()))
        return operation

    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        if isinstance(field, serializers.ChoiceField) and field.read_only and not field.allow_blank:
            field.allow_blank = _model_field_may_be_blank(field)
        return super()._map_serializer_field(field, direction, bypass_extensions)

    def _error_statuses(self, operation) -> list[str]:
        places = {parameter.get("in") for parameter in operation.get("parameters", [])}
        in_path = "path" in places
        statuses = []
        if self.method in WRITES or places - {"path"}:
            statuses.append("400")
        authenticated = self._needs_authentication()
        if authenticated:
            statuses += ["401", "403"]
        if authenticated or in_path or self._is_paginated_list():
            statuses.append("404")
        if self.method in WRITES_ON_ONE_RECORD or (self.method == "POST" and in_path):
            statuses.append("409")
        if self.method in WRITES:
            statuses.append("415")
        if getattr(self.view, "throttle_classes", None):
            statuses.append("429")
        return statuses

    def _needs_authentication(self) -> bool:
        permissions = getattr(self.view, "permission_classes", None) or []
        return any(not (isinstance(p, type) and issubclass(p, AllowAny)) for p in permissions)

    def _is_paginated_list(self) -> bool:
        return self.method == "GET" and self._is_list_view() and self._get_paginator() is not None

    def _error_component(self, name: str) -> dict:
        component = ResolvedComponent(
            name=name, type=ResolvedComponent.SCHEMA, object=name, schema=ERROR_COMPONENTS[name]
        )
        self.registry.register_on_missing(component)
        return component.ref


def _model_field_may_be_blank(field) -> bool:
    model = getattr(getattr(field.parent, "Meta", None), "model", None)
    if model is None or not field.source or "." in field.source:
        return False
    try:
        return bool(model._meta.get_field(field.source).blank)
    except FieldDoesNotExist:
        return False
