"""F5 through the API: litigation holds on a device's records, and purging a manifest.

Town staff read; only the FOG Manager acts (403 otherwise). Anyone else: 404.
"""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from fogcontrol.servicing import selectors
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.models import LitigationHold
from fogcontrol.servicing.services.retention import (
    hold_place,
    hold_release,
    manifest_purge,
    manifest_purge_decision,
)


class LitigationHoldSerializer(serializers.ModelSerializer):
    placed_by = serializers.SerializerMethodField(
        help_text="Who placed the hold: a user, or the job that did."
    )

    def get_placed_by(self, hold: LitigationHold) -> str:
        return str(hold.placed_by) if hold.placed_by_id else hold.placed_by_label

    class Meta:
        model = LitigationHold
        fields = ["id", "device", "reason", "placed_by", "placed_at", "released_at"]


class RetentionReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=2000)


class PurgeDecisionSerializer(serializers.Serializer):
    manifest = serializers.IntegerField()
    allowed = serializers.BooleanField()
    earliest_purge = serializers.DateField()
    reason = serializers.CharField()


class DeviceHoldsView(APIView):
    """F5: list a device's litigation holds, or place one (FOG Manager)."""

    @extend_schema(responses={200: LitigationHoldSerializer(many=True)})
    def get(self, request, pk):
        _device, holds = selectors.holds_for_device(request.user, pk)
        return Response(LitigationHoldSerializer(holds, many=True).data)

    @extend_schema(request=RetentionReasonSerializer, responses={201: LitigationHoldSerializer})
    def post(self, request, pk):
        device, _holds = selectors.holds_for_device(request.user, pk)
        body = RetentionReasonSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        hold = hold_place(device=device, acting_user=request.user, reason=body.validated_data["reason"])
        return Response(LitigationHoldSerializer(hold).data, status=status.HTTP_201_CREATED)


class HoldReleaseView(APIView):
    """F5: release a hold (FOG Manager); 409 if it was already released."""

    @extend_schema(request=None, responses={200: LitigationHoldSerializer})
    def post(self, request, pk):
        hold = hold_release(hold=selectors.hold_detail(request.user, pk), acting_user=request.user)
        return Response(LitigationHoldSerializer(hold).data)


class ManifestPurgeView(APIView):
    """F5: whether a manifest may be purged today (GET), and purging it (POST, FOG Manager).

    Refused with 409 and the earliest purge date while the record is within its retention period
    or under a litigation hold.
    """

    @extend_schema(responses={200: PurgeDecisionSerializer})
    def get(self, request, pk):
        manifest = selectors.manifest_for_purge(request.user, pk)
        decision = manifest_purge_decision(manifest, ctx=ProgramContext())
        return Response(
            PurgeDecisionSerializer(
                {
                    "manifest": manifest.pk,
                    "allowed": decision.allowed,
                    "earliest_purge": decision.earliest_purge,
                    "reason": decision.reason,
                }
            ).data
        )

    @extend_schema(request=RetentionReasonSerializer, responses={204: None})
    def post(self, request, pk):
        manifest = selectors.manifest_for_purge(request.user, pk)
        body = RetentionReasonSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        manifest_purge(manifest=manifest, acting_user=request.user, reason=body.validated_data["reason"])
        return Response(status=status.HTTP_204_NO_CONTENT)
