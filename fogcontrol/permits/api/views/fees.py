"""Fees in the API: the fee schedule (a Council resolution) and the fees owed (B3, G2)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.response import Response

from fogcontrol.permits import selectors, services
from fogcontrol.permits.api import serializers as s
from fogcontrol.permits.api.views.base import CONFLICT, PermitsViewSet
from fogcontrol.permits.filters import FeeChargeFilter
from fogcontrol.permits.roles import STEP_ROLES


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
    step_roles = {"create": STEP_ROLES["set_fees"]}
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
        summary="Fees owed on applications and plan reviews",
        description="A permit is not issued while its application fee is owed (B3): record the payment "
        "or the FOG Manager's waiver. Billing will pick these up (Q1).",
    ),
    retrieve=extend_schema(summary="One fee"),
)
class FeeChargeViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, PermitsViewSet):
    step_roles = {"pay": STEP_ROLES["pay_fee"], "waive": STEP_ROLES["waive_fee"]}
    serializer_class = s.FeeChargeSerializer
    filterset_class = FeeChargeFilter
    ordering = ["-assessed_on", "-pk"]

    def get_queryset(self):
        return selectors.fee_charges_visible_to(self.request.user)

    @extend_schema(
        summary="Record the fee's payment (FOG Manager, billing clerk)",
        description="B3: the full amount, the day it was received and the receipt or transaction number.",
        request=s.FeePaymentInputSerializer,
        responses={200: s.FeeChargeSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def pay(self, request, pk=None):
        fee = self.get_object()  # first: an unknown or malformed id is a 404 before any input is read
        values = self.input(s.FeePaymentInputSerializer)
        charge = services.fee_record_payment(charge=fee, acting_user=request.user, **values)
        return Response(s.FeeChargeSerializer(self.get_queryset().get(pk=charge.pk)).data)

    @extend_schema(
        summary="Waive the fee, with the reason (FOG Manager)",
        request=s.FeeWaiverInputSerializer,
        responses={200: s.FeeChargeSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def waive(self, request, pk=None):
        fee = self.get_object()  # first: an unknown or malformed id is a 404 before any input is read
        values = self.input(s.FeeWaiverInputSerializer)
        charge = services.fee_waive(charge=fee, acting_user=request.user, **values)
        return Response(s.FeeChargeSerializer(self.get_queryset().get(pk=charge.pk)).data)
