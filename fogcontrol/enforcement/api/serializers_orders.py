"""Serializers of the later steps of a case: complaints (P5, P6), hearings and continuances (L2-L4,
M3), penalty orders (P7-P10), suspension notices (L1, L2), emergency suspensions (M1-M3) and
terminations of service (O1, O2)."""

from __future__ import annotations

from rest_framework import serializers

from fogcontrol.core.api.fields import RecordIdField
from fogcontrol.enforcement.models import (
    AdministrativeComplaint,
    Hearing,
    HearingContinuance,
    PenaltyOrder,
    ServiceCost,
    ServiceTermination,
    Violation,
)
from fogcontrol.enforcement.services.penalties import FACTOR_FIELDS
from fogcontrol.permits.models import PermitOrder

# The choice sets these inputs allow, named for the schema (settings.SPECTACULAR_SETTINGS).
COMPLAINT_SERVICE_METHODS = [("personal_delivery", "Personal delivery"), ("certified_mail", "Certified mail")]
PENALTY_SERVICE_METHODS = [("personal_delivery", "Personal service"), ("registered_mail", "Registered mail")]
COMPLAINT_APPEAL_STEPS = [c for c in AdministrativeComplaint.Appeal.choices if c[0]]
PENALTY_APPEAL_STEPS = [c for c in PenaltyOrder.Status.choices if c[0] != PenaltyOrder.Status.FINAL]
SUSPENSION_APPEAL_STEPS = [c for c in PermitOrder.Appeal.choices if c[0] != PermitOrder.Appeal.NOT_APPEALABLE]


class ContinuanceSerializer(serializers.ModelSerializer):
    class Meta:
        model = HearingContinuance
        fields = ["id", "from_date", "new_date", "requested_by", "reason", "total_days"]


class HearingSerializer(serializers.ModelSerializer):
    case = serializers.PrimaryKeyRelatedField(read_only=True)
    permit_order = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)
    continuances = ContinuanceSerializer(many=True, read_only=True)
    decision_due_on = serializers.DateField(
        read_only=True,
        allow_null=True,
        help_text="L4 (the ruleset's days after the hearing ends) or M3 (its business days after the order).",
    )
    waiting_for_mailing = serializers.SerializerMethodField(
        help_text="L2, P5: the notice waits for the certified mail run; `latest_on` is counted again from "
        "the mailing date the mail log records."
    )

    class Meta:
        model = Hearing
        fields = [
            "id", "case", "kind", "permit_order", "first_scheduled_on", "scheduled_on", "place", "latest_on",
            "waiting_for_mailing",
            "held_on", "concluded_on", "decision_due_on", "decided_on", "waived_on", "hearing_officer_name",
            "outcome", "continuances",
        ]  # fmt: skip

    def get_waiting_for_mailing(self, hearing) -> bool:
        explanation = hearing.explanation or {}
        return bool(explanation.get("L2-waiting") or explanation.get("P5-waiting"))


class ContinuanceInputSerializer(serializers.Serializer):
    new_date = serializers.DateField(
        help_text="The new hearing date (L3: continuances total no more than 60 days)."
    )
    requested_by = serializers.ChoiceField(
        choices=HearingContinuance.RequestedBy.choices, default="respondent"
    )
    reason = serializers.CharField()


class HearingDecisionInputSerializer(serializers.Serializer):
    held_on = serializers.DateField(required=False, allow_null=True, default=None)
    concluded_on = serializers.DateField(required=False, allow_null=True, default=None)
    decided_on = serializers.DateField()
    hearing_officer_name = serializers.CharField()
    outcome_text = serializers.CharField(help_text="The decision, as written.")
    outcome = serializers.ChoiceField(choices=PermitOrder.Outcome.choices, default=PermitOrder.Outcome.ORDERED,
                                      help_text="Suspension / emergency hearings: what the decision orders.")  # fmt: skip
    service_method = serializers.ChoiceField(choices=COMPLAINT_SERVICE_METHODS, default="certified_mail")
    served_on = serializers.DateField(required=False, allow_null=True, default=None)
    article_number = serializers.CharField(required=False, allow_blank=True, default="")


class SuspensionAppealSerializer(serializers.Serializer):
    appeal_status = serializers.ChoiceField(choices=SUSPENSION_APPEAL_STEPS)
    final_on = serializers.DateField(required=False, allow_null=True, default=None)


