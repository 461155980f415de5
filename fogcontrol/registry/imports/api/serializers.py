import json

from rest_framework import serializers

from fogcontrol.registry.models import LicenceImport, LicenceImportRow


class MappingField(serializers.JSONField):
    """A JSON object; in a multipart form it arrives as a string of JSON."""

    def to_internal_value(self, data):
        if isinstance(data, str):
            if not data.strip():
                return None
            try:
                data = json.loads(data)
            except json.JSONDecodeError as error:
                raise serializers.ValidationError(
                    f'Not valid JSON ({error}); give {{"field": "column header", ...}}.'
                ) from None
        if data is not None and not isinstance(data, dict):
            raise serializers.ValidationError('Give the mapping as {"field": "column header", ...}.')
        return data


class LicenceImportSerializer(serializers.ModelSerializer):
    status_label = serializers.CharField(source="get_status_display", read_only=True)
    uploaded_by = serializers.CharField(source="uploaded_by_label", read_only=True)
    applied_by = serializers.CharField(source="applied_by_label", read_only=True)
    counts = serializers.JSONField(read_only=True)
    report = serializers.SerializerMethodField()

    class Meta:
        model = LicenceImport
        fields = [
            "id",
            "status",
            "status_label",
            "original_filename",
            "file_format",
            "file_size",
            "encoding",
            "delimiter",
            "headers",
            "mapping",
            "running_dry",
            "rows_read",
            "counts",
            "dry_run_counts",
            "applied_counts",
            "error",
            "uploaded_by",
            "created_at",
            "dry_run_at",
            "applied_by",
            "applied_at",
            "report",
        ]
        read_only_fields = fields

    def get_report(self, obj) -> str:
        return "applied" if obj.report_is_applied else "dry_run"


class LicenceImportCreateSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="The CSV or XLSX export of the business licence records.")
    mapping = MappingField(
        required=False,
        allow_null=True,
        help_text='{"field": "column header"}; guessed from the header names when left out.',
    )
    dry_run = serializers.BooleanField(
        default=True, help_text="False applies the import at once (FOG Manager only)."
    )


class LicenceImportStartSerializer(serializers.Serializer):
    mapping = MappingField(required=False, allow_null=True)


class LicenceImportRowSerializer(serializers.ModelSerializer):
    establishment = serializers.PrimaryKeyRelatedField(read_only=True)

    class Meta:
        model = LicenceImportRow
        fields = [
            "row_number",
            "outcome",
            "effect",
            "licence_number",
            "business_name",
            "establishment",
            "changed_fields",
            "reasons",
            "raw",
            "applied",
        ]
        read_only_fields = fields
