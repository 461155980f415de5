"""The spill import in the API: the upload, the import with its counts, and its report rows."""

from rest_framework import serializers

from fogcontrol.spills.models import SpillImport, SpillImportRow


class SpillImportSerializer(serializers.ModelSerializer):
    rows_url = serializers.SerializerMethodField()

    class Meta:
        model = SpillImport
        fields = [
            "id", "kind", "original_filename", "sha256", "agency_wdid", "status", "dry_run_counts",
            "applied_counts", "uploaded_by_label", "created_at", "applied_at", "rows_url",
        ]  # fmt: skip
        read_only_fields = fields

    def get_rows_url(self, spill_import: SpillImport) -> str:
        return f"/api/v1/imports/spills/{spill_import.pk}/rows/"


class SpillImportRowSerializer(serializers.ModelSerializer):
    class Meta:
        model = SpillImportRow
        fields = ["row_number", "applied", "outcome", "key", "reasons", "spill_id"]
        read_only_fields = fields


class SpillImportCreateSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="A CIWQS spills file (PLSD, SSO) or the agency register (PRA).")
    agency = serializers.CharField(
        required=False, allow_blank=True, default="", help_text="Only this agency's WDID."
    )
