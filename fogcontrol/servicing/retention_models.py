"""The Town's records-retention schedule: who approved destroying its copies of record, and what
each purge destroyed (F5; California Government Code §34090).

F5 is the permittee's minimum ("kept at least 2 years"). The copies the Town holds are the Town's
own records: under Gov. Code §34090 a city destroys a record only with the approval of its
legislative body (a council resolution) and the written consent of the city attorney. The Town's
copy is therefore kept, however old, until a `RetentionApproval` covers it; each purge leaves a
`PurgeReport` listing what it destroyed. Imported into `fogcontrol.servicing.models`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class RetentionApproval(models.Model):
    """The Town's approval to destroy a class of its records dated within a range (Gov. Code §34090):
    the council resolution (number and date) and the city attorney's written consent.

    Never edited once recorded (a new approval is recorded instead); the audit trail keeps who
    recorded it. It permits destruction; it never shortens F5 or overrides a litigation hold.
    """

    class RecordClass(models.TextChoices):
        MANIFESTS = "manifests", _("Service manifests, with their attachments and corrections (F1, F5)")
        # fogcontrol.records.models.PURGE_CLASS: training, rosters, waste-oil pickups and reports.
        FSE_RECORDS = (
            "fse_records",
            "The FSE's own records: training, rosters, oil pickups, reports (C2, C4, F5)",
        )

    record_class = models.CharField(max_length=32, choices=RecordClass.choices)
    records_from = models.DateField(help_text="The earliest record date covered (inclusive).")
    records_to = models.DateField(help_text="The latest record date covered (inclusive).")
    council_resolution_number = models.CharField(max_length=64)
    council_resolution_date = models.DateField()
    city_attorney_name = models.CharField(max_length=150)
    city_attorney_consent_date = models.DateField(
        help_text="The date of the city attorney's written consent."
    )
    notes = models.TextField(blank=True)
    recorded_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_by_label = models.CharField(max_length=150)

    class Meta:
        ordering = ["-council_resolution_date", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(records_to__gte=F("records_from")), name="retention_approval_range_ordered"
            )
        ]

    def __str__(self) -> str:
        return (
            f"Resolution {self.council_resolution_number} of {self.council_resolution_date:%Y-%m-%d}: "
            f"{self.get_record_class_display().split(',')[0].lower()} dated "
            f"{self.records_from:%Y-%m-%d} to {self.records_to:%Y-%m-%d}"
        )


class PurgeReport(models.Model):
    """One purge: what was destroyed, when, by whom, why, and under which approval (F5, §34090).

    The destroyed rows' hashes stay in the purge log (`PurgedRecord`), so the chain still verifies;
    this report names them in words a clerk can read back (manifest number, device, date).
    """

    approval = models.ForeignKey(RetentionApproval, on_delete=models.PROTECT, related_name="purges")
    device = models.ForeignKey(
        "registry.GreaseControlDevice", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    summary = models.CharField(max_length=300)
    reason = models.TextField()
    purged_at = models.DateTimeField(auto_now_add=True)
    purged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    purged_by_label = models.CharField(max_length=150)

    class Meta:
        ordering = ["-purged_at", "-pk"]

    def __str__(self) -> str:
        return f"Purge {self.pk}: {self.summary}"


class PurgeReportItem(models.Model):
    """One record a purge destroyed, with its entry in the purge log (which keeps its hash)."""

    class Kind(models.TextChoices):
        MANIFEST = "manifest", _("Manifest")
        ATTACHMENT = "attachment", _("Manifest attachment")

    report = models.ForeignKey(PurgeReport, on_delete=models.PROTECT, related_name="items")
    purged_record = models.OneToOneField("core.PurgedRecord", on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    description = models.CharField(max_length=300)
    record_date = models.DateField()

    class Meta:
        ordering = ["report", "pk"]

    def __str__(self) -> str:
        return self.description
