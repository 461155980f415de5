"""Payments, their allocation to invoices, refunds and write-offs (Q1, P8, N1, P12).

A payment is received once (cash, cheque, card or bank transfer) and allocated to invoices,
oldest first or as chosen; what is not allocated is the debtor's credit. A refund pays credit
back; a write-off is requested by one authorised person and approved by another.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from fogcontrol.billing.models.accounts import MONEY, Debtor
from fogcontrol.billing.models.invoices import Invoice
from fogcontrol.billing.querysets import DebtorRecordQuerySet, StaffRecordQuerySet


class Payment(models.Model):
    """Money received from a debtor, with its method and reference (its receipt)."""

    class Method(models.TextChoices):
        CASH = "cash", _("Cash")
        CHEQUE = "cheque", _("Cheque")
        CARD = "card", _("Card")
        TRANSFER = "transfer", _("Bank transfer")

    debtor = models.ForeignKey(Debtor, on_delete=models.PROTECT, related_name="payments")
    received_on = models.DateField(db_index=True)
    amount = models.DecimalField(**MONEY, validators=[MinValueValidator(Decimal("0.01"))])
    method = models.CharField(max_length=16, choices=Method.choices)
    reference = models.CharField(
        max_length=100, blank=True, help_text="Cheque number, card reference or transfer reference."
    )
    notes = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_by_label = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = DebtorRecordQuerySet.as_manager()

    class Meta:
        ordering = ["-received_on", "-pk"]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="payment_amount_positive")]

    def __str__(self) -> str:
        return f"{self.receipt_number} ${self.amount} ({self.get_method_display()})"

    @property
    def receipt_number(self) -> str:
        return f"R-{self.pk:06d}" if self.pk else "R-(new)"


class WriteOff(models.Model):
    """An amount of an invoice written off: requested with a reason, approved by a second, different
    authorised person (two-person rule). Only an approved write-off reaches the ledger."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Awaiting approval")
        APPROVED = "approved", _("Approved")
        REFUSED = "refused", _("Refused")

    invoice = models.ForeignKey(Invoice, on_delete=models.PROTECT, related_name="write_offs")
    amount = models.DecimalField(**MONEY, validators=[MinValueValidator(Decimal("0.01"))])
    reason = models.TextField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING, db_index=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    requested_by_label = models.CharField(max_length=150, blank=True)
    requested_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_by_label = models.CharField(max_length=150, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_note = models.TextField(blank=True)

    objects = StaffRecordQuerySet.as_manager()

    class Meta:
        ordering = ["-requested_at", "-pk"]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="write_off_positive")]

    def __str__(self) -> str:
        return f"Write-off of ${self.amount} on INV-{self.invoice_id:06d} ({self.status})"


class Allocation(models.Model):
    """An amount applied to one invoice: from a payment, a write-off or the invoice's cancellation.
    The allocations of an invoice never add up to more than its total."""

    class Kind(models.TextChoices):
        PAYMENT = "payment", _("Payment")
        WRITE_OFF = "write_off", _("Write-off")
        CANCELLATION = "cancellation", _("Cancellation")

    invoice = models.ForeignKey(Invoice, on_delete=models.PROTECT, related_name="allocations")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    payment = models.ForeignKey(
        Payment, null=True, blank=True, on_delete=models.PROTECT, related_name="allocations"
    )
    write_off = models.ForeignKey(
        WriteOff, null=True, blank=True, on_delete=models.PROTECT, related_name="allocations"
    )
    amount = models.DecimalField(**MONEY)
    allocated_on = models.DateField()
    created_at = models.DateTimeField(auto_now_add=True)

    objects = StaffRecordQuerySet.as_manager()

    class Meta:
        ordering = ["allocated_on", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="allocation_positive"),
            models.CheckConstraint(
                condition=Q(kind="payment", payment__isnull=False)
                | Q(kind="write_off", write_off__isnull=False)
                | Q(kind="cancellation"),
                name="allocation_names_its_source",
            ),
        ]

    def __str__(self) -> str:
        return f"${self.amount} to INV-{self.invoice_id:06d} ({self.kind})"


class Refund(models.Model):
    """Credit paid back to a debtor by an authorised person, with the reason."""

    debtor = models.ForeignKey(Debtor, on_delete=models.PROTECT, related_name="refunds")
    amount = models.DecimalField(**MONEY, validators=[MinValueValidator(Decimal("0.01"))])
    refunded_on = models.DateField()
    method = models.CharField(max_length=16, choices=Payment.Method.choices)
    reference = models.CharField(max_length=100, blank=True)
    reason = models.TextField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_by_label = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = DebtorRecordQuerySet.as_manager()

    class Meta:
        ordering = ["-refunded_on", "-pk"]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="refund_positive")]

    def __str__(self) -> str:
        return f"Refund of ${self.amount} on {self.refunded_on}"
