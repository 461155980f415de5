"""Spills in the API: `GET/POST /api/v1/spills/` (SSO records) and `GET/POST /api/v1/spill-reports/`
(an FSE's notices, with `written_report_due` and its working; `written` sends the J2 report). Thin:
each parses input, calls one service or selector, and answers."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.response import Response

from fogcontrol.core.api.views import ScopedViewSet
from fogcontrol.spills import selectors, services
from fogcontrol.spills.api import serializers as s
from fogcontrol.spills.filters import SpillFilter, SpillReportFilter
from fogcontrol.spills.roles import REPORT_STEPS, SPILL_STEPS


class SpillViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """Overflows and blockages: staff all, an FSE or owner those linked to its establishments."""

    serializer_class = s.SpillSerializer
    filterset_class = SpillFilter
    step_roles = SPILL_STEPS

    def get_queryset(self):
        return selectors.spill_list(self.request.user)

    @extend_schema(request=s.SpillInputSerializer, responses={201: s.SpillSerializer})
    def create(self, request):
        data = s.SpillInputSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        links = [(link["establishment"], link["reason"]) for link in fields.pop("links")]
        spill = services.spill_record(acting_user=request.user, links=links, **fields)
        spill = selectors.spill_detail(request.user, spill.pk)
        return Response(s.SpillSerializer(spill).data, status=status.HTTP_201_CREATED)


class SpillReportViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """An FSE's spill and upset notices (J1): an FSE its own, staff all. The written report is due
    at once (J2), with its working."""

    serializer_class = s.SpillReportSerializer
    filterset_class = SpillReportFilter
    step_roles = REPORT_STEPS

    def get_queryset(self):
        return selectors.report_list(self.request.user)

    def get_serializer_context(self):
        # J2's working for every report of a page, from one read of the calendar and rulesets.
        return {**super().get_serializer_context(), "written_deadlines": services.WrittenDeadlines()}

    @extend_schema(request=s.SpillReportInputSerializer, responses={201: s.SpillReportSerializer})
    def create(self, request):
        data = s.SpillReportInputSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        report = services.report_record(acting_user=request.user, **data.validated_data)
        return Response(s.SpillReportSerializer(report).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.WrittenReportInputSerializer, responses={201: s.SpillReportSerializer})
    @action(detail=True, methods=["post"])
    def written(self, request, pk=None):
        """Send the written report (J2): the date, the cause, the steps taken and the prevention."""
        report = self.get_object()
        data = s.WrittenReportInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.written_report_submit(report=report, acting_user=request.user, **data.validated_data)
        report = selectors.report_detail(request.user, report.pk)
        return Response(s.SpillReportSerializer(report).data, status=status.HTTP_201_CREATED)
