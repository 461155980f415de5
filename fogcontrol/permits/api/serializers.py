"""Permits API serializers: they shape and check input; every write is a permits service.

Serializers never save. Related ids are looked up inside the requesting user's scope, so an id the
user cannot see reads as unknown, exactly like one that does not exist.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from fogcontrol.core.api.fields import ScopedPrimaryKeyRelatedField
from fogcontrol.core.api.serializers import RowsSerializerMixin, actions_data
from fogcontrol.permits import selectors
from fogcontrol.permits.actions import application_actions, permit_actions
from fogcontrol.permits.models import (
    COMPLIANCE_RATE_KINDS,
    PERMIT_FEE_KINDS,
    ApplicationDocument,
    ApplicationFixture,
    ApplicationMessage,
    ChangeReason,
    FeeCharge,
    FeeSchedule,
    FeeScheduleLine,
    Permit,
    PermitApplication,
    PermitEvent,
    PermitModification,
    PermitNotice,
    PermitVersion,
    RemodelNotice,
)
from fogcontrol.permits.selectors_l5 import l5_warnings
from fogcontrol.permits.services.applications import APPLICANT_FIELDS, FIXTURE_FIELDS
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice

# One step's verdict in the schema (fogcontrol.core.api.serializers.VerdictSerializer).
VERDICT_SCHEMA = {
    "type": "object",
    "properties": {"allowed": {"type": "boolean"}, "reason": {"type": "string"}},
    "required": ["allowed", "reason"],
}


class EventSerializer(serializers.ModelSerializer):
    class Meta:
        model = PermitEvent
        fields = ["at", "actor_label", "action", "from_status", "to_status", "note"]


class FixtureSerializer(serializers.ModelSerializer):
    class Meta:
        model = ApplicationFixture
        fields = ["id", *FIXTURE_FIELDS]


class DocumentSerializer(serializers.ModelSerializer):
    class Meta:
        model = ApplicationDocument
        fields = ["id", "kind", "original_name", "content_type", "size_bytes", "sha256", "uploaded_at"]


class MessageSerializer(serializers.ModelSerializer):
    class Meta:
        model = ApplicationMessage
        fields = ["id", "kind", "body", "at", "author_label"]


class FeeChargeSerializer(serializers.ModelSerializer):
    establishment_name = serializers.CharField(source="establishment.business_name", read_only=True)
    application_reference = serializers.CharField(
        source="application.reference", read_only=True, default=None
    )
    fee_schedule_effective_from = serializers.DateField(source="fee_schedule.effective_from", read_only=True)

    class Meta:
        model = FeeCharge
        fields = [
            "id",
            "kind",
            "amount",
            "status",
            "description",
            "assessed_on",
            "establishment",
            "establishment_name",
            "application",
            "application_reference",
            "remodel_notice",
            "fee_schedule",
            "fee_schedule_effective_from",
            "paid_amount",
            "paid_on",
            "payment_reference",
            "waiver_reason",
            "settled_at",
            "settled_by_label",
        ]


class FeePaymentInputSerializer(serializers.Serializer):
    """B3: the payment as received: the full amount, the day, the receipt or transaction number."""

    amount = serializers.DecimalField(max_digits=10, decimal_places=2, min_value=0)
    paid_on = serializers.DateField()
    reference = serializers.CharField(max_length=100)


class FeeWaiverInputSerializer(serializers.Serializer):
    """B3: the FOG Manager's reason for waiving the fee."""

    reason = serializers.CharField()


class ApplicationListSerializer(serializers.ModelSerializer):
    establishment_name = serializers.CharField(source="establishment.business_name", read_only=True)
    previous_permit_number = serializers.CharField(
        source="previous_permit.number", read_only=True, default=None, allow_null=True
    )
    permit_number = serializers.CharField(
        source="permit.number", read_only=True, default=None, allow_null=True
    )
    status_display = serializers.CharField(source="get_status_display", read_only=True)

    class Meta:
        model = PermitApplication
        fields = [
            "id",
            "reference",
            "establishment",
            "establishment_name",
            "kind",
            "route",
            "status",
            "status_display",
            "previous_permit",
            "previous_permit_number",
            "permit",
            "permit_number",
            "submitted_at",
            "created_at",
        ]


class L5WarningSerializer(serializers.Serializer):
    provision = serializers.CharField()
    permit = serializers.IntegerField()
    permit_number = serializers.CharField()
    order = serializers.IntegerField()
    order_reference = serializers.CharField()
    revoked_on = serializers.DateField()
    associations = serializers.ListField(child=serializers.CharField())
    text = serializers.CharField()


