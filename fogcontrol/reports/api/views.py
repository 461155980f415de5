"""The annual program report's figures and the map's GeoJSON, for programs: Town staff's (404 for
anyone else, as on the pages: `core.api.views.StaffOnly`)."""

from __future__ import annotations

from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from fogcontrol.core.api.views import StaffOnly
from fogcontrol.program.selectors import town_today
from fogcontrol.reports import exports
from fogcontrol.reports.annual import annual_report
from fogcontrol.reports.api.serializers import AnnualReportSerializer
from fogcontrol.reports.forms import MapFilterForm, YearForm
from fogcontrol.reports.map_data import LAYERS, PERMIT_STATUSES, SERVICE_STATUSES, SPILL_CAUSES


class AnnualReportView(StaffOnly, APIView):
    """The annual program report (the SSMP FOG element's figures) for one calendar year."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter("year", OpenApiTypes.INT, description="The calendar year (default: this year).")
        ],
        responses={200: AnnualReportSerializer},
    )
    def get(self, request):
        today = town_today()
        form = YearForm({"year": request.query_params.get("year", today.year)}, last_year=today.year)
        if not form.is_valid():
            raise ValidationError(form.errors)
        return Response(AnnualReportSerializer(annual_report(request.user, form.cleaned_data["year"])).data)


def _choices(values) -> str:
    return ", ".join(values)


class MapFeaturesView(StaffOnly, APIView):
    """The map's establishments, devices and spills as a GeoJSON FeatureCollection (RFC 7946),
    streamed; a record without usable coordinates has a null geometry."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "layers", OpenApiTypes.STR, many=True, description=f"Any of {_choices(LAYERS)}."
            ),
            OpenApiParameter("service_status", OpenApiTypes.STR, description=_choices(SERVICE_STATUSES)),
            OpenApiParameter("permit_status", OpenApiTypes.STR, description=_choices(PERMIT_STATUSES)),
            OpenApiParameter("area", OpenApiTypes.STR, description="A ZIP code."),
            OpenApiParameter("spill_cause", OpenApiTypes.STR, description=_choices(SPILL_CAUSES)),
            OpenApiParameter("spills_from", OpenApiTypes.DATE),
            OpenApiParameter("spills_to", OpenApiTypes.DATE),
        ],
        responses={
            (200, "application/geo+json"): OpenApiResponse(
                OpenApiTypes.OBJECT, description="A GeoJSON FeatureCollection."
            )
        },
    )
    def get(self, request):
        form = MapFilterForm(request.query_params)
        if not form.is_valid():
            raise ValidationError(form.errors)
        return StreamingHttpResponse(
            exports.geojson_chunks(request.user, form.filters()), content_type=exports.GEOJSON_TYPE
        )
