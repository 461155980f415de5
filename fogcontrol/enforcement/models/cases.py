"""Cases: an FSE's violations grouped with their escalation (notice of violation, citation,
compliance schedule agreement, complaint, hearing, orders, referrals). The steps are their own
records, each pointing at its case; the case page puts them on one timeline (docs/enforcement.md).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from fogcontrol.enforcement.querysets import CaseQuerySet
from fogcontrol.registry.models import FoodServiceEstablishment


class Case(models.Model):
    """An FSE's enforcement case."""

    reference = models.CharField(max_length=20, unique=True, null=True, blank=True, editable=False)
    establishment = models.ForeignKey(
        FoodServiceEstablishment, on_delete=models.PROTECT, related_name="cases"
    )
    summary = models.TextField(help_text="What the case is about, as the FSE will read it.")
    internal_notes = models.TextField(blank=True, help_text="Staff only: never shown to the FSE.")
    opened_on = models.DateField(db_index=True)
    closed_on = models.DateField(null=True, blank=True, db_index=True)
    closed_reason = models.TextField(blank=True)
    violations = models.ManyToManyField(
        "enforcement.Violation", through="enforcement.CaseViolation", related_name="cases"
    )
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    opened_by_label = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = CaseQuerySet.as_manager()

    class Meta:
        ordering = ["-opened_on", "-pk"]

    def __str__(self) -> str:
        return f"Case {self.reference or self.pk}"

    @property
    def is_open(self) -> bool:
        return self.closed_on is None


class CaseViolation(models.Model):
    """A violation in a case (a violation may be in one open case at a time: see services)."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="case_violations")
    violation = models.ForeignKey(
        "enforcement.Violation", on_delete=models.PROTECT, related_name="case_links"
    )
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["case", "violation"], name="case_violation_once"),
        ]

    def __str__(self) -> str:
        return f"Violation #{self.violation_id} in case #{self.case_id}"
