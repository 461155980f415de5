"""Inspections: the Town's visit to an FSE (D1, D4, D8), its device assessments, the records,
BMPs and prohibited discharges checked on site, the photos and both signatures. A visit is
scheduled as a draft, saved as it goes, and completed once: completing opens its findings
(fogcontrol.findings) and the E6 requirement of a device over 25% (servicing)."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.files import RandomName
from fogcontrol.inspections.querysets import (
    ComplianceChargeQuerySet,
    DeviceAssessmentQuerySet,
    InspectionPhotoQuerySet,
    InspectionQuerySet,
)
from fogcontrol.permits.models import FeeSchedule
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogcontrol.servicing.models import SludgeReading


class Inspection(models.Model):
    """One visit (D1, D8): routine, follow-up or complaint-driven. ``answers`` holds the site
    checklist (records, BMPs, prohibited discharges: item -> pass / fail / na, the items of
    ``fogcontrol.rules.inspections.CHECKLIST``); ``corrected_items`` the failed items corrected on
    the spot; ``closes_findings`` the open findings a follow-up found corrected."""

    class Kind(models.TextChoices):
        ROUTINE = "routine", _("Routine (annual, D8)")
        FOLLOW_UP = "follow_up", _("Follow-up")
        COMPLAINT = "complaint", _("Complaint")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        COMPLETED = "completed", _("Completed")
        CANCELLED = "cancelled", _("Cancelled")

    class Entry(models.TextChoices):
        GRANTED = "granted", _("Entry granted")
        DELAYED = "delayed", _("Entry delayed (D1)")
        REFUSED = "refused", _("Entry refused (D1)")

    establishment = models.ForeignKey(
        FoodServiceEstablishment, on_delete=models.PROTECT, related_name="inspections"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.ROUTINE)
    follow_up_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="follow_ups"
    )
    complaint = models.TextField(blank=True, help_text="What the complaint said, for a complaint visit.")
    scheduled_on = models.DateField(db_index=True)
    inspector = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="inspections"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    visited_on = models.DateField(
        null=True, blank=True, db_index=True, help_text="The day of the visit in the Town's time zone (D8)."
    )
    outside_hours = models.BooleanField(default=False, help_text="D1: the visit was outside business hours.")
    hours_explanation = models.JSONField(default=dict, blank=True)
    entry = models.CharField(max_length=16, choices=Entry.choices, default=Entry.GRANTED)
    entry_delay_minutes = models.PositiveIntegerField(null=True, blank=True)
    entry_note = models.TextField(blank=True)
    answers = models.JSONField(default=dict, blank=True)
    item_notes = models.JSONField(default=dict, blank=True)
    corrected_items = models.JSONField(default=list, blank=True)
    closes_findings = models.JSONField(default=list, blank=True)
    notes = models.TextField(blank=True)
    person_met = models.CharField("FSE person on site", max_length=150, blank=True)
    inspector_signed_name = models.CharField(max_length=150, blank=True)
    inspector_signature = models.FileField(upload_to=RandomName("inspections/signatures"), blank=True)
    fse_signed_name = models.CharField("FSE person's typed name", max_length=150, blank=True)
    fse_signature = models.FileField(upload_to=RandomName("inspections/signatures"), blank=True)
    fse_declined_to_sign = models.BooleanField(default=False)
    idempotency_key = models.CharField(
        max_length=200,
        unique=True,
        null=True,
        blank=True,
        help_text="The key of the submit that completed it.",
    )
    completed_at = models.DateTimeField(null=True, blank=True)
    completed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    completed_by_label = models.CharField(max_length=150, blank=True)
    cancel_reason = models.TextField(blank=True)
    created_by_label = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = InspectionQuerySet.as_manager()

    class Meta:
        ordering = ["-scheduled_on", "-pk"]
        indexes = [
            models.Index(fields=["establishment", "status", "-scheduled_on"], name="inspection_est_status"),
            models.Index(fields=["inspector", "scheduled_on"], name="inspection_inspector_day"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} inspection {self.pk} of {self.establishment_id} on {self.scheduled_on}"

    @property
    def is_draft(self) -> bool:
        return self.status == self.Status.DRAFT


class DeviceAssessment(models.Model):
    """One device as found (D4, D8, E3): FOG and solids depth with the 25% result, the structural
    items (``answers``: seams and pipes, baffles, tees or flow-regulating device, covers and
    access, caked-on FOG) and a condition rating. Completing the inspection records the depths as
    an inspection reading (servicing), which opens the E6 requirement when over 25%."""

    class Condition(models.TextChoices):
        GOOD = "good", _("Good")
        FAIR = "fair", _("Fair")
        POOR = "poor", _("Poor")
        FAILED = "failed", _("Failed")

    inspection = models.ForeignKey(Inspection, on_delete=models.CASCADE, related_name="assessments")
    device = models.ForeignKey(GreaseControlDevice, on_delete=models.PROTECT, related_name="assessments")
    fog_depth_in = models.DecimalField(max_digits=6, decimal_places=2, null=True, blank=True)
    solids_depth_in = models.DecimalField(max_digits=6, decimal_places=2, null=True, blank=True)
    fill_ratio = models.DecimalField(max_digits=7, decimal_places=4, null=True, blank=True)
    over_limit = models.BooleanField(default=False)
    answers = models.JSONField(default=dict, blank=True)
    condition = models.CharField(max_length=8, choices=Condition.choices, blank=True)
    notes = models.TextField(blank=True)
    reading = models.ForeignKey(
        SludgeReading, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    objects = DeviceAssessmentQuerySet.as_manager()

    class Meta:
        ordering = ["device__identifier", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["inspection", "device"], name="one_assessment_per_device")
        ]

    def __str__(self) -> str:
        return f"Device {self.device_id} at inspection {self.inspection_id}"


class InspectionPhoto(models.Model):
    """A photo of an item (private: re-encoded, size-limited, stored under a random name, served
    only through a view that checks access to its inspection)."""

    inspection = models.ForeignKey(Inspection, on_delete=models.CASCADE, related_name="photos")
    item = models.CharField(max_length=48, blank=True, help_text="The checklist item it shows.")
    device = models.ForeignKey(
        GreaseControlDevice, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    caption = models.CharField(max_length=200, blank=True)
    file = models.FileField(upload_to=RandomName("inspections/photos"))
    content_type = models.CharField(max_length=40)
    size_bytes = models.PositiveIntegerField()
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    uploaded_by_label = models.CharField(max_length=150, blank=True)
    uploaded_at = models.DateTimeField(auto_now_add=True)

    objects = InspectionPhotoQuerySet.as_manager()

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"Photo {self.pk} of inspection {self.inspection_id}"


class ComplianceCharge(models.Model):
    """A Specialty FOG Compliance Charge (D6): the actual cost of a follow-up inspection, sampling,
    lab analysis or staff time caused by an FSE's non-compliance, recorded per case and priced from
    the Town's fee schedule in force on ``incurred_on`` (``permits.FeeSchedule``, the D6 rate
    kinds). The FSE owes it; billing will pick it up from here. A charge is never deleted: it is
    cancelled with a reason (audited)."""

    class Kind(models.TextChoices):
        FOLLOW_UP_INSPECTION = "follow_up_inspection", _("Follow-up inspection")
        SAMPLING = "sampling", _("Sampling")
        LAB_ANALYSIS = "lab_analysis", _("Lab analysis")
        STAFF_TIME = "staff_time", _("Staff time")

    class Status(models.TextChoices):
        OWED = "owed", _("Owed")
        INVOICED = "invoiced", _("Invoiced (billing)")
        PAID = "paid", _("Paid")
        CANCELLED = "cancelled", _("Cancelled")

    # What the quantity counts, per kind.
    UNITS = {
        Kind.FOLLOW_UP_INSPECTION: "hours",
        Kind.SAMPLING: "samples",
        Kind.LAB_ANALYSIS: "tests",
        Kind.STAFF_TIME: "hours",
    }

    establishment = models.ForeignKey(
        FoodServiceEstablishment, on_delete=models.PROTECT, related_name="compliance_charges"
    )
    kind = models.CharField(max_length=32, choices=Kind.choices)
    quantity = models.DecimalField(
        max_digits=8, decimal_places=2, validators=[MinValueValidator(Decimal("0.01"))]
    )
    rate = models.DecimalField(max_digits=10, decimal_places=2)
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    fee_schedule = models.ForeignKey(FeeSchedule, on_delete=models.PROTECT, related_name="compliance_charges")
    pricing = models.JSONField(default=dict, blank=True, help_text="The working (D6).")
    reason = models.TextField(help_text="The case: what non-compliance caused the cost.")
    inspection = models.ForeignKey(
        Inspection, null=True, blank=True, on_delete=models.PROTECT, related_name="compliance_charges"
    )
    sample_id = models.PositiveBigIntegerField(null=True, blank=True, help_text="The sample it came from.")
    incurred_on = models.DateField(db_index=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OWED, db_index=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_by_label = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    cancel_reason = models.TextField(blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancelled_by_label = models.CharField(max_length=150, blank=True)
    # Billing picks the charge up (invoiced), and records its payment (D6, Q1).
    paid_on = models.DateField(null=True, blank=True, help_text="Recorded by billing.")
    payment_reference = models.CharField(max_length=100, blank=True)

    objects = ComplianceChargeQuerySet.as_manager()

    class Meta:
        ordering = ["-incurred_on", "-pk"]
        indexes = [models.Index(fields=["establishment", "status"], name="charge_est_status")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ${self.amount} ({self.get_status_display()})"

    @property
    def unit(self) -> str:
        return self.UNITS[self.kind]
