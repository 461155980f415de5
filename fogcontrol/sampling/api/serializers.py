"""Samples, their chain of custody and lab results, discharge limits and monitoring facilities in
the API (D4, D5, D7)."""

from __future__ import annotations

from rest_framework import serializers

from fogcontrol.core.api.fields import ScopedPrimaryKeyRelatedField
from fogcontrol.core.api.serializers import ExplanationSerializer
from fogcontrol.inspections.models import Inspection
from fogcontrol.permits.models import Permit
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogcontrol.sampling.models import (
    Analyte,
    CustodyTransfer,
    DischargeLimit,
    LabReport,
    LabResult,
    MonitoringFacility,
    Sample,
    Unit,
)


def _establishment_field():
    return ScopedPrimaryKeyRelatedField(
        what="establishment", where="/api/v1/establishments/", queryset=FoodServiceEstablishment.objects.all()
    )


class CustodySerializer(serializers.ModelSerializer):
    class Meta:
        model = CustodyTransfer
        fields = ["id", "sequence", "released_by", "received_by", "at", "seal_intact", "condition"]
        read_only_fields = ["id", "sequence"]


class LabResultSerializer(serializers.ModelSerializer):
    judgement = ExplanationSerializer(read_only=True)
    limit = serializers.CharField(source="limit.wording", read_only=True, allow_null=True, default=None)

    class Meta:
        model = LabResult
        fields = [
            "id",
            "analyte",
            "value",
            "unit",
            "method",
            "analysed_on",
            "reported_by",
            "limit_id",
            "limit",
            "outside",
            "provision",
            "judgement",
            "report_id",
        ]
        read_only_fields = fields


class LabReportSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()

    class Meta:
        model = LabReport
        fields = ["id", "original_name", "size_bytes", "sha256", "uploaded_at", "url"]
        read_only_fields = fields

    def get_url(self, report: LabReport) -> str:
        return f"/sampling/reports/{report.pk}/"


_SAMPLE_FIELDS = [
    "id",
    "establishment",
    "establishment_id",
    "device_id",
    "inspection_id",
    "kind",
    "sampled_at",
    "sampled_by",
    "sample_point",
    "container",
    "preservation",
    "laboratory",
    "lab_sample_id",
    "notes",
]


class SampleListSerializer(serializers.ModelSerializer):
    establishment = serializers.CharField(source="establishment.business_name", read_only=True)
    result_count = serializers.IntegerField(read_only=True)
    outside_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Sample
        fields = [*_SAMPLE_FIELDS, "result_count", "outside_count"]
        read_only_fields = fields


class SampleSerializer(serializers.ModelSerializer):
    establishment = serializers.CharField(source="establishment.business_name", read_only=True)
    custody = CustodySerializer(many=True, read_only=True)
    results = LabResultSerializer(many=True, read_only=True)
    reports = LabReportSerializer(many=True, read_only=True)

    class Meta:
        model = Sample
        fields = [*_SAMPLE_FIELDS, "custody", "results", "reports"]
        read_only_fields = fields


class SampleInputSerializer(serializers.Serializer):
    establishment = _establishment_field()
    device = ScopedPrimaryKeyRelatedField(
        what="device",
        where="/api/v1/devices/",
        queryset=GreaseControlDevice.objects.all(),
        required=False,
        allow_null=True,
    )
    inspection = ScopedPrimaryKeyRelatedField(
        what="inspection",
        where="/api/v1/inspections/",
        queryset=Inspection.objects.all(),
        required=False,
        allow_null=True,
    )
    kind = serializers.ChoiceField(choices=Sample.Kind.choices)
    sampled_at = serializers.DateTimeField(help_text="With its time zone, e.g. 2026-11-30T10:15:00-08:00.")
    sampled_by = serializers.CharField(max_length=150)
    sample_point = serializers.CharField(max_length=200)
    container = serializers.CharField(max_length=120)
    preservation = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    laboratory = serializers.CharField(max_length=150)
    lab_sample_id = serializers.CharField(max_length=60, required=False, allow_blank=True, default="")
    notes = serializers.CharField(required=False, allow_blank=True, default="")


class ResultInputSerializer(serializers.Serializer):
    analyte = serializers.ChoiceField(choices=Analyte.choices)
    value = serializers.DecimalField(max_digits=12, decimal_places=4)
    unit = serializers.ChoiceField(choices=Unit.choices)
    method = serializers.CharField(max_length=60)
    analysed_on = serializers.DateField()
    reported_by = serializers.CharField(max_length=150, required=False, allow_blank=True, default="")


class UploadSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="CSV: analyte, value, unit, method, analysed_on, reported_by.")


class UploadAnswerSerializer(serializers.Serializer):
    report = LabReportSerializer()
    results = LabResultSerializer(many=True)


class DischargeLimitSerializer(serializers.ModelSerializer):
    establishment = serializers.CharField(source="establishment.business_name", read_only=True)
    wording = serializers.CharField(read_only=True)

    class Meta:
        model = DischargeLimit
        fields = [
            "id",
            "establishment",
            "establishment_id",
            "permit_id",
            "analyte",
            "min_value",
            "max_value",
            "unit",
            "wording",
            "effective_from",
            "provision",
            "condition",
        ]
        read_only_fields = fields


class DischargeLimitInputSerializer(serializers.Serializer):
    establishment = _establishment_field()
    permit = ScopedPrimaryKeyRelatedField(
        what="permit",
        where="/api/v1/permits/",
        queryset=Permit.objects.all(),
        required=False,
        allow_null=True,
    )
    analyte = serializers.ChoiceField(choices=Analyte.choices)
    min_value = serializers.DecimalField(max_digits=12, decimal_places=4, required=False, allow_null=True)
    max_value = serializers.DecimalField(max_digits=12, decimal_places=4, required=False, allow_null=True)
    unit = serializers.ChoiceField(choices=Unit.choices)
    effective_from = serializers.DateField()
    provision = serializers.CharField(max_length=16, required=False, default="D5")
    condition = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class MonitoringFacilitySerializer(serializers.ModelSerializer):
    establishment = serializers.CharField(source="establishment.business_name", read_only=True)
    due_explanation = ExplanationSerializer(read_only=True)

    class Meta:
        model = MonitoringFacility
        fields = [
            "id",
            "establishment",
            "establishment_id",
            "kind",
            "description",
            "location",
            "required_on",
            "due_on",
            "due_explanation",
            "installed_on",
        ]
        read_only_fields = fields


class FacilityInputSerializer(serializers.Serializer):
    establishment = _establishment_field()
    kind = serializers.ChoiceField(choices=MonitoringFacility.Kind.choices)
    description = serializers.CharField()
    location = serializers.CharField(max_length=200)
    required_on = serializers.DateField()


class InstalledSerializer(serializers.Serializer):
    installed_on = serializers.DateField()
