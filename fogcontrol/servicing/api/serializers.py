"""API shapes for servicing. Input serializers check types; the services check the rules."""

from rest_framework import serializers

from fogcontrol.core.api.fields import ScopedPrimaryKeyRelatedField
from fogcontrol.core.api.serializers import PlainItemsMixin, RowsSerializerMixin
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.servicing import certification
from fogcontrol.servicing.models import (
    FrequencyChange,
    FrequencyChangeRequest,
    Manifest,
    ManifestFlag,
    ManifestImport,
    ManifestImportProblem,
    ServiceRequirement,
    SludgeReading,
)
from fogcontrol.servicing.services import ManifestSubmission


class ManifestInputSerializer(PlainItemsMixin, serializers.Serializer):
    device = serializers.CharField(help_text="The Town's device number, e.g. GI-00042.")
    manifest_number = serializers.CharField(max_length=64)
    serviced_at = serializers.DateTimeField(
        help_text="Date and time of service (ISO 8601; Town time if no offset)."
    )
    full_pumpout = serializers.BooleanField(help_text="All FOG, liquids and solids removed (E7).")
    baffles_cleaned = serializers.BooleanField(help_text="Baffles removed and cleaned (E7).")
    fog_depth_in = serializers.DecimalField(max_digits=6, decimal_places=2, required=False, allow_null=True)
    solids_depth_in = serializers.DecimalField(
        max_digits=6, decimal_places=2, required=False, allow_null=True
    )
    gallons_removed = serializers.DecimalField(
        max_digits=9, decimal_places=1, required=False, allow_null=True
    )
    establishment = serializers.CharField(
        required=False, allow_blank=True, allow_null=True, help_text="Licence number."
    )
    hauler = serializers.CharField(
        required=False,
        allow_blank=True,
        allow_null=True,
        help_text="The hauler company's name or id. Haulers: their own company (blank: their only one). "
        "FSEs and owners: a hauler on the list of the establishment(s) the device serves, or the name "
        "of whoever did the work when it is no registered company (self / other: kept as `hauler_name`, "
        "linked to no company). Staff: any registered company, or such a name.",
    )
    driver_name = serializers.CharField(required=False, allow_blank=True, max_length=120, default="")
    vehicle_plate = serializers.CharField(required=False, allow_blank=True, max_length=20, default="")
    leak_observed = serializers.BooleanField(required=False, default=False)
    damaged_baffles = serializers.BooleanField(required=False, default=False)
    damaged_tees = serializers.BooleanField(required=False, default=False)
    condition_notes = serializers.CharField(required=False, allow_blank=True, default="")
    receiving_facility = serializers.CharField(required=False, allow_blank=True, allow_null=True)
    delivered_on = serializers.DateField(required=False, allow_null=True)
    certified_by_name = serializers.CharField(
        required=False, allow_blank=True, max_length=150, default="", help_text="Typed name: the signature."
    )
    certification_version = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=32,
        default="",
        help_text=f"The certification text's version; current: {certification.CURRENT_VERSION}.",
    )

    def to_submission(self) -> ManifestSubmission:
        data = dict(self.validated_data)
        return ManifestSubmission(**data)

    @classmethod
    def each(cls, items: list) -> list[tuple[ManifestSubmission | None, dict | None]]:
        """Check a batch's items as ``is_valid`` checks each: (submission, None) or (None, errors)
        for each, with one serializer (DRF deep-copies a serializer's fields each time one is made,
        which cost more than checking the item) and its plain values checked without DRF's
        machinery (``PlainItemsMixin``: the same data and errors)."""
        checker, out = cls(), []
        for item in items:
            try:
                data = checker.check_item(item if isinstance(item, dict) else {})
            except serializers.ValidationError as exc:
                out.append((None, exc.detail))
                continue
            out.append((ManifestSubmission(**data), None))
        return out


class CorrectionInputSerializer(ManifestInputSerializer):
    reason = serializers.CharField(help_text="What was wrong and what the correction changes.")
    withdraw = serializers.BooleanField(
        required=False, default=False, help_text="The manifest should not have been filed."
    )

    def to_submission(self) -> ManifestSubmission:
        data = dict(self.validated_data)
        data.pop("reason")
        data.pop("withdraw")
        return ManifestSubmission(**data)


