"""Sampling API (D4, D5, D7): samples (list, record, read), a hand-off, results as a JSON list or a
CSV upload (all or none), discharge limits and monitoring facilities."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from fogcontrol.core.api.views import ScopedViewSet
from fogcontrol.sampling import selectors, services
from fogcontrol.sampling.api import serializers as s
from fogcontrol.sampling.filters import DischargeLimitFilter, MonitoringFacilityFilter, SampleFilter
from fogcontrol.sampling.roles import FACILITY_STEPS, LIMIT_STEPS, STEP_ROLES


class SampleViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """Samples the user may see: staff all; an FSE (and a property owner) its establishments'."""

    filterset_class = SampleFilter
    step_roles = STEP_ROLES

    def get_queryset(self):
        if self.action == "list":
            return selectors.sample_list(self.request.user)
        return (
            selectors.samples_visible_to(self.request.user)
            .select_related("establishment")
            .prefetch_related("custody", "results__limit", "reports")
        )

    def get_serializer_class(self):
        return s.SampleListSerializer if self.action == "list" else s.SampleSerializer

    def _answer(self, sample, code=status.HTTP_200_OK):
        sample = selectors.sample_detail(self.request.user, sample.pk)
        return Response(s.SampleSerializer(sample).data, status=code)

    @extend_schema(request=s.SampleInputSerializer, responses={201: s.SampleSerializer})
    def create(self, request):
        serializer = s.SampleInputSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        sample = services.sample_record(acting_user=request.user, **serializer.validated_data)
        return self._answer(sample, status.HTTP_201_CREATED)

    @extend_schema(request=s.CustodySerializer, responses={201: s.SampleSerializer})
    @action(detail=True, methods=["post"])
    def custody(self, request, pk=None):
        sample = self.get_object()
        serializer = s.CustodySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.custody_add(sample=sample, acting_user=request.user, **serializer.validated_data)
        return self._answer(sample, status.HTTP_201_CREATED)

    @extend_schema(
        request=s.ResultInputSerializer(many=True), responses={201: s.LabResultSerializer(many=True)}
    )
    @action(detail=True, methods=["post"])
    def results(self, request, pk=None):
        sample = self.get_object()
        if not isinstance(request.data, list):
            raise ValidationError({"results": 'Send a JSON list of results, e.g. [{"analyte": "fog", …}].'})
        # The service checks every row (all or none) and names each bad row with its reason.
        results = services.results_record(sample=sample, acting_user=request.user, rows=request.data)
        return Response(s.LabResultSerializer(results, many=True).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request={"multipart/form-data": s.UploadSerializer}, responses={201: s.UploadAnswerSerializer}
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="results/upload",
        url_name="results-upload",
        parser_classes=[MultiPartParser, FormParser],
    )
    def upload(self, request, pk=None):
        sample = self.get_object()
        serializer = s.UploadSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        report, results = services.results_upload(
            sample=sample, acting_user=request.user, file=serializer.validated_data["file"]
        )
        return Response(
            s.UploadAnswerSerializer({"report": report, "results": results}).data,
            status=status.HTTP_201_CREATED,
        )


class DischargeLimitViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """D4, D5: the discharge limits in the permits' conditions; the FOG Manager sets them."""

    serializer_class = s.DischargeLimitSerializer
    filterset_class = DischargeLimitFilter
    step_roles = LIMIT_STEPS

    def get_queryset(self):
        return selectors.limit_list(self.request.user)

    @extend_schema(request=s.DischargeLimitInputSerializer, responses={201: s.DischargeLimitSerializer})
    def create(self, request):
        serializer = s.DischargeLimitInputSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        limit = services.limit_set(acting_user=request.user, **serializer.validated_data)
        return Response(s.DischargeLimitSerializer(limit).data, status=status.HTTP_201_CREATED)


class MonitoringFacilityViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """D7: monitoring facilities required of FSEs, with their due dates and the working."""

    serializer_class = s.MonitoringFacilitySerializer
    filterset_class = MonitoringFacilityFilter
    step_roles = FACILITY_STEPS

    def get_queryset(self):
        return selectors.facility_list(self.request.user)

    @extend_schema(request=s.FacilityInputSerializer, responses={201: s.MonitoringFacilitySerializer})
    def create(self, request):
        serializer = s.FacilityInputSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        facility = services.facility_require(acting_user=request.user, **serializer.validated_data)
        return Response(s.MonitoringFacilitySerializer(facility).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.InstalledSerializer, responses={200: s.MonitoringFacilitySerializer})
    @action(detail=True, methods=["post"])
    def installed(self, request, pk=None):
        facility = self.get_object()
        serializer = s.InstalledSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        facility = services.facility_installed(
            facility=facility, acting_user=request.user, **serializer.validated_data
        )
        return Response(s.MonitoringFacilitySerializer(facility).data)