class ApplicationSerializer(ApplicationListSerializer):
    fixtures = FixtureSerializer(many=True, read_only=True)
    documents = DocumentSerializer(many=True, read_only=True)
    messages = MessageSerializer(many=True, read_only=True)
    events = EventSerializer(many=True, read_only=True)
    fees = FeeChargeSerializer(many=True, read_only=True)
    allowed_actions = serializers.SerializerMethodField(
        help_text="Each step (submit, accept, issue…): whether you may take it now, and if not, why."
    )
    l5_warnings = serializers.SerializerMethodField(
        help_text="L5 (staff only): the revoked permits the application's business is associated with, "
        "each with its order; the application may be denied under L5 (reject with deny_under_l5)."
    )

    class Meta(ApplicationListSerializer.Meta):
        fields = [
            *ApplicationListSerializer.Meta.fields,
            # Optimistic concurrency: sent back in If-Match when changing a draft (core/api/versions.py).
            "version",
            *[name for name in APPLICANT_FIELDS if name != "route"],
            "submitted_by_label",
            "submitted_digest",
            "submitted_copy",
            "accepted_at",
            "inspection_scheduled_for",
            "inspected_on",
            "inspection_passed",
            "inspection_notes",
            "decided_at",
            "decision_reason",
            "fixtures",
            "documents",
            "messages",
            "events",
            "fees",
            "allowed_actions",
            "l5_warnings",
        ]

    @extend_schema_field({"type": "object", "additionalProperties": VERDICT_SCHEMA})
    def get_allowed_actions(self, application) -> dict:
        return actions_data(application_actions(self.context["request"].user, application))

    @extend_schema_field(L5WarningSerializer(many=True))
    def get_l5_warnings(self, application) -> list:
        if not self.context["request"].user.is_program_staff:
            return []
        return [w.as_dict() for w in l5_warnings(application)]


class FixtureInputSerializer(serializers.ModelSerializer):
    class Meta:
        model = ApplicationFixture
        fields = list(FIXTURE_FIELDS)


class ApplicationWriteSerializer(serializers.ModelSerializer):
    """A draft's fields (B3, B4); `fixtures`, when given, replaces the whole list."""

    establishment = ScopedPrimaryKeyRelatedField(
        what="establishment",
        where="/api/v1/establishments/",
        queryset=FoodServiceEstablishment.objects.all(),
    )
    previous_permit = ScopedPrimaryKeyRelatedField(
        what="permit",
        where="/api/v1/permits/",
        queryset=Permit.objects.all(),
        required=False,
        allow_null=True,
    )
    device = ScopedPrimaryKeyRelatedField(
        what="device",
        where="/api/v1/devices/",
        queryset=GreaseControlDevice.objects.all(),
        required=False,
        allow_null=True,
    )
    fixtures = FixtureInputSerializer(many=True, required=False)
    change_reasons = serializers.ListField(
        child=serializers.ChoiceField(choices=ChangeReason.choices), required=False
    )

    class Meta:
        model = PermitApplication
        fields = ["establishment", "kind", "previous_permit", "fixtures", *APPLICANT_FIELDS]

    def get_fields(self):
        fields = super().get_fields()
        if self.instance is not None:
            # The establishment, kind and permit followed are fixed once the draft exists.
            for name in ("establishment", "kind", "previous_permit"):
                fields[name].read_only = True
        return fields


class MessageInputSerializer(serializers.Serializer):
    message = serializers.CharField()


class RespondInputSerializer(serializers.Serializer):
    message = serializers.CharField()
    files = serializers.ListField(child=serializers.FileField(), required=False)


class DocumentInputSerializer(serializers.Serializer):
    file = serializers.FileField()
    kind = serializers.ChoiceField(
        choices=ApplicationDocument.Kind.choices, default=ApplicationDocument.Kind.OTHER
    )


class ScheduleInspectionSerializer(serializers.Serializer):
    scheduled_for = serializers.DateTimeField()


class InspectionResultSerializer(serializers.Serializer):
    inspected_on = serializers.DateField()
    passed = serializers.BooleanField()
    notes = serializers.CharField(required=False, allow_blank=True, default="")


class ReasonsSerializer(serializers.Serializer):
    reasons = serializers.CharField()


class RejectSerializer(ReasonsSerializer):
    deny_under_l5 = serializers.BooleanField(
        default=False,
        help_text="L5: deny because the application is associated with a revoked permit (see l5_warnings).",
    )


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="")