def _waiting(record) -> bool:
    return record.served_on is None and bool(record.issued_on)


class ComplaintSerializer(serializers.ModelSerializer):
    case = serializers.PrimaryKeyRelatedField(read_only=True)
    waiting_for_mailing = serializers.SerializerMethodField(
        help_text="P5: by certified mail, not yet mailed: `served_on` and `hearing_latest_on` come from the mail log."
    )
    hearing = HearingSerializer(read_only=True)
    violations = serializers.PrimaryKeyRelatedField(many=True, read_only=True)

    class Meta:
        model = AdministrativeComplaint
        fields = [
            "id", "reference", "case", "violations", "statement", "law_violated", "proposed_penalty", "issued_on",
            "service_method", "waiting_for_mailing", "served_on", "article_number", "hearing_latest_on", "hearing",
            "waived_on",
            "decision_noticed_on", "appeal_by", "appeal_status", "appealed_on", "council_decided_on",
            "council_outcome", "document_id",
        ]  # fmt: skip

    def get_waiting_for_mailing(self, complaint) -> bool:
        return _waiting(complaint)


class ComplaintInputSerializer(serializers.Serializer):
    violations = serializers.PrimaryKeyRelatedField(many=True, queryset=Violation.objects.all())
    statement = serializers.CharField()
    law_violated = serializers.CharField()
    proposed_penalty = serializers.DecimalField(max_digits=12, decimal_places=2, min_value=0)
    issued_on = serializers.DateField()
    service_method = serializers.ChoiceField(choices=COMPLAINT_SERVICE_METHODS)
    served_on = serializers.DateField(
        required=False, allow_null=True, default=None,
        help_text="Personal delivery: required. Certified mail: omit; the mail run's log gives it (P5).",
    )  # fmt: skip
    article_number = serializers.CharField(required=False, allow_blank=True, default="")
    hearing_on = serializers.DateField(help_text="P5: within the ruleset's days after service.")
    hearing_place = serializers.CharField()


class WaiverSerializer(serializers.Serializer):
    waived_on = serializers.DateField()


class ComplaintAppealSerializer(serializers.Serializer):
    appeal_status = serializers.ChoiceField(choices=COMPLAINT_APPEAL_STEPS)
    on = serializers.DateField()
    outcome = serializers.CharField(required=False, allow_blank=True, default="")


class PenaltyOrderSerializer(serializers.ModelSerializer):
    case = serializers.PrimaryKeyRelatedField(read_only=True)
    waiting_for_mailing = serializers.SerializerMethodField(
        help_text="P8: issued by registered mail, not yet mailed: `served_on` and `appeal_by` come from the mail log."
    )
    violations = serializers.PrimaryKeyRelatedField(many=True, read_only=True)

    class Meta:
        model = PenaltyOrder
        fields = [
            "id", "reference", "case", "complaint", "violations", "violation_kind", "days", "occurrences",
            "under_order", "amount", "cap", *FACTOR_FIELDS, "hearing_officer_name", "status", "issued_on",
            "service_method", "waiting_for_mailing", "served_on", "appeal_by", "article_number", "payment_due_on",
            "account", "paid_on", "document_id",
            "proposed_on", "proposed_by", "decided_by", "decided_at", "decision_note",
        ]  # fmt: skip

    def get_waiting_for_mailing(self, order) -> bool:
        return _waiting(order)

    proposed_by = serializers.CharField(source="recorded_by_label", read_only=True)
    decided_by = serializers.CharField(source="decided_by_label", read_only=True)


class PenaltyAppealSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=PENALTY_APPEAL_STEPS)
    on = serializers.DateField()


MOST_UNITS = 36_600


class CapQuerySerializer(serializers.Serializer):
    violation_kind = serializers.ChoiceField(choices=PenaltyOrder.Kind.choices)
    # A century of days (or that many overflows) bounds the input: a larger count is a typing
    # mistake, and its cap would not fit the amount's 12 digits (found by schemathesis, issue 15).
    days = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=MOST_UNITS, default=None
    )
    occurrences = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=MOST_UNITS, default=None
    )
    under_order = serializers.BooleanField(required=False, default=False)


