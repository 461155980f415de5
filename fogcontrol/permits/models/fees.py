"""The Town's fee schedule and the fees owed on permit applications (B3, B6, B8, G2, Q1).

Fees are set by resolution of the Town Council, so the schedule is data: each version applies from
its effective date until the next. A fee owed is a `FeeCharge`, a clean record that billing picks
up (invoice, notice date, payment, Q1 delinquency); this app only records that the fee is owed.
"""

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from fogcontrol.permits.querysets import FeeChargeQuerySet, FeeScheduleQuerySet


class FeeKind(models.TextChoices):
    NEW_PERMIT = "new_permit", _("FOG permit application (B3)")
    RENEWAL = "renewal", _("FOG permit annual renewal (B6)")
    REISSUE = "reissue", _("New permit on change of ownership, food types or operations (B8)")
    PLAN_REVIEW = "plan_review", _("Expansion or remodel plan review (G2)")
    # D6 Specialty FOG Compliance Charges: rates, priced per unit (hour, sample, test) and charged
    # by the inspections app (`ComplianceCharge`). Optional in a schedule: a schedule without them
    # prices no D6 charge, and says so.
    FOLLOW_UP_INSPECTION = "follow_up_inspection", _("Follow-up inspection, per hour (D6)")
    SAMPLING = "sampling", _("Sampling, per sample (D6)")
    LAB_ANALYSIS = "lab_analysis", _("Lab analysis, per test (D6)")
    STAFF_TIME = "staff_time", _("Staff time, per hour (D6)")
    # Billed by billing (issue #14): a schedule may leave them unpriced (the Town charges none yet).
    RE_INSPECTION = "re_inspection", _("Re-inspection (D8, Q1)")
    DISCONNECTION = "disconnection", _("Sewer service disconnection (O2)")
    REINSTATEMENT = "reinstatement", _("Sewer service reinstatement (O2)")


# The permit fees every schedule must price (B3, B6, B8, G2); the D6 rates are optional.
PERMIT_FEE_KINDS = (FeeKind.NEW_PERMIT, FeeKind.RENEWAL, FeeKind.REISSUE, FeeKind.PLAN_REVIEW)
COMPLIANCE_RATE_KINDS = (
    FeeKind.FOLLOW_UP_INSPECTION,
    FeeKind.SAMPLING,
    FeeKind.LAB_ANALYSIS,
    FeeKind.STAFF_TIME,
)


class FeeSchedule(models.Model):
    """One version of the Town's permit fees, in force from `effective_from` until the next version."""

    effective_from = models.DateField(unique=True)
    label = models.CharField(max_length=200)
    resolution = models.CharField(
        "Council resolution", max_length=100, blank=True, help_text="The resolution that set these fees."
    )
    notes = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = FeeScheduleQuerySet.as_manager()

    class Meta:
        ordering = ["-effective_from"]

    def __str__(self) -> str:
        return f"{self.label} (from {self.effective_from:%Y-%m-%d})"


class FeeScheduleLine(models.Model):
    """The amount of one kind of fee in one version of the schedule."""

    schedule = models.ForeignKey(FeeSchedule, on_delete=models.CASCADE, related_name="lines")
    kind = models.CharField(max_length=32, choices=FeeKind.choices)
    amount = models.DecimalField(max_digits=10, decimal_places=2, validators=[MinValueValidator(0)])

    class Meta:
        ordering = ["schedule", "kind"]
        constraints = [models.UniqueConstraint(fields=["schedule", "kind"], name="fee_line_one_per_kind")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: ${self.amount}"


class FeeCharge(models.Model):
    """A fee the Town is owed (B3 "with the applicable fee"; G2 plan review fee).

    Recorded when the application (or plan review request) is submitted, at the amount of the fee
    schedule version in force that day. Until billing exists, staff record the payment here (amount,
    date, reference), or the FOG Manager waives the fee with a reason; a permit is not issued while
    its application fee is owed (B3). Billing will take it from here: the notice date and Q1
    delinquency live with the invoice.
    """

    class Status(models.TextChoices):
        OWED = "owed", _("Owed")
        INVOICED = "invoiced", _("Invoiced")
        PAID = "paid", _("Paid")
        WAIVED = "waived", _("Waived")
        CANCELLED = "cancelled", _("Cancelled")

    kind = models.CharField(max_length=32, choices=FeeKind.choices)
    amount = models.DecimalField(max_digits=10, decimal_places=2, validators=[MinValueValidator(0)])
    fee_schedule = models.ForeignKey(FeeSchedule, on_delete=models.PROTECT, related_name="charges")
    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment", on_delete=models.PROTECT, related_name="fee_charges"
    )
    application = models.ForeignKey(
        "permits.PermitApplication", null=True, blank=True, on_delete=models.PROTECT, related_name="fees"
    )
    remodel_notice = models.ForeignKey(
        "permits.RemodelNotice", null=True, blank=True, on_delete=models.PROTECT, related_name="fees"
    )
    description = models.CharField(max_length=300)
    assessed_on = models.DateField(help_text="The day the fee became owed.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OWED, db_index=True)
    # The payment, as staff record it (receipt, cheque or transaction number in `payment_reference`).
    paid_amount = models.DecimalField(
        max_digits=10, decimal_places=2, null=True, blank=True, validators=[MinValueValidator(0)]
    )
    paid_on = models.DateField(null=True, blank=True)
    payment_reference = models.CharField(max_length=100, blank=True)
    # B3: a fee not paid is waived only by the FOG Manager, with the reason.
    waiver_reason = models.TextField(blank=True)
    settled_at = models.DateTimeField(null=True, blank=True)
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    settled_by_label = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = FeeChargeQuerySet.as_manager()

    class Meta:
        ordering = ["-assessed_on", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ${self.amount} ({self.get_status_display()})"

    @property
    def is_outstanding(self) -> bool:
        """Still owed (B3): not paid, waived or cancelled, and more than nothing."""
        return self.status in (self.Status.OWED, self.Status.INVOICED) and self.amount > 0
