"""Billing in the API: invoices, payments, statements, licence holds (Q2), liens (P9)."""

from rest_framework import serializers

from fogcontrol.billing.models import Charge, Debtor, Invoice, Lien, Payment
from fogcontrol.core.api.fields import RecordIdField, ScopedPrimaryKeyRelatedField

MONEY = {"max_digits": 14, "decimal_places": 2}


class LineSerializer(serializers.ModelSerializer):
    class Meta:
        model = Charge
        fields = ["id", "description", "provision", "amount", "assessed_on", "source", "source_id", "penalty"]
        read_only_fields = fields


class InvoiceSerializer(serializers.ModelSerializer):
    number = serializers.CharField(read_only=True)
    debtor_name = serializers.CharField(source="debtor.name", read_only=True)
    allocated = serializers.DecimalField(**MONEY, read_only=True)
    outstanding = serializers.DecimalField(**MONEY, read_only=True)
    delinquent = serializers.SerializerMethodField()
    lines = LineSerializer(many=True, read_only=True)

    class Meta:
        model = Invoice
        fields = [
            "id", "number", "debtor", "debtor_name", "establishment", "kind", "penalty", "total", "allocated",
            "outstanding", "notice_date", "due_on", "last_day_to_pay", "delinquent_from", "lien_eligible_from",
            "status", "delinquent", "delinquent_on", "settled_on", "cancel_reason", "lines", "explanation",
        ]  # fmt: skip
        read_only_fields = fields

    def get_delinquent(self, invoice) -> bool:
        return invoice.delinquent_on is not None and invoice.status == Invoice.Status.OPEN


class InvoiceIssueSerializer(serializers.Serializer):
    debtor = ScopedPrimaryKeyRelatedField(
        queryset=Debtor.objects.all(), what="account", where="/api/v1/accounts/"
    )
    notice_date = serializers.DateField(required=False)
    charges = serializers.ListField(child=RecordIdField(), required=False)


class InvoiceCancelSerializer(serializers.Serializer):
    reason = serializers.CharField()


class AllocationSerializer(serializers.Serializer):
    invoice = serializers.IntegerField(source="invoice_id")
    amount = serializers.DecimalField(**MONEY)


class PaymentSerializer(serializers.ModelSerializer):
    receipt_number = serializers.CharField(read_only=True)
    unallocated = serializers.DecimalField(**MONEY, read_only=True)
    allocations = AllocationSerializer(many=True, read_only=True)

    class Meta:
        model = Payment
        fields = [
            "id",
            "receipt_number",
            "debtor",
            "received_on",
            "amount",
            "method",
            "reference",
            "unallocated",
            "allocations",
        ]
        read_only_fields = fields


class PaymentInputSerializer(serializers.Serializer):
    debtor = ScopedPrimaryKeyRelatedField(
        queryset=Debtor.objects.all(), what="account", where="/api/v1/accounts/"
    )
    amount = serializers.DecimalField(max_digits=12, decimal_places=2, min_value=0)
    method = serializers.ChoiceField(choices=Payment.Method.choices)
    reference = serializers.CharField(required=False, allow_blank=True, default="")
    received_on = serializers.DateField(required=False)
    notes = serializers.CharField(required=False, allow_blank=True, default="")
    allocations = serializers.DictField(
        child=serializers.DecimalField(max_digits=12, decimal_places=2, min_value=0),
        required=False,
        help_text="{invoice id: amount}; without it, the oldest open invoice first.",
    )


class AccountSerializer(serializers.ModelSerializer):
    name = serializers.CharField(read_only=True)
    balance = serializers.DecimalField(**MONEY, read_only=True)
    credit = serializers.DecimalField(**MONEY, read_only=True)
    uninvoiced = serializers.DecimalField(**MONEY, read_only=True)

    class Meta:
        model = Debtor
        fields = ["id", "name", "establishment", "party", "balance", "credit", "uninvoiced"]
        read_only_fields = fields


class StatementLineSerializer(serializers.Serializer):
    posted_on = serializers.DateField(source="entry.posted_on")
    kind = serializers.CharField(source="entry.kind")
    description = serializers.CharField(source="entry.description")
    reason = serializers.CharField(source="entry.reason")
    invoice = serializers.IntegerField(source="entry.invoice_id", allow_null=True)
    payment = serializers.IntegerField(source="entry.payment_id", allow_null=True)
    amount = serializers.DecimalField(source="change", **MONEY)
    balance = serializers.DecimalField(**MONEY)


class StatementSerializer(serializers.Serializer):
    account = serializers.IntegerField(source="debtor.pk")
    name = serializers.CharField(source="debtor.name")
    start = serializers.DateField(allow_null=True)
    end = serializers.DateField(allow_null=True)
    opening = serializers.DecimalField(**MONEY)
    lines = StatementLineSerializer(many=True)
    closing = serializers.DecimalField(**MONEY)


class StatementQuerySerializer(serializers.Serializer):
    start = serializers.DateField(required=False)
    end = serializers.DateField(required=False)


class LicenceHoldSerializer(serializers.Serializer):
    licence = serializers.CharField(source="licence_number")
    business_name = serializers.CharField()
    held = serializers.BooleanField(default=True)
    amount = serializers.DecimalField(**MONEY)
    since = serializers.DateField()
    invoices = serializers.ListField(child=serializers.CharField())


class LicenceAnswerSerializer(serializers.Serializer):
    """The licence office's answer for one licence (Q2)."""

    licence = serializers.CharField()
    held = serializers.BooleanField()
    amount = serializers.DecimalField(**MONEY)
    since = serializers.DateField(allow_null=True)


class LienSerializer(serializers.ModelSerializer):
    invoice_number = serializers.CharField(source="invoice.number", read_only=True)

    class Meta:
        model = Lien
        fields = [
            "id", "invoice", "invoice_number", "debtor", "apn", "situs_address", "owner_of_record", "amount",
            "eligible_on", "listed_on", "status", "recorded_on", "recording_number", "released_on", "release_number",
            "requested_by", "requested_at", "request_note", "decided_by", "decided_at", "decision_note",
        ]  # fmt: skip
        read_only_fields = fields

    requested_by = serializers.CharField(source="requested_by_label", read_only=True)
    decided_by = serializers.CharField(source="decided_by_label", read_only=True)


class LienRequestSerializer(serializers.Serializer):
    note = serializers.CharField(required=False, allow_blank=True, default="")


class LienApproveSerializer(serializers.Serializer):
    note = serializers.CharField(required=False, allow_blank=True, default="")


class LienRefuseSerializer(serializers.Serializer):
    note = serializers.CharField(help_text="Why the lien is refused: kept with it.")


class LienRecordSerializer(serializers.Serializer):
    recorded_on = serializers.DateField()
    document_number = serializers.CharField(max_length=64, help_text="The County Recorder's document number.")