class PenaltyOrderInputSerializer(CapQuerySerializer):
    case = RecordIdField()
    amount = serializers.DecimalField(max_digits=12, decimal_places=2)
    violations = serializers.ListField(child=RecordIdField(), required=False, default=list)
    complaint = serializers.IntegerField(required=False, allow_null=True, default=None)
    hearing_officer_name = serializers.CharField()
    harm = serializers.CharField()
    economic_benefit = serializers.CharField()
    nature_and_persistence = serializers.CharField()
    duration = serializers.CharField()
    corrective_action = serializers.CharField()
    proposed_on = serializers.DateField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Today unless given (a proposal made on paper).",
    )


class PenaltyApproveSerializer(serializers.Serializer):
    """The second person's approval (two-person rule): the order is issued and served (P8)."""

    issued_on = serializers.DateField(
        help_text="The day of issue: the proposal's day or later, today at most."
    )
    service_method = serializers.ChoiceField(choices=PENALTY_SERVICE_METHODS)
    served_on = serializers.DateField(
        required=False, allow_null=True, default=None,
        help_text="Personal service: required. Registered mail: omit; the mail run's log gives it (P8, P6).",
    )  # fmt: skip
    article_number = serializers.CharField(required=False, allow_blank=True, default="")
    note = serializers.CharField(required=False, allow_blank=True, default="")


class RefusalSerializer(serializers.Serializer):
    note = serializers.CharField(help_text="Why it is refused: kept with the record.")


class CapSerializer(serializers.Serializer):
    max_amount = serializers.DecimalField(max_digits=12, decimal_places=2)
    per_unit = serializers.DecimalField(max_digits=12, decimal_places=2)
    units = serializers.IntegerField()
    unit_label = serializers.CharField()
    factors = serializers.ListField(child=serializers.CharField())
    explanation = serializers.CharField()


class WindowSerializer(serializers.Serializer):
    earliest = serializers.DateField()
    latest = serializers.DateField()
    explanation = serializers.CharField()


class SuspensionNoticeInputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["suspension", "revocation"], default="suspension")
    grounds = serializers.ListField(child=serializers.ChoiceField(choices=PermitOrder.Ground.choices))
    facts = serializers.CharField()
    mailed_on = serializers.DateField(
        required=False, allow_null=True, default=None,
        help_text="L2: omit: the notice waits for the mail run, whose log sets the hearing window.",
    )  # fmt: skip
    article_number = serializers.CharField()
    hearing_on = serializers.DateField(required=False, allow_null=True, default=None)
    hearing_place = serializers.CharField()


class SuspensionNoticeSerializer(serializers.Serializer):
    hearing = HearingSerializer()
    permit_order = serializers.IntegerField()
    hearing_window = WindowSerializer()


class EmergencyInputSerializer(serializers.Serializer):
    case = RecordIdField()
    ordered_on = serializers.DateField()
    determination = serializers.CharField(help_text="M1: why the suspension is necessary.")
    determined_by = serializers.CharField()
    hearing_on = serializers.DateField(required=False, allow_null=True, default=None)
    hearing_place = serializers.CharField(required=False, allow_blank=True, default="")


class EmergencySerializer(serializers.Serializer):
    hearing = HearingSerializer()
    permit_order = serializers.IntegerField()
    hearing_by = serializers.DateField()
    decision_by = serializers.DateField()


class ServiceCostSerializer(serializers.ModelSerializer):
    class Meta:
        model = ServiceCost
        fields = ["id", "kind", "amount", "incurred_on", "description", "owed_by"]


class TerminationSerializer(serializers.ModelSerializer):
    case = serializers.PrimaryKeyRelatedField(read_only=True)
    costs = ServiceCostSerializer(many=True, read_only=True)

    class Meta:
        model = ServiceTermination
        fields = ["id", "case", "basis", "permit_order", "notice", "terminated_on", "how", "reinstated_on",
                  "costs", "document_id"]  # fmt: skip


class TerminationInputSerializer(serializers.Serializer):
    terminated_on = serializers.DateField()
    how = serializers.CharField()
    permit_order = serializers.IntegerField(required=False, allow_null=True, default=None)
    notice = serializers.IntegerField(required=False, allow_null=True, default=None)
    cost = serializers.DecimalField(
        max_digits=12, decimal_places=2, required=False, allow_null=True, default=None
    )
    owed_by = serializers.CharField(required=False, allow_blank=True, default="")


class ReinstatementSerializer(serializers.Serializer):
    reinstated_on = serializers.DateField()
    cost = serializers.DecimalField(
        max_digits=12, decimal_places=2, required=False, allow_null=True, default=None
    )
    owed_by = serializers.CharField(required=False, allow_blank=True, default="")
