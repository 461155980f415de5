"""The FSE's own compliance records (C2, C4, C5, D7, E9, F2, F3, F5, F6).

- C4 training: a ``TrainingSession`` (date, trainer, the four subjects, language) and its roster, one
  ``TrainingAttendance`` per ``Employee`` with a signature drawn on screen, or the session's
  uploaded signed sheet. An ``Employee`` carries the hire date that makes a new hire's training due.
- C2 waste cooking oil: an ``OilPickup`` (date, gallons, the licensed hauler or approved recycler,
  the receipt).

Every submission is a copy of record on its own chain (``core/records.py``): the training session,
each roster line (a signature is given once and never redrawn), each pickup and each report. None
is a draft: a session is recorded once, whole, and its roster grows by new signed lines, each its
own record. Only ``Employee`` (who works there, and since when) and the requirement the FOG Manager
sets are working records. The database lets any of them be deleted only when purged after F5's
retention under a recorded approval of the class ``fse_records``.
- C5, F2, F3, F6 reports and D7, E9 requests: a ``RecordRequirement`` set by the FOG Manager (what,
  how often, the first due date), and each ``RecordSubmission`` against it, a copy of record on the
  chain (immutable; F5 retention); a correction is a new submission pointing at the one it corrects.
  Staff review each in a ``SubmissionReview`` (accepted, or needs correction with a reason), kept
  beside the submission because a copy of record never changes.

Uploads are checked by content, stored privately under random names and served only through views
that fetch the record with its scoped selector (fogcontrol/core/files.py).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.files import RandomName
from fogcontrol.core.models import CopyOfRecord
from fogcontrol.records.querysets import (
    AttendanceQuerySet,
    EstablishmentRecordQuerySet,
    OilPickupQuerySet,
    RequirementQuerySet,
    SubmissionQuerySet,
)
from fogcontrol.registry.models import FoodServiceEstablishment, HaulerCompany
from fogcontrol.rules.records import EVERY_DAYS, EVERY_MONTHS, ONCE, REPORT_KINDS

# C4: the four subjects every training covers, in the ordinance's order (English, Spanish).
TRAINING_SUBJECTS: dict[str, tuple[str, str]] = {
    "dry_wipe": (
        'How to "dry wipe" pots, pans, dishware and work areas before washing, to remove grease.',
        'Cómo "limpiar en seco" ollas, sartenes, vajilla y áreas de trabajo antes de lavarlas, para quitar la grasa.',
    ),
    "food_waste": (
        "How to dispose of food waste and solids properly (Chapter 6.20).",
        "Cómo desechar correctamente los restos de comida y los sólidos (Capítulo 6.20).",
    ),
    "absorbents": (
        "Where absorbent products are kept and how to use them under fryer baskets and wherever grease may spill.",
        "Dónde están los productos absorbentes y cómo usarlos bajo las canastas de freír y donde pueda derramarse grasa.",
    ),
    "waste_oil": (
        "How to pour waste oil from cooking equipment into a grease receptacle (barrel or drum) without spilling or splashing.",
        "Cómo vaciar el aceite usado del equipo de cocina en un recipiente para grasa (barril o tambor) sin derramar ni salpicar.",
    ),
}  # fmt: skip


class Employee(models.Model):
    """A person working at the FSE, with the hire date that makes training due at hiring (C4)."""

    establishment = models.ForeignKey(
        FoodServiceEstablishment, on_delete=models.PROTECT, related_name="employees_trained"
    )
    name = models.CharField(max_length=150)
    hire_date = models.DateField()
    created_at = models.DateTimeField(auto_now_add=True)

    objects = EstablishmentRecordQuerySet.as_manager()

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["establishment", "name", "hire_date"], name="employee_unique_hire"
            )
        ]

    def __str__(self) -> str:
        return self.name


# The Town's approval class under which these copies of record may be purged (F5; servicing's
# RetentionApproval) and the record date each is purged by (fogcontrol.core.record_triggers).
PURGE_CLASS = "fse_records"


class TrainingSession(CopyOfRecord):
    """One employee training (C4): the day, the trainer, the subjects covered and the language; its
    roster is the attendances (signed on screen) or the uploaded signed sheet."""

    class Language(models.TextChoices):
        ENGLISH = "en", _("English")
        SPANISH = "es", _("Spanish")
        OTHER = "other", _("Other")

    establishment = models.ForeignKey(
        FoodServiceEstablishment, on_delete=models.PROTECT, related_name="training_sessions"
    )
    held_on = models.DateField(db_index=True)
    trainer = models.CharField(max_length=150)
    subjects = models.JSONField(
        default=list, help_text="The C4 subjects covered (keys of TRAINING_SUBJECTS)."
    )
    language = models.CharField(max_length=8, choices=Language.choices, default=Language.ENGLISH)
    notes = models.TextField(blank=True)
    signed_sheet = models.FileField(upload_to=RandomName("records/training"), blank=True)
    signed_sheet_name = models.CharField(max_length=255, blank=True)
    signed_sheet_type = models.CharField(max_length=100, blank=True)
    signed_sheet_sha256 = models.CharField(max_length=64, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_by_label = models.CharField(max_length=150)
    created_at = models.DateTimeField(default=timezone.now, editable=False)  # hashed, so set before saving

    objects = EstablishmentRecordQuerySet.as_manager()

    purge_record_class = PURGE_CLASS
    purge_record_date_sql = 'OLD."held_on"'

    class Meta:
        ordering = ["-held_on", "-pk"]

    def __str__(self) -> str:
        return f"Training {self.held_on:%Y-%m-%d} ({self.trainer})"

    @property
    def covers_all_subjects(self) -> bool:
        return set(TRAINING_SUBJECTS) <= set(self.subjects)


class TrainingAttendance(CopyOfRecord):
    """One line of a roster (C4): the employee and the signature drawn on screen (a PNG we wrote),
    a copy of record of its own: signed once, never redrawn."""

    session = models.ForeignKey(TrainingSession, on_delete=models.PROTECT, related_name="attendances")
    employee = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="attendances")
    signature = models.FileField(upload_to=RandomName("records/signatures"), blank=True)
    signed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)  # hashed, so set before saving

    objects = AttendanceQuerySet.as_manager()

    # Purged with its session, under the approval covering the day of the training.
    purge_record_class = PURGE_CLASS
    purge_record_date_sql = (
        '(SELECT s."held_on" FROM "records_trainingsession" s WHERE s."id" = OLD."session_id")'
    )

    class Meta:
        ordering = ["session", "employee__name", "pk"]
        constraints = [models.UniqueConstraint(fields=["session", "employee"], name="attendance_once")]

    def __str__(self) -> str:
        return f"{self.employee} at {self.session}"


class OilPickup(CopyOfRecord):
    """A waste cooking oil pickup (C2): by a licensed hauler or an approved recycler, with the
    receipt; a copy of record (a wrong entry is answered by a new one, never edited)."""

    establishment = models.ForeignKey(
        FoodServiceEstablishment, on_delete=models.PROTECT, related_name="oil_pickups"
    )
    picked_up_on = models.DateField(db_index=True)
    gallons = models.DecimalField(max_digits=8, decimal_places=1)
    hauler = models.ForeignKey(
        HaulerCompany, null=True, blank=True, on_delete=models.PROTECT, related_name="oil_pickups"
    )
    recycler_name = models.CharField(
        max_length=200, blank=True, help_text="An approved recycler not in the hauler list."
    )
    receipt = models.FileField(upload_to=RandomName("records/receipts"), blank=True)
    receipt_name = models.CharField(max_length=255, blank=True)
    receipt_type = models.CharField(max_length=100, blank=True)
    receipt_sha256 = models.CharField(max_length=64, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_by_label = models.CharField(max_length=150)
    created_at = models.DateTimeField(default=timezone.now, editable=False)  # hashed, so set before saving

    objects = OilPickupQuerySet.as_manager()

    purge_record_class = PURGE_CLASS
    purge_record_date_sql = 'OLD."picked_up_on"'

    class Meta:
        ordering = ["-picked_up_on", "-pk"]

    def __str__(self) -> str:
        return f"{self.gallons} gal on {self.picked_up_on:%Y-%m-%d}"

    @property
    def collector(self) -> str:
        return self.hauler.name if self.hauler_id else self.recycler_name


class RecordRequirement(models.Model):
    """What the FOG Manager requires of one FSE (C5, F2, F3, F6) or requests once (D7, E9): what,
    how often (every N days or months, or once) and the first due date."""

    class Kind(models.TextChoices):
        BMP_STATUS = "bmp_status", _("BMP status report (C5)")
        SELF_MONITORING = "self_monitoring", _("Self-monitoring report (F3)")
        CCTV = "cctv", _("CCTV of the downstream lines (F2)")
        LATERAL_CLEANING = "lateral_cleaning", _("Lateral cleaning and spill records (F6)")
        MONITORING_FACILITIES = "monitoring_facilities", _("Monitoring facilities (D7)")
        WASTE_ANALYSIS_PLAN = "waste_analysis_plan", _("Waste analysis plan (D7)")
        CONTINGENCY_PLAN = "contingency_plan", _("Contingency plan (D7)")
        FREQUENCY_DATA = "frequency_data", _("Data to set the frequency (E9)")

    class Unit(models.TextChoices):
        DAYS = EVERY_DAYS, "days"
        MONTHS = EVERY_MONTHS, "months"
        ONCE = ONCE, "once"

    establishment = models.ForeignKey(
        FoodServiceEstablishment, on_delete=models.PROTECT, related_name="record_requirements"
    )
    kind = models.CharField(max_length=32, choices=Kind.choices)
    description = models.TextField(
        blank=True, help_text="What exactly is required, in the FOG Manager's words."
    )
    every = models.PositiveSmallIntegerField(
        default=0, help_text="Every how many days or months (0 when once)."
    )
    unit = models.CharField(max_length=8, choices=Unit.choices)
    first_due_on = models.DateField()
    requested_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True, help_text="No report is owed after this day.")
    permit_condition = models.BooleanField(
        default=False,
        help_text="Also a condition of the FSE's permit in force (listed on the permit; ends with it).",
    )
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    set_by_label = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = RequirementQuerySet.as_manager()

    class Meta:
        ordering = ["first_due_on", "pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.establishment}"

    @property
    def provision(self) -> str:
        return REPORT_KINDS[self.kind][0]

    @property
    def schedule(self) -> str:
        if self.unit == ONCE:
            return f"Once, by {self.first_due_on:%B} {self.first_due_on.day}, {self.first_due_on.year}"
        return f"Every {self.every} {self.get_unit_display()} from {self.first_due_on:%B} {self.first_due_on.day}, {self.first_due_on.year}"


class RecordSubmission(CopyOfRecord):
    """A report, plan or data submitted against a requirement (C5, D7, E9, F2, F3, F6): a copy of
    record on the chain, never changed (F5 retention). A correction names the one it corrects."""

    requirement = models.ForeignKey(RecordRequirement, on_delete=models.PROTECT, related_name="submissions")
    period_number = models.PositiveIntegerField(help_text="Which report of the schedule (1 for the first).")
    period_due_on = models.DateField(help_text="The due date of that report, as the rules computed it.")
    corrects = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )
    note = models.TextField(blank=True)
    file = models.FileField(upload_to=RandomName("records/submissions"))
    original_name = models.CharField(max_length=255)
    content_type = models.CharField(max_length=100)
    size_bytes = models.PositiveBigIntegerField()
    sha256 = models.CharField(max_length=64)

    objects = SubmissionQuerySet.as_manager()

    # Purged by the due date of the report it answers (F5).
    purge_record_class = PURGE_CLASS
    purge_record_date_sql = 'OLD."period_due_on"'

    class Meta:
        ordering = ["-received_at", "-pk"]
        indexes = [models.Index(fields=["requirement", "period_number"], name="submission_period")]

    def __str__(self) -> str:
        return f"{self.requirement.get_kind_display()} #{self.period_number} ({self.original_name})"


class SubmissionReview(models.Model):
    """Staff's review of a submission: accepted, or needs correction with the reason."""

    class Outcome(models.TextChoices):
        ACCEPTED = "accepted", _("Accepted")
        NEEDS_CORRECTION = "needs_correction", _("Needs correction")

    submission = models.OneToOneField(RecordSubmission, on_delete=models.PROTECT, related_name="review")
    outcome = models.CharField(max_length=20, choices=Outcome.choices)
    reason = models.TextField(blank=True)
    reviewed_on = models.DateField()
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reviewed_by_label = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_outcome_display()}: {self.submission_id}"
