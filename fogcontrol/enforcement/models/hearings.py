"""Hearings: on an administrative complaint (P5, P6), a suspension or revocation notice (L2-L4) or an
emergency suspension order (M3), with their continuances (L3). The dates come from
``fogcontrol.rules.hearings``; the computed limits are stored with their working in ``explanation``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from fogcontrol.enforcement.querysets import HearingQuerySet


class Hearing(models.Model):
    """A hearing in a case, what it decided and by when it had to."""

    class Kind(models.TextChoices):
        COMPLAINT = "complaint", _("Administrative complaint (P5, P6)")
        SUSPENSION = "suspension", _("Suspension or revocation (L2-L4)")
        EMERGENCY = "emergency", _("Emergency suspension (M3)")

    case = models.ForeignKey("enforcement.Case", on_delete=models.PROTECT, related_name="hearings")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    # An existing suspension / revocation / emergency order this hearing is on (permits' L/M process).
    permit_order = models.ForeignKey(
        "permits.PermitOrder", null=True, blank=True, on_delete=models.PROTECT, related_name="hearings"
    )
    first_scheduled_on = models.DateField(help_text="The date first set: continuances count from it (L3).")
    scheduled_on = models.DateField(db_index=True, help_text="The date now set (after any continuance).")
    place = models.CharField(max_length=200, blank=True)
    latest_on = models.DateField(null=True, blank=True, help_text="The latest lawful date (L2, P5, M3).")
    held_on = models.DateField(null=True, blank=True)
    concluded_on = models.DateField(null=True, blank=True)
    decision_due_on = models.DateField(
        null=True, blank=True, db_index=True, help_text="L4 or M3: the written decision's limit."
    )
    decided_on = models.DateField(null=True, blank=True)
    waived_on = models.DateField(null=True, blank=True, help_text="P6: the respondent waived the hearing.")
    hearing_officer_name = models.CharField(max_length=200, blank=True)
    outcome = models.TextField(blank=True, help_text="The decision, as written.")
    explanation = models.JSONField(
        default=dict, blank=True, help_text="The working of each limit, by provision."
    )
    recorded_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_by_label = models.CharField(max_length=150, blank=True)

    objects = HearingQuerySet.as_manager()

    class Meta:
        ordering = ["scheduled_on", "pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} hearing on {self.scheduled_on}"

    @property
    def is_decided(self) -> bool:
        return self.decided_on is not None


class HearingContinuance(models.Model):
    """L3: a hearing moved to a new date; continuances may not total more than the ruleset's limit."""

    class RequestedBy(models.TextChoices):
        RESPONDENT = "respondent", _("The respondent")
        TOWN = "town", _("The Town")
        HEARING_OFFICER = "hearing_officer", _("The hearing officer")

    hearing = models.ForeignKey(Hearing, on_delete=models.CASCADE, related_name="continuances")
    from_date = models.DateField()
    new_date = models.DateField()
    requested_by = models.CharField(max_length=16, choices=RequestedBy.choices)
    reason = models.TextField()
    total_days = models.PositiveIntegerField(help_text="L3: days from the first date set to the new date.")
    recorded_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_by_label = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering = ["hearing", "pk"]

    def __str__(self) -> str:
        return f"Continued from {self.from_date} to {self.new_date}"
