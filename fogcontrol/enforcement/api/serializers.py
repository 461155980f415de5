"""Enforcement in the API: violations (with began_on, cured_on, days, provision), cases with their
steps and what is due next, and the steps this app records."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from fogcontrol.core.api.fields import RecordIdField, ScopedPrimaryKeyRelatedField
from fogcontrol.enforcement.models import Case, Referral, ServiceMethod, Violation
from fogcontrol.enforcement.roles import INTERNAL_NOTE_READERS
from fogcontrol.program.selectors import town_today
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.rules.enforcement import violation_days_on


def _establishment_field():
    return ScopedPrimaryKeyRelatedField(
        queryset=FoodServiceEstablishment.objects, what="establishment", where="/api/v1/establishments/"
    )


class ViolationSerializer(serializers.ModelSerializer):
    establishment_name = serializers.CharField(source="establishment.business_name", read_only=True)
    device = serializers.CharField(source="device.identifier", read_only=True, allow_null=True, default=None)
    open = serializers.BooleanField(source="is_open", read_only=True)
    days = serializers.SerializerMethodField(help_text="P3: separate daily offences so far.")
    days_explanation = serializers.SerializerMethodField()

    class Meta:
        model = Violation
        fields = [
            "id",
            "establishment_id",
            "establishment_name",
            "property_owner_id",
            "device",
            "provision",
            "kind",
            "description",
            "source",
            "source_id",
            "evidence",
            "began_on",
            "cured_on",
            "open",
            "days",
            "days_explanation",
            "cure_evidence",
        ]
        read_only_fields = fields

    def _days(self, violation) -> tuple[int, str]:
        today = self.context.get("today") or town_today()
        return violation_days_on(violation.began_on, violation.cured_on, today)

    def get_days(self, violation) -> int:
        return self._days(violation)[0]

    def get_days_explanation(self, violation) -> str:
        return self._days(violation)[1]


class ViolationCreateSerializer(serializers.Serializer):
    establishment = _establishment_field()
    provision = serializers.CharField(max_length=16)
    kind = serializers.ChoiceField(choices=Violation.Kind.choices, default=Violation.Kind.OTHER)
    description = serializers.CharField()
    evidence = serializers.CharField()
    began_on = serializers.DateField()


class ViolationCureSerializer(serializers.Serializer):
    cured_on = serializers.DateField()
    evidence = serializers.CharField()


class StepSerializer(serializers.Serializer):
    key = serializers.CharField()
    title = serializers.CharField()
    provision = serializers.CharField(allow_blank=True)
    state = serializers.ChoiceField(choices=["done", "due", "late"])
    on = serializers.DateField(allow_null=True)
    due_on = serializers.DateField(allow_null=True)
    detail = serializers.CharField(allow_blank=True)
    explanation = serializers.CharField(allow_blank=True)
    document_id = serializers.IntegerField(allow_null=True, help_text="The issued document (notices API).")


class ActionSerializer(serializers.Serializer):
    allowed = serializers.BooleanField()
    reason = serializers.CharField(allow_blank=True)


class CaseSerializer(serializers.ModelSerializer):
    establishment_name = serializers.CharField(source="establishment.business_name", read_only=True)
    open = serializers.BooleanField(source="is_open", read_only=True)
    violation_count = serializers.IntegerField(read_only=True)
    open_violation_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Case
        fields = [
            "id",
            "reference",
            "establishment_id",
            "establishment_name",
            "summary",
            "opened_on",
            "closed_on",
            "open",
            "violation_count",
            "open_violation_count",
        ]
        read_only_fields = fields


class CaseDetailSerializer(serializers.ModelSerializer):
    establishment_name = serializers.CharField(source="establishment.business_name", read_only=True)
    open = serializers.BooleanField(source="is_open", read_only=True)
    internal_notes = serializers.SerializerMethodField()
    violations = serializers.SerializerMethodField()
    steps = serializers.SerializerMethodField()
    next_due = serializers.SerializerMethodField()
    actions = serializers.SerializerMethodField()

    class Meta:
        model = Case
        fields = [
            "id",
            "reference",
            "establishment_id",
            "establishment_name",
            "summary",
            "internal_notes",
            "opened_on",
            "closed_on",
            "closed_reason",
            "open",
            "violations",
            "steps",
            "next_due",
            "actions",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_internal_notes(self, case) -> str | None:
        """Staff only: null for the FSE."""
        user = self.context["request"].user
        return case.internal_notes if user.has_role(*INTERNAL_NOTE_READERS) else None

    @extend_schema_field(ViolationSerializer(many=True))
    def get_violations(self, case) -> list:
        return ViolationSerializer(case.violations.all(), many=True, context=self.context).data

    @extend_schema_field(StepSerializer(many=True))
    def get_steps(self, case) -> list:
        return StepSerializer([s.as_dict() for s in self.context["steps"]], many=True).data

    @extend_schema_field(StepSerializer(allow_null=True))
    def get_next_due(self, case) -> dict | None:
        step = self.context["next_due"]
        return StepSerializer(step.as_dict()).data if step else None

    @extend_schema_field(serializers.DictField(child=ActionSerializer()))
    def get_actions(self, case) -> dict:
        return {k: {"allowed": bool(v), "reason": v.reason} for k, v in self.context["actions"].items()}


class CaseCreateSerializer(serializers.Serializer):
    establishment = _establishment_field()
    summary = serializers.CharField()
    internal_notes = serializers.CharField(required=False, allow_blank=True, default="")
    opened_on = serializers.DateField(required=False)
    violations = serializers.ListField(child=RecordIdField(), required=False, default=list)


class _ServedSerializer(serializers.Serializer):
    issued_on = serializers.DateField()
    service_method = serializers.ChoiceField(choices=ServiceMethod.choices)
    served_on = serializers.DateField()
    article_number = serializers.CharField(required=False, allow_blank=True, default="")


class NoticeOfViolationCreateSerializer(_ServedSerializer):
    violations = serializers.ListField(child=RecordIdField(), min_length=1)
    required_action = serializers.CharField()
    correct_by = serializers.DateField()


class CitationCreateSerializer(_ServedSerializer):
    violation = RecordIdField()
    number = serializers.CharField(max_length=40)
    amount = serializers.DecimalField(max_digits=10, decimal_places=2, min_value=0)


class MilestoneSerializer(serializers.Serializer):
    description = serializers.CharField(max_length=300)
    due_on = serializers.DateField()


class AgreementCreateSerializer(serializers.Serializer):
    agreed_on = serializers.DateField()
    terms = serializers.CharField()
    signed_by = serializers.CharField(max_length=200)
    milestones = MilestoneSerializer(many=True, min_length=1)


class ReferralCreateSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Referral.Kind.choices)
    violations = serializers.ListField(child=RecordIdField(), min_length=1)
    referred_on = serializers.DateField()
    referred_to = serializers.CharField(max_length=200)


class CreatedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()


class OwedSerializer(serializers.Serializer):
    label = serializers.CharField()
    amount = serializers.DecimalField(max_digits=12, decimal_places=2)


class H3RefusalSerializer(serializers.Serializer):
    detail = serializers.CharField()
    provision = serializers.CharField()
    amounts = OwedSerializer(many=True)
    total = serializers.DecimalField(max_digits=12, decimal_places=2)