class FlagSerializer(RowsSerializerMixin, serializers.ModelSerializer):
    class Meta:
        model = ManifestFlag
        fields = ["id", "manifest", "code", "provision", "message", "review", "reviewed_at", "review_note"]


class ManifestSerializer(RowsSerializerMixin, serializers.ModelSerializer):
    device = serializers.CharField(source="device.identifier")
    receiving_facility = serializers.CharField(
        source="receiving_facility.name", default=None, allow_null=True
    )
    submitted_by = serializers.CharField(source="submitted_by_label")
    flags = FlagSerializer(many=True, read_only=True)
    attachments = serializers.SerializerMethodField()
    # The list's selector loads these as lists (servicing.selectors.manifest_list_for_api).
    prefetched_lists = {"flags": "api_flags"}

    class Meta:
        model = Manifest
        fields = [
            "id",
            "device",
            "device_id",
            "establishment_id",
            "site_address",
            "hauler_id",
            "hauler_name",
            "hauler_attested",
            "driver_name",
            "vehicle_plate",
            "manifest_number",
            "serviced_at",
            "service_date",
            "full_pumpout",
            "baffles_cleaned",
            "fog_depth_in",
            "solids_depth_in",
            "fill_ratio",
            "gallons_removed",
            "leak_observed",
            "damaged_baffles",
            "damaged_tees",
            "condition_notes",
            "receiving_facility",
            "delivered_on",
            "certified_by_name",
            "certification_version",
            "channel",
            "received_at",
            "submitted_by",
            "corrects",
            "correction_reason",
            "withdrawn",
            "record_sequence",
            "previous_hash",
            "record_hash",
            "flags",
            "attachments",
        ]

    def get_attachments(self, manifest) -> list[dict]:
        attachments = getattr(manifest, "api_attachments", None)  # the list's, as a list
        if attachments is None:
            attachments = manifest.attachments.all()
        return [
            {
                "id": a.pk,
                "name": a.original_name,
                "content_type": a.content_type,
                "size_bytes": a.size_bytes,
                "sha256": a.sha256,
            }
            for a in attachments
        ]


class ComplianceQuerySerializer(serializers.Serializer):
    on = serializers.DateField(required=False, help_text="The day to judge (YYYY-MM-DD); today by default.")


class FrequencyChangeInputSerializer(serializers.Serializer):
    """E1, B7: the one way to propose a change of a device's frequency. A notice date before today
    needs `backdating_reason` and `mailing_record` (the FOG Manager only)."""

    to_days = serializers.IntegerField()
    reason = serializers.CharField()
    notice_date = serializers.DateField(required=False, allow_null=True)
    effective_on = serializers.DateField(required=False, allow_null=True)
    backdating_reason = serializers.CharField(required=False, allow_blank=True, default="")
    mailing_record = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class FrequencyWithdrawInputSerializer(serializers.Serializer):
    reason = serializers.CharField()


class FrequencyNoticeSerializer(serializers.Serializer):
    """A notice of the change: to the responsible party (A2) or a permittee (B7)."""

    id = serializers.IntegerField()
    addressee = serializers.CharField(source="addressee_name")
    establishment = serializers.IntegerField(source="establishment_id", allow_null=True)
    party = serializers.IntegerField(source="party_id", allow_null=True)
    permit = serializers.IntegerField(source="permit_id", allow_null=True)
    subject = serializers.CharField()
    sent_on = serializers.DateField()
    method = serializers.CharField()
    email_to = serializers.ListField(child=serializers.CharField())
    mailing_record = serializers.CharField()


class FrequencyChangeSerializer(serializers.ModelSerializer):
    status = serializers.CharField(
        read_only=True, help_text="pending, applied or withdrawn (B7: one pending per device)."
    )
    notices = FrequencyNoticeSerializer(many=True, read_only=True)
    permit_modifications = serializers.PrimaryKeyRelatedField(many=True, read_only=True)

    class Meta:
        model = FrequencyChange
        fields = [
            "id",
            "device",
            "status",
            "from_days",
            "to_days",
            "source",
            "request",
            "reason",
            "notice_date",
            "effective_on",
            "explanation",
            "backdating_reason",
            "mailing_record",
            "created_at",
            "applied_at",
            "withdrawn_at",
            "withdrawn_reason",
            "replaced_by",
            "notices",
            "permit_modifications",
            "permit_modification_ref",
        ]


