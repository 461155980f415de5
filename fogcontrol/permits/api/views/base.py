"""What every permits API view shares: refusals as 409, no deletes, PDF answers."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiResponse
from rest_framework import permissions
from rest_framework.exceptions import MethodNotAllowed

from fogcontrol.core.api.errors import Conflict
from fogcontrol.core.api.views import ScopedViewSet
from fogcontrol.permits.states import TransitionNotAllowed

CONFLICT = OpenApiResponse(description="The record's state does not allow this; the reason is given.")


def pdf_response(data: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


class PermitsViewSet(ScopedViewSet):
    """Shared plumbing: the service's refusals become 409; nothing is deleted."""

    permission_classes = [permissions.IsAuthenticated]

    def handle_exception(self, exc):
        if isinstance(exc, TransitionNotAllowed):
            exc = Conflict(str(exc))
        return super().handle_exception(exc)

    def http_method_not_allowed(self, request, *args, **kwargs):
        if request.method == "DELETE":
            raise MethodNotAllowed(
                "DELETE",
                detail="Permit records are not deleted: withdraw an application or revoke a permit instead.",
            )
        return super().http_method_not_allowed(request, *args, **kwargs)

    def input(self, serializer_class, **kwargs):
        form = serializer_class(data=self.request.data, context=self.get_serializer_context(), **kwargs)
        form.is_valid(raise_exception=True)
        return form.validated_data
