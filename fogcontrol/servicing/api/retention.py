"""F5 through the API: litigation holds on a device's records, the Town's approvals to destroy its
records (Gov. Code §34090), purging a manifest, and the report of each purge.

Town staff read; only the FOG Manager acts (403 otherwise). Anyone else: 404.
"""

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.response import Response
from rest_framework.views import APIView

from fogcontrol.core.api.views import StaffOnly
from fogcontrol.core.permissions import require_role
from fogcontrol.servicing import selectors
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.models import LitigationHold, PurgeReport, PurgeReportItem, RetentionApproval
from fogcontrol.servicing.permissions import STEP_ROLES
from fogcontrol.servicing.services.retention import (
    hold_place,
    hold_release,
    manifest_purge,
    manifest_purge_decision,
    retention_approval_covering,
    retention_approval_record,
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


class RetentionApprovalSerializer(serializers.ModelSerializer):
    """Gov. Code §34090: the council resolution and the city attorney's consent to destroy a class of
    the Town's records dated within a range."""

    class Meta:
        model = RetentionApproval
        fields = [
            "id",
            "record_class",
            "records_from",
            "records_to",
            "council_resolution_number",
            "council_resolution_date",
            "city_attorney_name",
            "city_attorney_consent_date",
            "notes",
            "recorded_at",
            "recorded_by_label",
        ]
        read_only_fields = ["recorded_at", "recorded_by_label"]


class PurgeReportItemSerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="purged_record.table_name")
    record_id = serializers.IntegerField(source="purged_record.record_id")
    record_sequence = serializers.IntegerField(source="purged_record.record_sequence")
    record_hash = serializers.CharField(source="purged_record.record_hash")

    class Meta:
        model = PurgeReportItem
        fields = [
            "kind",
            "description",
            "record_date",
            "table",
            "record_id",
            "record_sequence",
            "record_hash",
        ]


class PurgeReportSerializer(serializers.ModelSerializer):
    """F5, §34090: what one purge destroyed, under which approval, by whom and why."""

    approval = RetentionApprovalSerializer(read_only=True)
    items = PurgeReportItemSerializer(many=True, read_only=True)

    class Meta:
        model = PurgeReport
        fields = ["id", "summary", "device", "reason", "purged_at", "purged_by_label", "approval", "items"]


class PurgeDecisionSerializer(serializers.Serializer):
    manifest = serializers.IntegerField()
    allowed = serializers.BooleanField()
    earliest_purge = serializers.DateField()
    reason = serializers.CharField()
    approval = RetentionApprovalSerializer(
        allow_null=True, help_text="The Town's approval covering it (§34090)."
    )


class DeviceHoldsView(APIView):
    """F5: list a device's litigation holds, or place one (FOG Manager)."""

    @extend_schema(responses={200: LitigationHoldSerializer(many=True)})
    def get(self, request, pk):
        _device, holds = selectors.holds_for_device(request.user, pk)
        return Response(LitigationHoldSerializer(holds, many=True).data)

    @extend_schema(request=RetentionReasonSerializer, responses={201: LitigationHoldSerializer})
    def post(self, request, pk):
        device, _holds = selectors.holds_for_device(request.user, pk)
        require_role(request.user, *STEP_ROLES["retention"])
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
    """F5, Gov. Code §34090: whether a manifest may be purged today (GET), and purging it (POST, FOG
    Manager), answered with the purge report.

    Refused with 409 and the reason while the record is within its retention period, under a
    litigation hold, or not covered by an approval the Town recorded.
    """

    @extend_schema(responses={200: PurgeDecisionSerializer})
    def get(self, request, pk):
        manifest = selectors.manifest_for_purge(request.user, pk)
        decision = manifest_purge_decision(manifest, ctx=ProgramContext())
        approval = retention_approval_covering(RetentionApproval.RecordClass.MANIFESTS, manifest.service_date)
        return Response(
            PurgeDecisionSerializer(
                {
                    "manifest": manifest.pk,
                    "allowed": decision.allowed,
                    "earliest_purge": decision.earliest_purge,
                    "reason": decision.reason,
                    "approval": approval,
                }
            ).data
        )

    @extend_schema(request=RetentionReasonSerializer, responses={201: PurgeReportSerializer})
    def post(self, request, pk):
        manifest = selectors.manifest_for_purge(request.user, pk)
        require_role(request.user, *STEP_ROLES["retention"])
        body = RetentionReasonSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        report = manifest_purge(
            manifest=manifest, acting_user=request.user, reason=body.validated_data["reason"]
        )
        report = selectors.purge_reports_visible_to(request.user).get(pk=report.pk)
        return Response(PurgeReportSerializer(report).data, status=status.HTTP_201_CREATED)


class RetentionApprovalViewSet(
    StaffOnly,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """Gov. Code §34090: the Town's approvals to destroy its records (staff read; the FOG Manager
    records one). Never edited: record a new approval instead."""

    serializer_class = RetentionApprovalSerializer

    def get_queryset(self):
        return selectors.retention_approvals_visible_to(self.request.user)

    def create(self, request, *args, **kwargs):
        require_role(request.user, *STEP_ROLES["retention"])
        body = RetentionApprovalSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        approval = retention_approval_record(acting_user=request.user, **body.validated_data)
        return Response(RetentionApprovalSerializer(approval).data, status=status.HTTP_201_CREATED)


class PurgeReportViewSet(
    StaffOnly, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """F5, §34090: what each purge destroyed (staff only)."""

    serializer_class = PurgeReportSerializer

    def get_queryset(self):
        return selectors.purge_reports_visible_to(self.request.user)
