"""Inspections in the API: the due list (D8), an inspection with its assessments and photos, a
draft's changes (PATCH), scheduling (POST) and photos (multipart)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from fogcontrol.core.api.fields import RecordIdField, ScopedPrimaryKeyRelatedField
from fogcontrol.core.api.serializers import ExplanationSerializer
from fogcontrol.inspections.actions import inspection_actions
from fogcontrol.inspections.models import DeviceAssessment, Inspection, InspectionPhoto
from fogcontrol.inspections.roles import INSPECTORS
from fogcontrol.registry.models import FoodServiceEstablishment


def _answers():
    return serializers.DictField(
        child=serializers.ChoiceField(choices=["pass", "fail", "na"]), required=False
    )


class ReasonSerializer(serializers.Serializer):
    factor = serializers.CharField()
    points = serializers.IntegerField()
    text = serializers.CharField()
    provision = serializers.CharField()


class DueSerializer(serializers.Serializer):
    establishment_id = serializers.IntegerField()
    business_name = serializers.CharField()
    site_address = serializers.CharField()
    due_on = serializers.DateField()
    overdue = serializers.BooleanField()
    last_inspected_on = serializers.DateField(allow_null=True)
    device_ids = serializers.ListField(child=serializers.IntegerField())
    priority = serializers.IntegerField()
    reasons = serializers.SerializerMethodField()
    explanation = serializers.SerializerMethodField()
    scheduled_id = serializers.IntegerField(allow_null=True)
    scheduled_on = serializers.DateField(allow_null=True)

    @extend_schema_field(ReasonSerializer(many=True))
    def get_reasons(self, item) -> list[dict]:
        return [
            {"factor": r.factor, "points": r.points, "text": r.text, "provision": r.provision}
            for r in item.risk.reasons
        ]

    @extend_schema_field(ExplanationSerializer)
    def get_explanation(self, item) -> dict:
        return item.deadline.explanation.as_dict()


class AssessmentSerializer(serializers.ModelSerializer):
    device = serializers.CharField(source="device.identifier", read_only=True)
    device_kind = serializers.CharField(source="device.kind", read_only=True)

    class Meta:
        model = DeviceAssessment
        fields = [
            "device_id",
            "device",
            "device_kind",
            "fog_depth_in",
            "solids_depth_in",
            "fill_ratio",
            "over_limit",
            "answers",
            "condition",
            "notes",
            "reading_id",
        ]
        read_only_fields = fields


class PhotoSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()

    class Meta:
        model = InspectionPhoto
        fields = ["id", "item", "device_id", "caption", "width", "height", "size_bytes", "url", "uploaded_at"]
        read_only_fields = fields

    def get_url(self, photo) -> str:
        return reverse("inspections:photo", args=[photo.pk])


class InspectionListSerializer(serializers.ModelSerializer):
    establishment = serializers.CharField(source="establishment.business_name", read_only=True)
    site_address = serializers.CharField(source="establishment.site_address", read_only=True)
    inspector = serializers.CharField(
        source="inspector.username", read_only=True, allow_null=True, default=None
    )

    class Meta:
        model = Inspection
        fields = [
            "id",
            "establishment_id",
            "establishment",
            "site_address",
            "kind",
            "status",
            "scheduled_on",
            "inspector_id",
            "inspector",
            "visited_on",
            "outside_hours",
            "entry",
            "completed_at",
        ]
        read_only_fields = fields


class InspectionSerializer(InspectionListSerializer):
    assessments = AssessmentSerializer(many=True, read_only=True)
    photos = PhotoSerializer(many=True, read_only=True)
    has_inspector_signature = serializers.SerializerMethodField()
    has_fse_signature = serializers.SerializerMethodField()
    allowed_actions = serializers.SerializerMethodField()

    class Meta(InspectionListSerializer.Meta):
        fields = [
            *InspectionListSerializer.Meta.fields,
            "follow_up_of",
            "complaint",
            "started_at",
            "finished_at",
            "hours_explanation",
            "entry_delay_minutes",
            "entry_note",
            "answers",
            "item_notes",
            "corrected_items",
            "closes_findings",
            "notes",
            "person_met",
            "inspector_signed_name",
            "fse_signed_name",
            "fse_declined_to_sign",
            "has_inspector_signature",
            "has_fse_signature",
            "assessments",
            "photos",
            "allowed_actions",
        ]
        read_only_fields = fields

    def get_has_inspector_signature(self, inspection) -> bool:
        return bool(inspection.inspector_signature)

    def get_has_fse_signature(self, inspection) -> bool:
        return bool(inspection.fse_signature)

    def get_allowed_actions(self, inspection) -> dict[str, str]:
        """Each step: "" when allowed, else the reason it is not."""
        user = self.context["request"].user
        return {step: verdict.reason for step, verdict in inspection_actions(user, inspection).items()}


@extend_schema_field(OpenApiTypes.INT)
class _Inspector(serializers.PrimaryKeyRelatedField):
    """The id of the FOG Manager or an inspector (D8)."""

    def get_queryset(self):
        return get_user_model().objects.filter(role__in=INSPECTORS, is_active=True)


class ScheduleSerializer(serializers.Serializer):
    establishment = ScopedPrimaryKeyRelatedField(
        what="establishment", where="/api/v1/establishments/", queryset=FoodServiceEstablishment.objects.all()
    )
    kind = serializers.ChoiceField(choices=Inspection.Kind.choices, default=Inspection.Kind.ROUTINE)
    scheduled_on = serializers.DateField()
    inspector = _Inspector(required=False, allow_null=True)
    follow_up_of = ScopedPrimaryKeyRelatedField(
        what="inspection",
        where="/api/v1/inspections/",
        queryset=Inspection.objects.all(),
        required=False,
        allow_null=True,
    )
    complaint = serializers.CharField(required=False, allow_blank=True, default="")


class AssignSerializer(serializers.Serializer):
    inspector = _Inspector()
    scheduled_on = serializers.DateField()


class CancelSerializer(serializers.Serializer):
    reason = serializers.CharField()


class DeviceDraftSerializer(serializers.Serializer):
    fog_depth_in = serializers.DecimalField(
        max_digits=6, decimal_places=2, required=False, allow_null=True, min_value=0
    )
    solids_depth_in = serializers.DecimalField(
        max_digits=6, decimal_places=2, required=False, allow_null=True, min_value=0
    )
    answers = _answers()
    condition = serializers.ChoiceField(
        choices=DeviceAssessment.Condition.choices, required=False, allow_blank=True
    )
    notes = serializers.CharField(required=False, allow_blank=True)


class DraftSerializer(serializers.Serializer):
    """Any part of the form; only what is sent changes. ``devices`` is keyed by device id."""

    started_at = serializers.DateTimeField(required=False, allow_null=True)
    finished_at = serializers.DateTimeField(required=False, allow_null=True)
    entry = serializers.ChoiceField(choices=Inspection.Entry.choices, required=False)
    entry_delay_minutes = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=24 * 60
    )
    entry_note = serializers.CharField(required=False, allow_blank=True)
    answers = _answers()
    item_notes = serializers.DictField(child=serializers.CharField(allow_blank=True), required=False)
    corrected_items = serializers.ListField(child=serializers.CharField(), required=False)
    closes_findings = serializers.ListField(child=RecordIdField(), required=False)
    notes = serializers.CharField(required=False, allow_blank=True)
    person_met = serializers.CharField(required=False, allow_blank=True, max_length=150)
    inspector_signed_name = serializers.CharField(required=False, allow_blank=True, max_length=150)
    fse_signed_name = serializers.CharField(required=False, allow_blank=True, max_length=150)
    fse_declined_to_sign = serializers.BooleanField(required=False)
    inspector_signature = serializers.CharField(required=False, help_text="A PNG drawing as a data URL.")
    fse_signature = serializers.CharField(required=False, help_text="A PNG drawing as a data URL.")
    devices = serializers.DictField(child=DeviceDraftSerializer(), required=False)


class PhotoUploadSerializer(serializers.Serializer):
    file = serializers.FileField()
    item = serializers.CharField(required=False, allow_blank=True, default="")
    device = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    caption = serializers.CharField(required=False, allow_blank=True, default="")
