"""The licence import API: upload (with a dry run or applied at once), read the report, apply.

Program staff only: anyone else gets 404. Uploads and dry runs need registry editing rights
(FOG Manager, inspectors); applying needs the FOG Manager (403 otherwise). A step the import's
state forbids (applying twice, changing a running import) answers 409 with the reason.
"""

from django.db import transaction
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.response import Response

from fogcontrol.core.api.errors import Conflict
from fogcontrol.core.api.views import ScopedViewSet
from fogcontrol.core.permissions import require_role
from fogcontrol.core.roles import REGISTRY_EDITORS
from fogcontrol.registry.imports import selectors, services
from fogcontrol.registry.imports.api.serializers import (
    LicenceImportCreateSerializer,
    LicenceImportRowSerializer,
    LicenceImportSerializer,
    LicenceImportStartSerializer,
)
from fogcontrol.registry.imports.filters import ImportRowFilter


class LicenceImportViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    serializer_class = LicenceImportSerializer
    parser_classes = [MultiPartParser, FormParser, JSONParser]
    filter_backends: list = []

    def get_queryset(self):
        return selectors.licence_import_list(self.request.user)

    def _require_staff(self):
        if not self.request.user.is_program_staff:
            raise Http404

    def _fresh(self, licence_import):
        return selectors.licence_import_detail(self.request.user, licence_import.pk)

    @extend_schema(request=LicenceImportCreateSerializer, responses={201: LicenceImportSerializer})
    def create(self, request):
        """Upload an export; run the dry run (default) or apply it at once (`dry_run=false`)."""
        self._require_staff()
        require_role(
            request.user, REGISTRY_EDITORS, "Only the FOG Manager and inspectors may import licence records."
        )
        data = LicenceImportCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        # Not wrapped in a transaction here: the service reads the file without holding the
        # write lock, checks the mapping before keeping anything, and starts the run on commit.
        try:
            licence_import = services.licence_import_upload_and_start(
                acting_user=request.user,
                uploaded_file=data.validated_data["file"],
                mapping=data.validated_data.get("mapping"),
                apply=not data.validated_data["dry_run"],
            )
        except services.ImportStateError as error:
            raise Conflict(str(error)) from None
        return Response(
            LicenceImportSerializer(self._fresh(licence_import)).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(request=LicenceImportStartSerializer, responses={202: LicenceImportSerializer})
    @action(detail=True, methods=["post"], url_path="dry-run")
    def dry_run(self, request, pk=None):
        """Run the dry run again, optionally with a new mapping."""
        return self._start(request, apply=False)

    @extend_schema(request=None, responses={202: LicenceImportSerializer})
    @action(detail=True, methods=["post"])
    def apply(self, request, pk=None):
        """Apply the import to the registry (FOG Manager only)."""
        return self._start(request, apply=True)

    def _start(self, request, *, apply: bool):
        licence_import = self.get_object()
        try:
            with transaction.atomic():
                if not apply:
                    data = LicenceImportStartSerializer(data=request.data)
                    data.is_valid(raise_exception=True)
                    if data.validated_data.get("mapping") is not None:
                        licence_import = services.licence_import_set_mapping(
                            licence_import=licence_import,
                            acting_user=request.user,
                            mapping=data.validated_data["mapping"],
                        )
                services.licence_import_start(
                    licence_import=licence_import, acting_user=request.user, apply=apply
                )
        except services.ImportStateError as error:
            raise Conflict(str(error)) from None
        return Response(
            LicenceImportSerializer(self._fresh(licence_import)).data, status=status.HTTP_202_ACCEPTED
        )

    @extend_schema(
        responses=LicenceImportRowSerializer(many=True),
        parameters=[
            OpenApiParameter("outcome", enum=["created", "updated", "unchanged", "doubtful", "rejected"]),
            OpenApiParameter("q", str, description="Licence number or business name contains"),
            OpenApiParameter("report", enum=["dry_run", "applied"], description="Default: the latest report"),
        ],
    )
    @action(detail=True, methods=["get"])
    def rows(self, request, pk=None):
        """Every row of the report, with its outcome and reasons; paginated."""
        licence_import = self.get_object()
        report = request.query_params.get("report")
        applied = {"dry_run": False, "applied": True}.get(report)
        filterset = ImportRowFilter(
            request.query_params, queryset=selectors.licence_import_rows(licence_import, applied=applied)
        )
        if not filterset.is_valid():
            raise ValidationError(filterset.errors)
        page = self.paginate_queryset(filterset.qs)
        return self.get_paginated_response(LicenceImportRowSerializer(page, many=True).data)
