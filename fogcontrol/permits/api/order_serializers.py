"""Serializers of the orders that suspend, revoke or reinstate a permit (L1-L6, M1-M3).

They shape and check input; the services record the order, its decision and appeal, and apply it.
"""

from __future__ import annotations

from rest_framework import serializers

from fogcontrol.permits.api.serializers import ScopedPrimaryKeyRelatedField
from fogcontrol.permits.models import Permit, PermitOrder


class PermitOrderSerializer(serializers.ModelSerializer):
    """An order with its process (L1-L6, M1-M3); `action` is what applying it does to the permit."""

    permit_number = serializers.CharField(source="permit.number", read_only=True)
    ends_order_reference = serializers.CharField(
        source="ends_order.reference", read_only=True, default=None, allow_null=True
    )
    action = serializers.CharField(read_only=True)

    class Meta:
        model = PermitOrder
        fields = [
            "id", "reference", "permit", "permit_number", "kind", "grounds", "facts",
            "notice_mailed_on", "certified_mail_number", "hearing_on", "hearing_place",
            "hearing_earliest_on", "hearing_latest_on", "emergency_order_on", "determined_by",
            "hearing_concluded_on", "decision_due_on", "decision_on", "hearing_officer_name", "outcome",
            "decision", "decision_mail_number", "appeal_status", "final_on", "ends_order",
            "ends_order_reference", "action", "explanation", "recorded_at", "recorded_by_label",
            "decided_at", "decided_by_label", "applied_on", "applied_by_label",
        ]  # fmt: skip


class PermitOrderInputSerializer(serializers.Serializer):
    """Record an order. Suspension / revocation: grounds, facts, the certified-mail notice and the
    hearing date (L1, L2). Emergency suspension: the order's date, who determined it, the hearing date
    (M1, M3). Reinstatement: `ends_order` and the reason in `facts`."""

    permit = ScopedPrimaryKeyRelatedField(
        what="permit",
        where="/api/v1/permits/",
        queryset=Permit.objects.all(),
    )
    kind = serializers.ChoiceField(choices=PermitOrder.Kind.choices)
    grounds = serializers.ListField(child=serializers.ChoiceField(choices=PermitOrder.Ground.choices), required=False, default=list)  # fmt: skip
    facts = serializers.CharField()
    notice_mailed_on = serializers.DateField(required=False, allow_null=True)
    certified_mail_number = serializers.CharField(required=False, allow_blank=True, default="")
    hearing_on = serializers.DateField(required=False, allow_null=True)
    hearing_place = serializers.CharField(required=False, allow_blank=True, default="")
    emergency_order_on = serializers.DateField(required=False, allow_null=True)
    determined_by = serializers.CharField(required=False, allow_blank=True, default="")
    ends_order = ScopedPrimaryKeyRelatedField(
        what="order", where="/api/v1/permit-orders/",
        queryset=PermitOrder.objects.all(), required=False, allow_null=True,
    )  # fmt: skip


class DecisionInputSerializer(serializers.Serializer):
    """The hearing officer's written decision and order (L3, L4; M3) and the appeal status (L6)."""

    hearing_concluded_on = serializers.DateField(required=False, allow_null=True)
    decision_on = serializers.DateField()
    hearing_officer_name = serializers.CharField()
    outcome = serializers.ChoiceField(choices=PermitOrder.Outcome.choices)
    decision = serializers.CharField()
    decision_mail_number = serializers.CharField()
    appeal_status = serializers.ChoiceField(
        choices=PermitOrder.Appeal.choices, default=PermitOrder.Appeal.OPEN
    )
    final_on = serializers.DateField(required=False, allow_null=True)


class AppealInputSerializer(serializers.Serializer):
    """L6: final (not appealed, or upheld), appealed, or overturned."""

    appeal_status = serializers.ChoiceField(choices=PermitOrder.Appeal.choices)
    final_on = serializers.DateField(required=False, allow_null=True)


class OrderApplySerializer(serializers.Serializer):
    """The recorded order to apply (L5, M1). Without one the change is refused (409)."""

    order = ScopedPrimaryKeyRelatedField(
        what="order", where="/api/v1/permit-orders/",
        queryset=PermitOrder.objects.all(), required=False, allow_null=True,
    )  # fmt: skip
    reason = serializers.CharField(required=False, allow_blank=True, default="")
