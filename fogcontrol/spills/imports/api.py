"""`POST /api/v1/imports/spills/` (upload and dry run), `GET` the imports and one import's report
rows, `POST …/{id}/apply/` (the FOG Manager). Town staff only: anyone else gets 404."""

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from fogcontrol.core.api.views import ScopedViewSet
from fogcontrol.spills import selectors
from fogcontrol.spills.imports import services
from fogcontrol.spills.imports.serializers import (
    SpillImportCreateSerializer,
    SpillImportRowSerializer,
    SpillImportSerializer,
)
from fogcontrol.spills.roles import IMPORT_APPLIERS, SPILL_RECORDERS

IMPORT_STEPS = {
    "create": (SPILL_RECORDERS, "Only the FOG Manager and inspectors import the State's spill files."),
    "apply": (IMPORT_APPLIERS, "Only the FOG Manager applies an import of the State's files."),
}


class SpillImportViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    serializer_class = SpillImportSerializer
    parser_classes = [MultiPartParser, FormParser]
    filter_backends: list = []
    step_roles = IMPORT_STEPS

    def initial(self, request, *args, **kwargs):
        # Town business: an outside user is told it does not exist, before any step check.
        if request.user.is_authenticated and not request.user.is_program_staff:
            raise Http404
        super().initial(request, *args, **kwargs)

    def get_queryset(self):
        return selectors.spill_import_list(self.request.user)

    @extend_schema(request=SpillImportCreateSerializer, responses={201: SpillImportSerializer})
    def create(self, request):
        """Keep the State's file and run the dry run; the answer holds its counts."""
        data = SpillImportCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        spill_import = services.spill_import_upload(
            acting_user=request.user,
            uploaded_file=data.validated_data["file"],
            agency_wdid=data.validated_data["agency"],
        )
        return Response(SpillImportSerializer(spill_import).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: SpillImportSerializer})
    @action(detail=True, methods=["post"])
    def apply(self, request, pk=None):
        spill_import = services.spill_import_apply(spill_import=self.get_object(), acting_user=request.user)
        return Response(SpillImportSerializer(spill_import).data)

    @extend_schema(responses={200: SpillImportRowSerializer(many=True)})
    @action(detail=True, methods=["get"])
    def rows(self, request, pk=None):
        """The report, row by row (the applied run's when applied, else the dry run's)."""
        spill_import = self.get_object()
        rows = spill_import.rows.filter(applied=spill_import.status == "applied").order_by("row_number")
        page = self.paginate_queryset(rows)
        return self.get_paginated_response(SpillImportRowSerializer(page, many=True).data)
