"""The FSE's records in the API: what each shows, and the input each write takes (validated by the
services, which name the field in a 400)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from fogcontrol.core.api.fields import ScopedPrimaryKeyRelatedField
from fogcontrol.records.actions import submission_actions
from fogcontrol.records.models import (
    TRAINING_SUBJECTS,
    OilPickup,
    RecordRequirement,
    RecordSubmission,
    SubmissionReview,
    TrainingAttendance,
    TrainingSession,
)
from fogcontrol.registry.models import FoodServiceEstablishment, HaulerCompany


def _establishment_field(action: str = "view"):
    return ScopedPrimaryKeyRelatedField(
        queryset=FoodServiceEstablishment.objects.all(),
        what="establishment",
        where="/api/v1/establishments/",
        action=action,
    )


class TrainingAttendanceSerializer(serializers.ModelSerializer):
    employee_name = serializers.CharField(source="employee.name")
    hire_date = serializers.DateField(source="employee.hire_date")
    signed_on_screen = serializers.SerializerMethodField()
    signature_url = serializers.SerializerMethodField()

    class Meta:
        model = TrainingAttendance
        fields = ["id", "employee_name", "hire_date", "signed_on_screen", "signed_at", "signature_url"]
        read_only_fields = fields

    def get_signed_on_screen(self, line: TrainingAttendance) -> bool:
        return bool(line.signature)

    def get_signature_url(self, line: TrainingAttendance) -> str | None:
        return f"/records/signatures/{line.pk}/" if line.signature else None


class TrainingSessionSerializer(serializers.ModelSerializer):
    establishment = _establishment_field()
    subjects = serializers.ListField(child=serializers.ChoiceField(choices=list(TRAINING_SUBJECTS)))
    signed = serializers.IntegerField(read_only=True, required=False)
    signed_sheet_url = serializers.SerializerMethodField()
    sheet_pdf_url = serializers.SerializerMethodField()

    class Meta:
        model = TrainingSession
        fields = [
            "id",
            "establishment",
            "held_on",
            "trainer",
            "subjects",
            "language",
            "notes",
            "signed",
            "signed_sheet_url",
            "sheet_pdf_url",
            "recorded_by_label",
        ]
        read_only_fields = ["id", "signed", "signed_sheet_url", "sheet_pdf_url", "recorded_by_label"]

    def get_signed_sheet_url(self, session: TrainingSession) -> str | None:
        return f"/records/training/{session.pk}/signed-sheet/" if session.signed_sheet else None

    def get_sheet_pdf_url(self, session: TrainingSession) -> str:
        return f"/records/training/{session.pk}/sheet.pdf"


class TrainingSessionDetailSerializer(TrainingSessionSerializer):
    roster = TrainingAttendanceSerializer(source="attendances", many=True, read_only=True)

    class Meta(TrainingSessionSerializer.Meta):
        fields = [*TrainingSessionSerializer.Meta.fields, "roster"]


class TrainingSessionInputSerializer(serializers.Serializer):
    establishment = _establishment_field()
    held_on = serializers.DateField()
    trainer = serializers.CharField()
    subjects = serializers.ListField(child=serializers.CharField(), allow_empty=True)
    language = serializers.ChoiceField(choices=TrainingSession.Language.choices, default="en")
    notes = serializers.CharField(required=False, allow_blank=True, default="")
    signed_sheet = serializers.FileField(required=False)


class TrainingSignInputSerializer(serializers.Serializer):
    employee_name = serializers.CharField()
    hire_date = serializers.DateField()
    signature = serializers.CharField(required=False, allow_blank=True, default="")


class OilPickupSerializer(serializers.ModelSerializer):
    establishment = _establishment_field()
    hauler = ScopedPrimaryKeyRelatedField(
        queryset=HaulerCompany.objects.all(),
        what="hauler",
        where="/api/v1/haulers/",
        required=False,
        allow_null=True,
    )
    collector = serializers.CharField(read_only=True)
    receipt_url = serializers.SerializerMethodField()
    receipt = serializers.FileField(write_only=True, required=False)

    class Meta:
        model = OilPickup
        fields = [
            "id",
            "establishment",
            "picked_up_on",
            "gallons",
            "hauler",
            "recycler_name",
            "collector",
            "receipt",
            "receipt_url",
            "recorded_by_label",
        ]
        read_only_fields = ["id", "collector", "receipt_url", "recorded_by_label"]

    def get_receipt_url(self, pickup: OilPickup) -> str | None:
        return f"/records/pickups/{pickup.pk}/receipt/" if pickup.receipt else None


class RecordRequirementSerializer(serializers.ModelSerializer):
    establishment = _establishment_field()
    provision = serializers.CharField(read_only=True)
    schedule = serializers.CharField(read_only=True)
    first_due_on = serializers.DateField(required=False)
    requested_on = serializers.DateField(required=False)

    class Meta:
        model = RecordRequirement
        fields = [
            "id",
            "establishment",
            "kind",
            "provision",
            "description",
            "every",
            "unit",
            "first_due_on",
            "requested_on",
            "ends_on",
            "permit_condition",
            "schedule",
            "set_by_label",
        ]
        read_only_fields = ["id", "provision", "ends_on", "schedule", "set_by_label"]
        extra_kwargs = {"permit_condition": {"required": False}}


class RecordRequirementEndSerializer(serializers.Serializer):
    ends_on = serializers.DateField()


class RecordReviewSerializer(serializers.ModelSerializer):
    class Meta:
        model = SubmissionReview
        fields = ["outcome", "reason", "reviewed_on", "reviewed_by_label"]
        read_only_fields = fields


class RecordSubmissionSerializer(serializers.ModelSerializer):
    requirement = ScopedPrimaryKeyRelatedField(
        queryset=RecordRequirement.objects.all(), what="requirement", where="/api/v1/record-requirements/"
    )
    establishment_id = serializers.IntegerField(source="requirement.establishment_id", read_only=True)
    kind = serializers.CharField(source="requirement.kind", read_only=True)
    provision = serializers.CharField(source="requirement.provision", read_only=True)
    review = serializers.SerializerMethodField()
    file = serializers.FileField(write_only=True)
    file_url = serializers.SerializerMethodField()
    allowed_actions = serializers.SerializerMethodField()
    period_number = serializers.IntegerField(required=False, min_value=1)

    class Meta:
        model = RecordSubmission
        fields = [
            "id",
            "requirement",
            "establishment_id",
            "kind",
            "provision",
            "period_number",
            "period_due_on",
            "corrects",
            "note",
            "file",
            "file_url",
            "original_name",
            "sha256",
            "received_at",
            "submitted_by_label",
            "record_hash",
            "review",
            "allowed_actions",
        ]
        read_only_fields = [
            "id",
            "period_due_on",
            "corrects",
            "original_name",
            "sha256",
            "received_at",
            "submitted_by_label",
            "record_hash",
        ]

    def get_review(self, submission: RecordSubmission) -> dict | None:
        review = getattr(submission, "review", None)
        return RecordReviewSerializer(review).data if review is not None else None

    @extend_schema_field(serializers.DictField(child=serializers.CharField(allow_blank=True)))
    def get_allowed_actions(self, submission: RecordSubmission) -> dict:
        """Each step with "" when allowed, else the reason it is refused (records/actions.py)."""
        request = self.context.get("request")
        if request is None:
            return {}
        return {
            step: verdict.reason for step, verdict in submission_actions(request.user, submission).items()
        }

    def get_file_url(self, submission: RecordSubmission) -> str:
        return f"/records/submissions/{submission.pk}/file/"


class RecordReviewInputSerializer(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=SubmissionReview.Outcome.choices)
    reason = serializers.CharField(required=False, allow_blank=True, default="")


class RecordCorrectionInputSerializer(serializers.Serializer):
    file = serializers.FileField()
    note = serializers.CharField(required=False, allow_blank=True, default="")


class EstablishmentObligationSerializer(serializers.Serializer):
    kind = serializers.CharField()
    title = serializers.CharField()
    due_on = serializers.DateField()
    status = serializers.ChoiceField(choices=["upcoming", "due", "late", "done"])
    provision = serializers.CharField()
    explanation = serializers.CharField()
    how_to_fix = serializers.CharField()
