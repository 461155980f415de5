"""`Idempotency-Key` for API writes: a retry with the same key and body returns the first answer
and creates nothing; the same key with a different body is refused (422).

Keys are per user. Only successful answers are kept: a refused request created nothing, so
retrying it simply checks it again.
"""

import hashlib
import json

from django.db import IntegrityError, transaction
from rest_framework import status
from rest_framework.response import Response

from fogcontrol.servicing.models import IdempotencyRecord

HEADER = "Idempotency-Key"


def _fingerprint(request) -> str:
    body = request.data
    if hasattr(body, "dict"):
        body = body.dict()
    text = json.dumps([request.method, request.path, body], sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def idempotent(request, handler) -> Response:
    """Run ``handler()`` (which returns a Response) at most once per (user, Idempotency-Key)."""
    key = (request.headers.get(HEADER) or "").strip()
    if not key:
        return handler()
    if len(key) > 200:
        return Response({HEADER: ["At most 200 characters."]}, status=status.HTTP_400_BAD_REQUEST)
    fingerprint = _fingerprint(request)
    existing = IdempotencyRecord.objects.filter(user=request.user, key=key).first()
    if existing is not None:
        return _replay(existing, fingerprint)
    try:
        with transaction.atomic():
            # The key is claimed before the work: a concurrent request with the same key (another
            # process) waits on this row's unique index until this transaction ends, then replays
            # this answer, instead of doing the work again and being refused by what this one stored.
            claim = IdempotencyRecord.objects.create(
                user=request.user, key=key, fingerprint=fingerprint, response_status=0, response_body={}
            )
            response = handler()
            if not 200 <= response.status_code < 300:
                raise _NotKept(response)
            claim.response_status = response.status_code
            claim.response_body = json.loads(json.dumps(response.data, default=str))
            claim.save(update_fields=["response_status", "response_body"])
    except _NotKept as refused:
        return refused.response  # nothing was kept: a retry is checked again
    except IntegrityError:
        # A concurrent request with the same key won the race; answer as it did.
        existing = IdempotencyRecord.objects.filter(user=request.user, key=key).first()
        if existing is None:
            raise
        return _replay(existing, fingerprint)
    return response


class _NotKept(Exception):
    """A refused answer: rolls back the key's claim (and anything the handler wrote)."""

    def __init__(self, response: Response):
        super().__init__(response.status_code)
        self.response = response


def _replay(existing: IdempotencyRecord, fingerprint: str) -> Response:
    if existing.fingerprint != fingerprint:
        return Response(
            {
                HEADER: [
                    "This key was already used for a different request. Use a new key for a new submission, "
                    "or resend exactly the same body to get the first answer."
                ]
            },
            status=status.HTTP_422_UNPROCESSABLE_ENTITY,
        )
    response = Response(existing.response_body, status=existing.response_status)
    response["Idempotent-Replayed"] = "true"
    return response
