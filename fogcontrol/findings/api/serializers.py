"""Findings in the API: a stable record for enforcement (each with provision, began_on,
closed_on and the evidence)."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from fogcontrol.findings.models import Finding


class EvidenceSerializer(serializers.Serializer):
    item = serializers.CharField()
    reading = serializers.CharField(allow_blank=True)
    description = serializers.CharField()
    photos = serializers.ListField(child=serializers.DictField())


class FindingSerializer(serializers.ModelSerializer):
    establishment = serializers.CharField(source="establishment.business_name", read_only=True)
    device = serializers.CharField(source="device.identifier", read_only=True, allow_null=True, default=None)
    evidence = serializers.SerializerMethodField()
    open = serializers.BooleanField(source="is_open", read_only=True)

    class Meta:
        model = Finding
        fields = [
            "id",
            "establishment",
            "establishment_id",
            "device",
            "device_id",
            "provision",
            "began_on",
            "closed_on",
            "open",
            "closed_how",
            "closing_evidence",
            "closed_by_source_id",
            "evidence",
            "source",
            "source_id",
        ]
        read_only_fields = fields

    @extend_schema_field(EvidenceSerializer)
    def get_evidence(self, finding: Finding) -> dict:
        return {
            "item": finding.item,
            "reading": finding.reading,
            "description": finding.description,
            "photos": finding.photos,
        }


class FindingCloseSerializer(serializers.Serializer):
    closed_on = serializers.DateField()
    how = serializers.ChoiceField(choices=Finding.ClosedHow.choices)
    evidence = serializers.CharField()
    closed_by_source_id = serializers.IntegerField(required=False, allow_null=True, min_value=1)
