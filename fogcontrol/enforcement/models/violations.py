"""Violations: a provision broken by an FSE (or, under A2, the property owner), with its evidence,
the day it began and the day it was cured. Each day is a separate offence (P3).

A violation is opened automatically from its source (an open finding, an overdue service, an expired
or missing permit, a late record, a manifest flag referred for enforcement) or by hand. Each source
opens ONE violation: ``source_key`` is unique, so the nightly sweep opens it once, not once a night.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from fogcontrol.enforcement.querysets import ViolationQuerySet
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice, Party


class Violation(models.Model):
    """One violation: who, which provision, the evidence, began_on and cured_on (P3, P7, A2)."""

    class Kind(models.TextChoices):
        """The P7 cap a penalty for it falls under (``rules.penalties``); "discharge"/"other" have none."""

        NO_PERMIT = "no_permit", _("No permit (P7(1))")
        RECORDS = "records", _("Records (P7(2))")
        MAINTENANCE = "maintenance", _("Maintenance (P7(3))")
        SSO = "sso", _("Sewer system overflow (P7(4), P7(5))")
        DISCHARGE = "discharge", _("Prohibited discharge")
        OTHER = "other", _("Other")

    class Source(models.TextChoices):
        FINDING = "finding", _("Inspection finding")
        OVERDUE_SERVICE = "overdue_service", _("Overdue service")
        PERMIT = "permit", _("Expired or missing permit")
        LATE_RECORD = "late_record", _("Late or missing record")
        MANIFEST_FLAG = "manifest_flag", _("Manifest flag referred for enforcement")
        SPILL = "spill", _("Spill")
        MANUAL = "manual", _("Opened by staff")

    establishment = models.ForeignKey(
        FoodServiceEstablishment, on_delete=models.PROTECT, related_name="violations"
    )
    property_owner = models.ForeignKey(
        Party,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="violations",
        help_text="A2: the property owner answers for a device serving several FSEs on its parcel.",
    )
    device = models.ForeignKey(
        GreaseControlDevice, null=True, blank=True, on_delete=models.PROTECT, related_name="violations"
    )
    provision = models.CharField(max_length=16, db_index=True, help_text="The provision broken.")
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.OTHER)
    description = models.TextField()
    source = models.CharField(max_length=16, choices=Source.choices)
    # One violation per source: "finding:12", "overdue_service:4:2026-05-01", "permit_missing:7:2026-01-01".
    source_key = models.CharField(max_length=80, null=True, blank=True, editable=False)
    source_id = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="The id of the source record."
    )
    evidence = models.TextField(blank=True, help_text="What shows the violation (and where it is kept).")
    began_on = models.DateField(db_index=True)
    cured_on = models.DateField(null=True, blank=True, db_index=True)
    cure_evidence = models.TextField(blank=True)
    cured_automatically = models.BooleanField(default=False)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    opened_by_label = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    cured_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    cured_by_label = models.CharField(max_length=150, blank=True)

    objects = ViolationQuerySet.as_manager()

    class Meta:
        ordering = ["-began_on", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["source_key"], condition=Q(source_key__isnull=False), name="violation_one_per_source"
            ),
            models.CheckConstraint(
                condition=Q(cured_on__isnull=True) | Q(cured_on__gte=models.F("began_on")),
                name="violation_cured_after_began",
            ),
        ]
        indexes = [models.Index(fields=["establishment", "cured_on"], name="violation_est_open")]

    def __str__(self) -> str:
        return f"{self.provision}: {self.description}"

    @property
    def is_open(self) -> bool:
        return self.cured_on is None
