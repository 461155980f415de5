"""Spills in the API: what each record shows, and the input each write takes (validated by the
services, which name the field in a 400)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from fogcontrol.core.api.fields import ScopedPrimaryKeyRelatedField
from fogcontrol.core.api.serializers import ExplanationSerializer
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.rules import spills as rules
from fogcontrol.spills.models import Spill, SpillLink, SpillReport, WrittenSpillReport
from fogcontrol.spills.services import written_deadline


def _establishment_field(action: str = "view"):
    return ScopedPrimaryKeyRelatedField(
        queryset=FoodServiceEstablishment.objects.all(),
        what="establishment",
        where="/api/v1/establishments/",
        action=action,
    )


class SpillLinkSerializer(serializers.ModelSerializer):
    establishment_name = serializers.CharField(source="establishment.business_name", read_only=True)

    class Meta:
        model = SpillLink
        fields = ["establishment_id", "establishment_name", "reason"]
        read_only_fields = fields


class SpillSerializer(serializers.ModelSerializer):
    category_label = serializers.CharField(source="get_category_display", read_only=True)
    cause_label = serializers.CharField(source="get_cause_display", read_only=True)
    agency_name = serializers.CharField(source="agency.name", read_only=True, allow_null=True, default=None)
    fog_caused = serializers.BooleanField(read_only=True)
    links = SpillLinkSerializer(many=True, read_only=True)

    class Meta:
        model = Spill
        fields = [
            "id",
            "kind",
            "source",
            "agency_wdid",
            "agency_name",
            "state_spill_id",
            "location_name",
            "address",
            "city",
            "zip_code",
            "latitude",
            "longitude",
            "segment_id",
            "manhole_id",
            "started_at",
            "ended_at",
            "notified_at",
            "arrived_at",
            "volume_spilled",
            "volume_recovered",
            "volume_reached_surface_water",
            "destination",
            "destination_text",
            "storm_drain_fully_recovered",
            "category",
            "category_label",
            "cause",
            "cause_label",
            "cause_explanation",
            "cause_original",
            "fog_caused",
            "cleanup_contractor",
            "clearance_inspected_on",
            "clearance_notes",
            "flags",
            "links",
        ]
        read_only_fields = fields


class LinkInputSerializer(serializers.Serializer):
    establishment = _establishment_field()
    reason = serializers.CharField()


class SpillInputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Spill.Kind.choices, default=Spill.Kind.SSO)
    location_name = serializers.CharField(required=False, allow_blank=True, max_length=200)
    address = serializers.CharField(max_length=300)
    city = serializers.CharField(required=False, allow_blank=True, max_length=100)
    latitude = serializers.DecimalField(
        max_digits=10, decimal_places=6, required=False, allow_null=True, min_value=-90, max_value=90
    )
    longitude = serializers.DecimalField(
        max_digits=10, decimal_places=6, required=False, allow_null=True, min_value=-180, max_value=180
    )
    segment_id = serializers.CharField(required=False, allow_blank=True, max_length=50)
    manhole_id = serializers.CharField(required=False, allow_blank=True, max_length=50)
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(required=False, allow_null=True)
    notified_at = serializers.DateTimeField(required=False, allow_null=True)
    arrived_at = serializers.DateTimeField(required=False, allow_null=True)
    volume_spilled = serializers.DecimalField(max_digits=12, decimal_places=1)
    volume_recovered = serializers.DecimalField(
        max_digits=12, decimal_places=1, required=False, allow_null=True
    )
    volume_reached_surface_water = serializers.DecimalField(
        max_digits=12, decimal_places=1, required=False, default=0
    )
    destination = serializers.ChoiceField(choices=list(rules.DESTINATIONS.items()))
    storm_drain_fully_recovered = serializers.BooleanField(required=False, allow_null=True, default=None)
    cause = serializers.ChoiceField(choices=list(rules.CAUSES.items()))
    cause_explanation = serializers.CharField(required=False, allow_blank=True)
    cleanup_contractor = serializers.CharField(required=False, allow_blank=True, max_length=200)
    clearance_inspected_on = serializers.DateField(required=False, allow_null=True)
    clearance_notes = serializers.CharField(required=False, allow_blank=True)
    links = LinkInputSerializer(many=True, required=False, default=list)


class WrittenReportSerializer(serializers.ModelSerializer):
    class Meta:
        model = WrittenSpillReport
        fields = [
            "incident_on",
            "cause",
            "steps_taken",
            "prevention",
            "received_at",
            "submitted_by_label",
            "record_hash",
        ]
        read_only_fields = fields


class SpillReportSerializer(serializers.ModelSerializer):
    establishment_name = serializers.CharField(source="establishment.business_name", read_only=True)
    written_report_due = serializers.DateField(source="written_due_on", read_only=True)
    written_report_due_explanation = serializers.SerializerMethodField()
    written_report = WrittenReportSerializer(source="written", read_only=True, allow_null=True, default=None)
    liability = serializers.CharField(read_only=True)

    class Meta:
        model = SpillReport
        fields = [
            "id",
            "establishment",
            "establishment_name",
            "spill",
            "channel",
            "caller",
            "occurred_at",
            "location",
            "what",
            "gallons",
            "written_report_due",
            "written_report_due_explanation",
            "written_report",
            "liability",
        ]
        read_only_fields = fields

    @extend_schema_field(ExplanationSerializer)
    def get_written_report_due_explanation(self, report: SpillReport) -> dict:
        deadlines = self.context.get("written_deadlines")
        deadline = deadlines(report) if deadlines is not None else written_deadline(report)
        return deadline.explanation.as_dict()


class SpillReportInputSerializer(serializers.Serializer):
    establishment = _establishment_field()
    occurred_at = serializers.DateTimeField()
    location = serializers.CharField(max_length=300)
    what = serializers.CharField()
    gallons = serializers.DecimalField(
        max_digits=10, decimal_places=1, required=False, allow_null=True, min_value=0
    )
    caller = serializers.CharField(required=False, allow_blank=True, max_length=150)


class WrittenReportInputSerializer(serializers.Serializer):
    incident_on = serializers.DateField()
    cause = serializers.CharField()
    steps_taken = serializers.CharField()
    prevention = serializers.CharField()
