"""Specialty FOG Compliance Charges in the API (D6): `GET/POST /api/v1/compliance-charges/`, one
charge, and cancelling one with its reason. A stable record for billing."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status
from rest_framework.decorators import action
from rest_framework.response import Response

from fogcontrol.core.api.fields import ScopedPrimaryKeyRelatedField
from fogcontrol.core.api.views import ScopedViewSet
from fogcontrol.inspections import selectors, services
from fogcontrol.inspections.filters import ComplianceChargeFilter
from fogcontrol.inspections.models import ComplianceCharge, Inspection
from fogcontrol.inspections.roles import STEP_ROLES
from fogcontrol.registry.models import FoodServiceEstablishment


class ComplianceChargeSerializer(serializers.ModelSerializer):
    establishment = serializers.CharField(source="establishment.business_name", read_only=True)
    unit = serializers.CharField(read_only=True)
    fee_schedule = serializers.CharField(source="fee_schedule.label", read_only=True)

    class Meta:
        model = ComplianceCharge
        fields = [
            "id",
            "establishment",
            "establishment_id",
            "kind",
            "quantity",
            "unit",
            "rate",
            "amount",
            "fee_schedule",
            "fee_schedule_id",
            "pricing",
            "reason",
            "inspection_id",
            "sample_id",
            "incurred_on",
            "status",
            "recorded_by_label",
            "cancel_reason",
            "cancelled_at",
            "created_at",
        ]
        read_only_fields = fields


class ChargeInputSerializer(serializers.Serializer):
    establishment = ScopedPrimaryKeyRelatedField(
        what="establishment", where="/api/v1/establishments/", queryset=FoodServiceEstablishment.objects.all()
    )
    kind = serializers.ChoiceField(choices=ComplianceCharge.Kind.choices)
    quantity = serializers.DecimalField(max_digits=8, decimal_places=2, min_value=0)
    incurred_on = serializers.DateField()
    reason = serializers.CharField()
    inspection = ScopedPrimaryKeyRelatedField(
        what="inspection",
        where="/api/v1/inspections/",
        queryset=Inspection.objects.all(),
        required=False,
        allow_null=True,
    )


class ChargeCancelSerializer(serializers.Serializer):
    reason = serializers.CharField()


class ComplianceChargeViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, ScopedViewSet
):
    """D6 charges the user may see: staff all, an FSE (and a property owner) its establishments'."""

    serializer_class = ComplianceChargeSerializer
    filterset_class = ComplianceChargeFilter
    step_roles = {"create": STEP_ROLES["charge_record"], "cancel": STEP_ROLES["charge_cancel"]}

    def get_queryset(self):
        return selectors.charge_list(self.request.user)

    @extend_schema(request=ChargeInputSerializer, responses={201: ComplianceChargeSerializer})
    def create(self, request):
        serializer = ChargeInputSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        charge = services.compliance_charge_record(acting_user=request.user, **serializer.validated_data)
        return Response(ComplianceChargeSerializer(charge).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=ChargeCancelSerializer, responses={200: ComplianceChargeSerializer})
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        charge = self.get_object()
        serializer = ChargeCancelSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        charge = services.compliance_charge_cancel(
            charge=charge, acting_user=request.user, reason=serializer.validated_data["reason"]
        )
        return Response(ComplianceChargeSerializer(charge).data)
