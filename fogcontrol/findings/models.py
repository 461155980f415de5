"""Findings: what an inspection (and later an FSE's records and a spill) found wrong, each citing
the provision it breaks, with its evidence and the day it began (D4; P3: enforcement turns each
into a violation, every day a separate offence). A finding is closed with the day, how (corrected
on the spot, by a follow-up inspection, other) and the evidence."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from fogcontrol.findings.querysets import FindingQuerySet
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice


class Finding(models.Model):
    """One failed item: the provision, the evidence (item, reading, description, photos), when it
    began and, once corrected, when and how it was closed (D4, D8, C1-C7, E3, F6, K1-K7, D1)."""

    class Source(models.TextChoices):
        INSPECTION = "inspection", _("Inspection")
        RECORDS = "records", _("FSE records")
        SPILL = "spill", _("Spill")
        SAMPLE = "sample", _("Sample result (D5)")
        FACILITY = "facility", _("Monitoring facility (D7)")

    class ClosedHow(models.TextChoices):
        ON_THE_SPOT = "on_the_spot", _("Corrected on the spot")
        FOLLOW_UP = "follow_up", _("Follow-up inspection")
        OTHER = "other", _("Other")

    establishment = models.ForeignKey(
        FoodServiceEstablishment, on_delete=models.PROTECT, related_name="findings"
    )
    device = models.ForeignKey(
        GreaseControlDevice, null=True, blank=True, on_delete=models.PROTECT, related_name="findings"
    )
    provision = models.CharField(max_length=16, db_index=True, help_text="The provision the finding breaks.")
    item = models.CharField(max_length=48, help_text="The checklist item (or record) that failed.")
    description = models.TextField()
    reading = models.CharField(max_length=200, blank=True, help_text="A measurement, when one was taken.")
    # Photos kept by the source (an inspection's photos), referenced by id and the URL that serves
    # them through an access check: [{"id": 3, "url": "/inspections/photos/3/"}].
    photos = models.JSONField(default=list, blank=True)
    began_on = models.DateField(db_index=True)
    source = models.CharField(max_length=16, choices=Source.choices)
    source_id = models.PositiveBigIntegerField(
        help_text="The id of the inspection (or record, spill, lab result, monitoring facility)."
    )
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    opened_by_label = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    closed_on = models.DateField(null=True, blank=True, db_index=True)
    closed_how = models.CharField(max_length=16, choices=ClosedHow.choices, blank=True)
    closing_evidence = models.TextField(blank=True)
    closed_by_source_id = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="The follow-up inspection that found it corrected."
    )
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    closed_by_label = models.CharField(max_length=150, blank=True)

    objects = FindingQuerySet.as_manager()

    class Meta:
        ordering = ["-began_on", "-pk"]
        indexes = [
            models.Index(fields=["establishment", "closed_on"], name="finding_est_open"),
            models.Index(fields=["source", "source_id"], name="finding_source"),
        ]

    def __str__(self) -> str:
        return f"{self.provision}: {self.description}"

    @property
    def is_open(self) -> bool:
        return self.closed_on is None
