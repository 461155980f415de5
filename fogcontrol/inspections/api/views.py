"""Inspections API: the due list, inspections (list, schedule, read, autosave a draft, complete
with an Idempotency-Key), assigning, cancelling and photos."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, permissions, status
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from fogcontrol.core.api.views import ScopedViewSet, StaffOnly
from fogcontrol.inspections import selectors, services
from fogcontrol.inspections.api import serializers as s
from fogcontrol.inspections.due import inspections_due
from fogcontrol.inspections.filters import InspectionFilter
from fogcontrol.inspections.roles import STEP_ROLES
from fogcontrol.program.selectors import town_today

IDEMPOTENCY_HEADER = "Idempotency-Key"


class InspectionsDueView(StaffOnly, APIView):
    """D8: establishments due for inspection by ``on`` (default today), highest priority first,
    each with its due date, the working (``explanation``), ``priority`` and ``reasons``."""

    # A staff list: an outside user is told it does not exist (404), as on the page.
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter("on", OpenApiTypes.DATE, description="The day (YYYY-MM-DD); default today.")
        ],
        responses={200: s.DueSerializer(many=True)},
    )
    def get(self, request):
        raw = request.query_params.get("on")
        try:
            on = dt.date.fromisoformat(raw) if raw else town_today()
        except ValueError as exc:
            raise ValidationError({"on": "Give the day as YYYY-MM-DD."}) from exc
        return Response(s.DueSerializer(inspections_due(request.user, on=on), many=True).data)


class InspectionViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """Inspections the user may see: staff all; an FSE or property owner the completed inspections
    of its establishments (never a draft)."""

    filterset_class = InspectionFilter
    step_roles = STEP_ROLES

    def get_queryset(self):
        if self.action == "list":
            return selectors.inspection_list(self.request.user)
        return selectors.inspection_list(self.request.user).prefetch_related("assessments__device", "photos")

    def get_serializer_class(self):
        return s.InspectionListSerializer if self.action == "list" else s.InspectionSerializer

    def _answer(self, inspection, code=status.HTTP_200_OK):
        inspection = selectors.inspection_detail(self.request.user, inspection.pk)
        return Response(
            s.InspectionSerializer(inspection, context={"request": self.request}).data, status=code
        )

    @extend_schema(request=s.ScheduleSerializer, responses={201: s.InspectionSerializer})
    def create(self, request):
        serializer = s.ScheduleSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        inspection = services.inspection_schedule(acting_user=request.user, **serializer.validated_data)
        return self._answer(inspection, status.HTTP_201_CREATED)

    @extend_schema(request=s.DraftSerializer, responses={200: s.InspectionSerializer})
    def partial_update(self, request, pk=None):
        inspection = self.get_object()
        serializer = s.DraftSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.inspection_save_draft(
            inspection=inspection, acting_user=request.user, changes=serializer.validated_data
        )
        return self._answer(inspection)

    @extend_schema(
        request=None,
        parameters=[
            OpenApiParameter(IDEMPOTENCY_HEADER, OpenApiTypes.STR, OpenApiParameter.HEADER, required=True)
        ],
        responses={200: s.InspectionSerializer},
    )
    @action(detail=True, methods=["post"])
    def complete(self, request, pk=None):
        inspection = self.get_object()
        key = request.headers.get(IDEMPOTENCY_HEADER, "")
        if not key.strip():
            raise ValidationError(
                {IDEMPOTENCY_HEADER: "Send an Idempotency-Key header, the same on every retry."}
            )
        inspection = services.inspection_complete(
            inspection=inspection, acting_user=request.user, idempotency_key=key
        )
        return self._answer(inspection)

    @extend_schema(request=s.AssignSerializer, responses={200: s.InspectionSerializer})
    @action(detail=True, methods=["post"])
    def assign(self, request, pk=None):
        inspection = self.get_object()
        serializer = s.AssignSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.inspection_assign(
            inspection=inspection, acting_user=request.user, **serializer.validated_data
        )
        return self._answer(inspection)

    @extend_schema(request=s.CancelSerializer, responses={200: s.InspectionSerializer})
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        inspection = self.get_object()
        serializer = s.CancelSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.inspection_cancel(
            inspection=inspection, acting_user=request.user, **serializer.validated_data
        )
        return self._answer(inspection)

    @extend_schema(
        request={"multipart/form-data": s.PhotoUploadSerializer}, responses={201: s.PhotoSerializer}
    )
    @action(detail=True, methods=["post"], parser_classes=[MultiPartParser, FormParser])
    def photos(self, request, pk=None):
        inspection = self.get_object()
        serializer = s.PhotoUploadSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        photo = services.photo_add(
            inspection=inspection,
            acting_user=request.user,
            file=data["file"],
            item=data["item"],
            device_id=data.get("device"),
            caption=data["caption"],
        )
        return Response(s.PhotoSerializer(photo).data, status=status.HTTP_201_CREATED)