ASSESSMENT_HELP = (
    "The rules engine's E5 assessment. The finding, on the chapter's grounds only (E1, E3, full "
    "compliance): `granted`, `reasons`, `projected_fill_ratio` (the average accumulation projected to "
    "the requested interval), `explanation`. Apart from it, `advice`: sentences the FOG Manager may "
    "weigh (a safety margin, an interval beyond the observed data), never a ground for the decision."
)


class FrequencyRequestSerializer(serializers.ModelSerializer):
    assessment = serializers.JSONField(read_only=True, help_text=ASSESSMENT_HELP + " As filed.")
    decision_assessment = serializers.JSONField(
        read_only=True, help_text=ASSESSMENT_HELP + " When decided ({} while pending)."
    )
    device = ScopedPrimaryKeyRelatedField(
        what="device", where="/api/v1/devices/", queryset=GreaseControlDevice.objects.all()
    )

    class Meta:
        model = FrequencyChangeRequest
        fields = [
            "id",
            "device",
            "requested_days",
            "current_days",
            "justification",
            "status",
            "assessment",
            "decision_assessment",
            "submitted_at",
            "decided_at",
            "decision_note",
        ]
        read_only_fields = [
            "current_days",
            "status",
            "assessment",
            "decision_assessment",
            "submitted_at",
            "decided_at",
            "decision_note",
        ]


class DecisionSerializer(serializers.Serializer):
    grant = serializers.BooleanField()
    note = serializers.CharField(required=False, allow_blank=True, default="")
    notice_date = serializers.DateField(required=False, allow_null=True)


class RequirementSerializer(serializers.ModelSerializer):
    device = serializers.CharField(source="device.identifier")

    class Meta:
        model = ServiceRequirement
        fields = [
            "id",
            "device",
            "device_id",
            "kind",
            "provision",
            "status",
            "opened_on",
            "due_on",
            "opened_by_manifest",
            "opened_by_reading",
            "proposed_frequency_days",
            "proposed_effective_on",
            "explanation",
            "closed_at",
            "closed_by_manifest",
            "close_note",
        ]


class RequirementCloseSerializer(serializers.Serializer):
    note = serializers.CharField(required=False, allow_blank=True, default="")
    e8_exception = serializers.ChoiceField(choices=["", "space", "slope"], required=False, default="")


class FlagReviewSerializer(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=[ManifestFlag.Review.CLEARED, ManifestFlag.Review.REFERRED])
    note = serializers.CharField(required=False, allow_blank=True, default="")


class ReadingSerializer(serializers.ModelSerializer):
    device = ScopedPrimaryKeyRelatedField(
        what="device", where="/api/v1/devices/", queryset=GreaseControlDevice.objects.all()
    )

    class Meta:
        model = SludgeReading
        fields = [
            "id",
            "device",
            "taken_on",
            "fog_depth_in",
            "solids_depth_in",
            "fill_ratio",
            "source",
            "notes",
            "recorded_at",
        ]
        read_only_fields = ["fill_ratio", "recorded_at"]


class ImportProblemSerializer(serializers.ModelSerializer):
    class Meta:
        model = ManifestImportProblem
        fields = ["row_number", "manifest_number", "field", "message"]


class ManifestImportSerializer(serializers.ModelSerializer):
    report_url = serializers.SerializerMethodField()

    class Meta:
        model = ManifestImport
        fields = [
            "id",
            "original_name",
            "size_bytes",
            "dry_run",
            "status",
            "created_at",
            "started_at",
            "finished_at",
            "rows_total",
            "rows_accepted",
            "rows_rejected",
            "rows_flagged",
            "error",
            "report_url",
        ]

    def get_report_url(self, record) -> str | None:
        if not record.report:
            return None
        request = self.context.get("request")
        path = f"/api/v1/manifest-imports/{record.pk}/report/"
        return request.build_absolute_uri(path) if request else path


class ManifestImportUploadSerializer(serializers.Serializer):
    file = serializers.FileField()
    dry_run = serializers.BooleanField(required=False, default=False)
