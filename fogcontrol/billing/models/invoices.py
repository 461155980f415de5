"""Invoices (notices of amounts due, Q1, P8, N1), their delivery, and liens (P9).

An invoice bills charges of one kind to one debtor; each line is a charge citing its provision.
Its dates come from ``rules/billing.py`` and never change. What it still owes is its total less
what has been allocated to it (payments, write-offs, a cancellation), each an ``Allocation``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from fogcontrol.billing.models.accounts import MONEY, Debtor, InvoiceKind
from fogcontrol.billing.querysets import InvoiceQuerySet, StaffRecordQuerySet


class Invoice(models.Model):
    """A notice of amounts due: its lines, notice date, due date and delinquency date."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        PAID = "paid", _("Paid")
        CANCELLED = "cancelled", _("Cancelled")
        WRITTEN_OFF = "written_off", _("Written off")

    debtor = models.ForeignKey(Debtor, on_delete=models.PROTECT, related_name="invoices")
    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="billing_invoices",
    )
    kind = models.CharField(max_length=2, choices=InvoiceKind.choices)
    penalty = models.BooleanField(default=False, help_text="Penalty monies (P12).")
    total = models.DecimalField(**MONEY, help_text="The sum of its lines, which never change.")
    notice_date = models.DateField(db_index=True)
    due_on = models.DateField()
    last_day_to_pay = models.DateField()
    delinquent_from = models.DateField(db_index=True)
    lien_eligible_from = models.DateField(null=True, blank=True)
    explanation = models.JSONField(default=dict, help_text="How the dates were counted.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True)
    delinquent_on = models.DateField(
        null=True, blank=True, db_index=True, help_text="The day the nightly pass marked it delinquent."
    )
    settled_on = models.DateField(null=True, blank=True)
    cancel_reason = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_by_label = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = InvoiceQuerySet.as_manager()

    class Meta:
        ordering = ["-notice_date", "-pk"]
        indexes = [models.Index(fields=["status", "delinquent_from"], name="invoice_open_due")]

    def __str__(self) -> str:
        return f"{self.number} ({self.kind}) ${self.total}"

    @property
    def number(self) -> str:
        return f"INV-{self.pk:06d}" if self.pk else "INV-(new)"


class InvoiceDelivery(models.Model):
    """How and when an invoice was sent (by email or post)."""

    class Method(models.TextChoices):
        EMAIL = "email", _("Email")
        POST = "post", _("Post")
        HAND = "hand", _("Handed over")

    invoice = models.ForeignKey(Invoice, on_delete=models.PROTECT, related_name="deliveries")
    method = models.CharField(max_length=8, choices=Method.choices)
    sent_on = models.DateField()
    sent_to = models.CharField(max_length=300, help_text="The email address or postal address.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_by_label = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = StaffRecordQuerySet.as_manager()

    class Meta:
        ordering = ["sent_on", "pk"]
        verbose_name_plural = "invoice deliveries"

    def __str__(self) -> str:
        return f"INV-{self.invoice_id:06d} by {self.method} on {self.sent_on}"


class Lien(models.Model):
    """P9: a penalty delinquent 60 days, on the lien list with the parcel and its owner of record;
    the County Recorder's recording and release, with their dates and document numbers.

    Two-person rule (issue #15): one authorised person asks for the lien to be recorded, a second,
    different one approves it (or refuses it with the reason) before it is taken to the County
    Recorder; only an approved lien is recorded as in force."""

    class Status(models.TextChoices):
        LISTED = "listed", _("Eligible: ask for approval to record")
        REQUESTED = "requested", _("Waiting for a second approval")
        APPROVED = "approved", _("Approved: record with the County Recorder")
        REFUSED = "refused", _("Refused: not to be recorded")
        RECORDED = "recorded", _("Recorded")
        RELEASED = "released", _("Released")

    invoice = models.OneToOneField(Invoice, on_delete=models.PROTECT, related_name="lien")
    debtor = models.ForeignKey(Debtor, on_delete=models.PROTECT, related_name="liens")
    apn = models.CharField("assessor's parcel number", max_length=32, blank=True)
    situs_address = models.CharField(max_length=200, blank=True)
    owner_of_record = models.CharField(max_length=200, blank=True)
    amount = models.DecimalField(**MONEY, help_text="The amount delinquent when it was listed.")
    eligible_on = models.DateField()
    listed_on = models.DateField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.LISTED, db_index=True)
    recorded_on = models.DateField(null=True, blank=True)
    recording_number = models.CharField(max_length=64, blank=True)
    released_on = models.DateField(null=True, blank=True)
    release_number = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The two-person rule: who asked, who decided.
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    requested_by_label = models.CharField(max_length=150, blank=True)
    requested_at = models.DateTimeField(null=True, blank=True)
    request_note = models.TextField(blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_by_label = models.CharField(max_length=150, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_note = models.TextField(blank=True)

    objects = StaffRecordQuerySet.as_manager()

    class Meta:
        ordering = ["eligible_on", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=("listed", "requested", "approved", "refused"))
                | Q(recorded_on__isnull=False),
                name="lien_recorded_has_date",
            ),
        ]

    def __str__(self) -> str:
        return f"Lien on {self.apn or 'no parcel'} for INV-{self.invoice_id:06d}"
