"""Fees in the API: the fee schedule (a Council resolution) and the fees owed (B3, G2)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.response import Response

from fogcontrol.permits import selectors, services
from fogcontrol.permits.api import serializers as s
from fogcontrol.permits.api.views.base import PermitsViewSet
from fogcontrol.permits.filters import FeeChargeFilter


@extend_schema_view(
    list=extend_schema(
        summary="The Town's fee schedule, every version",
        description="A public Council resolution: every signed-in user may read it.",
    ),
    retrieve=extend_schema(summary="One version of the fee schedule"),
    create=extend_schema(
        summary="Set a new version of the fees (the FOG Manager)",
        request=s.FeeScheduleInputSerializer,
        responses={201: s.FeeScheduleSerializer},
    ),
)
class FeeScheduleViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, PermitsViewSet
):
    serializer_class = s.FeeScheduleSerializer
    filter_backends: list = []

    def get_queryset(self):
        return selectors.fee_schedules_visible_to(self.request.user)

    def create(self, request, *args, **kwargs):
        schedule = services.fee_schedule_create(
            acting_user=request.user, **self.input(s.FeeScheduleInputSerializer)
        )
        return Response(
            s.FeeScheduleSerializer(self.get_queryset().get(pk=schedule.pk)).data,
            status=status.HTTP_201_CREATED,
        )


@extend_schema_view(
    list=extend_schema(
        summary="Fees owed on applications and plan reviews", description="Billing picks these up (Q1)."
    ),
    retrieve=extend_schema(summary="One fee"),
)
class FeeChargeViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, PermitsViewSet):
    serializer_class = s.FeeChargeSerializer
    filterset_class = FeeChargeFilter
    ordering = ["-assessed_on", "-pk"]

    def get_queryset(self):
        return selectors.fee_charges_visible_to(self.request.user)
