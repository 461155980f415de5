"""API errors: every refusal names the field and says how to fix it; nothing ends in a 500.

Django's ValidationError (raised by services and model validation) becomes a 400 naming the
field; an invalid state transition (fogcontrol.core.api.errors.Conflict) a 409 with its reason;
an object outside the user's scope (DoesNotExist) a 404.
"""

from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, JsonResponse
from django.views import defaults
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from fogcontrol.core.errors import StaleRecord, StateConflict
from fogcontrol.core.fresh_auth import FreshAuthenticationRequired

# The 403 an operation that signs for a party documents (fogcontrol/core/fresh_auth.py).
FRESH_AUTHENTICATION_RESPONSE = OpenApiResponse(
    description="Town staff signing for a party must have authenticated within the last few minutes: "
    '`{"detail": "fresh authentication required: ...", "code": "fresh_authentication_required"}`. '
    "Send a current authenticator code in the `X-OTP-Token` header, or confirm on the site."
)


class Conflict(exceptions.APIException):
    """The request is well formed but the record's state forbids it (an illegal transition)."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = "The record's current state does not allow this."
    default_code = "conflict"


def django_validation_detail(error: DjangoValidationError) -> dict | list:
    if hasattr(error, "error_dict"):
        return {
            field if field != "__all__" else "non_field_errors": messages
            for field, messages in error.message_dict.items()
        }
    return {"non_field_errors": error.messages}


def exception_handler(exc, context):
    if isinstance(exc, DjangoValidationError):
        return Response(django_validation_detail(exc), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, StaleRecord):
        # The copy the client edited is out of date (fogcontrol/core/concurrency.py): 409, with
        # the version the record has now, so the client can fetch it and decide again.
        body = {"detail": str(exc), "code": "stale_record", "current_version": exc.current_version}
        return Response(body, status=status.HTTP_409_CONFLICT, headers={"ETag": f'"{exc.current_version}"'})
    if isinstance(exc, StateConflict):
        return Response({"detail": str(exc)}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, FreshAuthenticationRequired):
        return Response(
            {"detail": str(exc), "code": "fresh_authentication_required"}, status=status.HTTP_403_FORBIDDEN
        )
    if isinstance(exc, ObjectDoesNotExist):
        exc = Http404()
    if isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    return drf_exception_handler(exc, context)


def _in_the_api(request) -> bool:
    return request.path.startswith("/api/")


def page_not_found(request, exception):
    """handler404: a URL under /api/ that names nothing (`/api/v1/devices/abc/`, where an id must
    be a number) answers as the API does, in JSON; a page, with the site's page."""
    if _in_the_api(request):
        return JsonResponse({"detail": "Not found."}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request):
    """handler500: under /api/ a JSON body (a client reads no HTML); the site's page elsewhere."""
    if _in_the_api(request):
        return JsonResponse({"detail": "Server error."}, status=500)
    return defaults.server_error(request)