class IssueSerializer(serializers.Serializer):
    """B2 terms; each defaults to the application's device and the permit it follows."""

    issued_on = serializers.DateField(required=False)
    device_kind = serializers.ChoiceField(
        choices=Permit._meta.get_field("device_kind").choices, required=False
    )
    device_capacity_gallons = serializers.IntegerField(required=False, min_value=1)
    device_rated_flow_gpm = serializers.IntegerField(required=False, min_value=1)
    service_frequency_days = serializers.IntegerField(required=False)
    conditions = serializers.CharField(required=False, allow_blank=True)
    device_condition = serializers.CharField(
        required=False, allow_blank=True,
        help_text="A4, A5: required when the sizing check finds the device wanting (see the sizing endpoint).",
    )  # fmt: skip
    device_compliance_date = serializers.DateField(
        required=False,
        allow_null=True,
        help_text="A4, A5: the date the device must comply by; after the day of issue.",
    )


class PermitVersionSerializer(serializers.ModelSerializer):
    class Meta:
        model = PermitVersion
        fields = [
            "number",
            "reason",
            "effective_from",
            "term_start",
            "valid_until",
            "business_name",
            "licence_number",
            "licence_expires_on",
            "site_address",
            "device_identifier",
            "device_kind",
            "device_capacity_gallons",
            "device_rated_flow_gpm",
            "service_frequency_days",
            "conditions",
            "compliance_schedule",
            "device_findings",
            "device_condition",
            "device_compliance_date",
            "contacts",
            "application",
            "modification",
            "issued_at",
            "issued_by_label",
        ]


class ModificationSerializer(serializers.ModelSerializer):
    permit_number = serializers.CharField(source="permit.number", read_only=True)

    class Meta:
        model = PermitModification
        fields = [
            "id",
            "permit",
            "permit_number",
            "changes",
            "previous_values",
            "reason",
            "compliance_schedule",
            "notice_date",
            "earliest_effective_on",
            "effective_on",
            "status",
            "explanation",
            "proposed_at",
            "proposed_by_label",
            "withdrawn_reason",
            "backdating_reason",
            "mailing_record",
        ]


class PermitListSerializer(RowsSerializerMixin, serializers.ModelSerializer):
    establishment_name = serializers.CharField(source="establishment.business_name", read_only=True)
    device_identifier = serializers.CharField(source="device.identifier", read_only=True, default=None)
    status_display = serializers.CharField(source="get_status_display", read_only=True)

    class Meta:
        model = Permit
        fields = [
            "id",
            "number",
            "establishment",
            "establishment_name",
            "status",
            "status_display",
            "version_number",
            "first_issued_on",
            "term_start",
            "valid_until",
            "device",
            "device_identifier",
            "device_kind",
            "device_capacity_gallons",
            "device_rated_flow_gpm",
            "service_frequency_days",
            "superseded_by",
        ]


class RenewalSerializer(PermitListSerializer):
    """B6: `renew_by` is the licence's expiry, or the permit's last day when that comes first."""

    renewal_open = serializers.BooleanField(read_only=True)
    renew_by = serializers.DateField(read_only=True)
    licence_number = serializers.CharField(source="establishment.licence_number", read_only=True)
    licence_expires_on = serializers.DateField(source="establishment.licence_expires_on", read_only=True)

    class Meta(PermitListSerializer.Meta):
        fields = [
            *PermitListSerializer.Meta.fields,
            "renewal_open",
            "renew_by",
            "licence_number",
            "licence_expires_on",
        ]


class PermitSerializer(PermitListSerializer):
    versions = PermitVersionSerializer(many=True, read_only=True)
    modifications = ModificationSerializer(many=True, read_only=True)
    events = EventSerializer(many=True, read_only=True)
    allowed_actions = serializers.SerializerMethodField(
        help_text="Each step (renew, change, modify, suspend, reinstate, revoke): whether you may take it "
        "now, and if not, why."
    )

    class Meta(PermitListSerializer.Meta):
        fields = [
            *PermitListSerializer.Meta.fields,
            "status_reason",
            "versions",
            "modifications",
            "events",
            "allowed_actions",
        ]

    @extend_schema_field({"type": "object", "additionalProperties": VERDICT_SCHEMA})
    def get_allowed_actions(self, permit) -> dict:
        return actions_data(
            permit_actions(
                self.context["request"].user,
                permit,
                open_application=selectors.open_application_for(permit.establishment),
            )
        )


