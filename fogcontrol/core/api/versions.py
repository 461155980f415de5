"""Optimistic concurrency in the API (fogcontrol/core/concurrency.py): an ETag out, If-Match in.

A versioned record's detail answers (GET, PATCH, PUT) carry `ETag: "<version>"`, and its body the
same `version`. A client that sends it back in `If-Match` on PATCH or PUT has its save refused
with 409 (`"code": "stale_record"`, the current version and ETag) if someone saved the record in
between. Without If-Match (or with `*`) the write is unconditional, as a script's always was.
"""

from __future__ import annotations

import re

from rest_framework.exceptions import ValidationError

_ETAG = re.compile(r'^(?:W/)?"(\d{1,18})"$')
DETAIL_ACTIONS = frozenset({"retrieve", "update", "partial_update"})


def if_match_version(request) -> int | None:
    """The version named by the request's If-Match header; None when there is none (or `*`)."""
    raw = request.headers.get("If-Match", "").strip()
    if not raw or raw == "*":
        return None
    match = _ETAG.match(raw)
    if match is None:
        raise ValidationError(
            {"If-Match": 'Send the ETag of the record as you read it, such as "3" (with the quotes).'}
        )
    return int(match.group(1))


class VersionETag:
    """On a viewset (listed before DRF's classes): the ETag header on a versioned record's detail
    answers, taken from the `version` its serializer shows."""

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        data = getattr(response, "data", None)
        if (
            getattr(self, "action", None) in DETAIL_ACTIONS
            and 200 <= response.status_code < 300
            and isinstance(data, dict)
            and isinstance(data.get("version"), int)
        ):
            response["ETag"] = f'"{data["version"]}"'
        return response