class ModifyInputSerializer(serializers.Serializer):
    """B7: `changes` holds the new `conditions`. The service frequency is the device's: propose it
    with POST /api/v1/devices/{id}/frequency/ (E1, A2); here it is refused (400)."""

    changes = serializers.DictField()
    reason = serializers.CharField()
    notice_date = serializers.DateField(required=False)
    effective_on = serializers.DateField(required=False)
    compliance_schedule = serializers.CharField(required=False, allow_blank=True, default="")
    backdating_reason = serializers.CharField(
        required=False, allow_blank=True, default="", help_text="B7: why a notice is dated before today."
    )
    mailing_record = serializers.CharField(
        required=False, allow_blank=True, default="",
        help_text="B7: for a notice dated before today, the certified mail article number and the date mailed.",
    )  # fmt: skip


class ChangeInputSerializer(serializers.Serializer):
    """B8: what changed."""

    change_reasons = serializers.ListField(child=serializers.ChoiceField(choices=ChangeReason.choices))
    change_description = serializers.CharField(required=False, allow_blank=True, default="")


class NoticeSerializer(serializers.ModelSerializer):
    establishment_name = serializers.CharField(
        source="establishment.business_name", read_only=True, default=None
    )

    class Meta:
        model = PermitNotice
        fields = [
            "id",
            "kind",
            "establishment",
            "establishment_name",
            "party",
            "device",
            "permit",
            "application",
            "modification",
            "subject",
            "body",
            "addressee",
            "sent_on",
            "method",
            "email_to",
            "email_sent_at",
            "email_error",
            "mailing_record",
        ]


class RemodelNoticeSerializer(serializers.ModelSerializer):
    establishment_name = serializers.CharField(source="establishment.business_name", read_only=True)
    has_plans = serializers.SerializerMethodField()

    class Meta:
        model = RemodelNotice
        fields = [
            "id",
            "reference",
            "establishment",
            "establishment_name",
            "kind",
            "description",
            "planned_start",
            "filed_on",
            "latest_notice_on",
            "late",
            "explanation",
            "plan_review",
            "plan_review_notes",
            "plans_sha256",
            "has_plans",
            "decided_at",
        ]

    def get_has_plans(self, notice) -> bool:
        return bool(notice.plans)


class RemodelNoticeInputSerializer(serializers.Serializer):
    establishment = ScopedPrimaryKeyRelatedField(
        what="establishment",
        where="/api/v1/establishments/",
        queryset=FoodServiceEstablishment.objects.all(),
    )
    kind = serializers.ChoiceField(choices=RemodelNotice.Kind.choices)
    description = serializers.CharField()
    planned_start = serializers.DateField()
    filed_on = serializers.DateField(required=False)


class PlansInputSerializer(serializers.Serializer):
    plans = serializers.FileField()


class PlanDecisionSerializer(serializers.Serializer):
    approved = serializers.BooleanField()
    notes = serializers.CharField(required=False, allow_blank=True, default="")


class FeeLineSerializer(serializers.ModelSerializer):
    class Meta:
        model = FeeScheduleLine
        fields = ["kind", "amount"]


class FeeScheduleSerializer(serializers.ModelSerializer):
    lines = FeeLineSerializer(many=True, read_only=True)

    class Meta:
        model = FeeSchedule
        fields = ["id", "effective_from", "label", "resolution", "notes", "lines", "created_at"]


class FeeScheduleInputSerializer(serializers.Serializer):
    effective_from = serializers.DateField()
    label = serializers.CharField(max_length=200)
    resolution = serializers.CharField(required=False, allow_blank=True, default="")
    notes = serializers.CharField(required=False, allow_blank=True, default="")
    amounts = serializers.DictField(
        child=serializers.DecimalField(max_digits=10, decimal_places=2, min_value=0),
        help_text=(
            f"One amount per permit fee: {', '.join(k.value for k in PERMIT_FEE_KINDS)}; optionally "
            f"the D6 compliance rates: {', '.join(k.value for k in COMPLIANCE_RATE_KINDS)}."
        ),
    )


class NoncompliantSerializer(serializers.Serializer):
    """B1: an active FSE with no permit in force."""

    id = serializers.IntegerField()
    business_name = serializers.CharField()
    licence_number = serializers.CharField()
    site_address = serializers.CharField()
    last_permit_number = serializers.CharField(allow_null=True)
    last_permit_status = serializers.CharField(allow_null=True)
    last_valid_until = serializers.DateField(allow_null=True)
    open_application = serializers.CharField(allow_null=True)
