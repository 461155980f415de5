"""Sewer overflows and spills (I1, I2, J1-J3, N1, N2).

- ``Agency``: a sewer agency of the State's register (CIWQS ``PRA.txt``), named by its WDID.
- ``Spill``: a sanitary sewer overflow (SSO), a blockage, or a private lateral sewage discharge
  (PLSD): where (address, coordinates, segment or manhole), when (start, end, notified, arrived),
  how much (spilled, recovered, reached surface water), where it went, the State's category
  (derived, ``rules/spills.py``), the cause from a controlled list with its explanation and the
  words it was given in, the clean-up contractor and the clearance inspection (I1).
- ``SpillLink``: an FSE linked to a spill, with the reason (upstream, confirmed address match…);
  ``SpillPhoto`` its photos (re-encoded, private, served through an access check).
- ``SpillCost``: what the Town spent or was fined, who owes it (I2) and when (N1, N2). A stable
  record for billing: status "owed" when made, never deleted, each change audited.
- ``SpillReport``: an FSE's immediate notice (J1, by phone logged by staff or in the portal) with
  the written report's due date (J2); ``WrittenSpillReport`` the written report, a copy of record.
- ``SpillImport`` and ``SpillImportRow``: a run of the State's flat files, every row accounted for.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.files import RandomName
from fogcontrol.core.models import CopyOfRecord
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.rules import spills as rules
from fogcontrol.spills.querysets import (
    CostQuerySet,
    PhotoQuerySet,
    ReportQuerySet,
    SpillQuerySet,
    StaffOnlyQuerySet,
    WrittenReportQuerySet,
)

VOLUME = {"max_digits": 12, "decimal_places": 1, "null": True, "blank": True}


class Agency(models.Model):
    """A sewer agency of the State's register (CIWQS PRA), by its waste discharge id (WDID)."""

    wdid = models.CharField("WDID", max_length=20, unique=True)
    name = models.CharField(max_length=200)
    collection_system = models.CharField(max_length=200, blank=True)
    region = models.CharField(max_length=8, blank=True)
    county = models.CharField(max_length=100, blank=True)
    status = models.CharField(max_length=20, blank=True)
    address = models.CharField(max_length=300, blank=True, help_text="The register's mailing address.")

    objects = StaffOnlyQuerySet.as_manager()

    class Meta:
        ordering = ["name", "wdid"]
        verbose_name_plural = "agencies"

    def __str__(self) -> str:
        return f"{self.name} ({self.wdid})"


class Spill(models.Model):
    """An overflow, blockage or private lateral discharge, with what the State asks of it (I1)."""

    class Kind(models.TextChoices):
        SSO = "sso", _("Sanitary sewer overflow")
        BLOCKAGE = "blockage", _("Blockage (no overflow)")
        PLSD = "plsd", _("Private lateral sewage discharge")

    class Source(models.TextChoices):
        TOWN = "town", _("Recorded by the Town")
        CIWQS = "ciwqs", _("Imported from the State (CIWQS)")

    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.SSO)
    source = models.CharField(max_length=8, choices=Source.choices, default=Source.TOWN)
    agency = models.ForeignKey(Agency, null=True, blank=True, on_delete=models.PROTECT, related_name="spills")
    agency_wdid = models.CharField("agency WDID", max_length=20, blank=True)
    state_spill_id = models.CharField(
        "State spill id", max_length=20, null=True, blank=True, unique=True, help_text="CIWQS SPILL_ID."
    )
    location_name = models.CharField(max_length=200, blank=True)
    address = models.CharField(max_length=300, blank=True)
    city = models.CharField(max_length=100, blank=True)
    zip_code = models.CharField(max_length=10, blank=True)
    latitude = models.DecimalField(max_digits=10, decimal_places=6, null=True, blank=True)
    longitude = models.DecimalField(max_digits=10, decimal_places=6, null=True, blank=True)
    segment_id = models.CharField("sewer segment id", max_length=50, blank=True)
    manhole_id = models.CharField("manhole id", max_length=50, blank=True)
    location_description = models.TextField(blank=True)
    started_at = models.DateTimeField(null=True, blank=True, db_index=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    notified_at = models.DateTimeField("Town notified at", null=True, blank=True)
    arrived_at = models.DateTimeField("Town arrived at", null=True, blank=True)
    volume_spilled = models.DecimalField("gallons spilled", **VOLUME)
    volume_recovered = models.DecimalField("gallons recovered", **VOLUME)
    volume_reached_surface_water = models.DecimalField("gallons that reached surface water", **VOLUME)
    destination = models.CharField(max_length=16, choices=list(rules.DESTINATIONS.items()), blank=True)
    destination_text = models.TextField(blank=True, help_text="The destination as given.")
    storm_drain_fully_recovered = models.BooleanField(null=True, blank=True)
    category = models.CharField(
        max_length=1, choices=list(rules.CATEGORY_LABELS.items()), db_index=True, editable=False
    )
    cause = models.CharField(
        max_length=32, choices=[(key, _(label)) for key, label in rules.CAUSES.items()], db_index=True
    )
    cause_explanation = models.TextField(blank=True)
    cause_original = models.CharField(max_length=200, blank=True, help_text="The cause as given.")
    cleanup_contractor = models.CharField(
        max_length=200, blank=True, help_text="I1: licensed clean-up contractor."
    )
    clearance_inspected_on = models.DateField(null=True, blank=True, help_text="I1: clearance inspection.")
    clearance_notes = models.TextField(blank=True)
    response = models.TextField(blank=True)
    # What an import found doubtful but kept: [{"code": "impossible_date", "message": "..."}].
    flags = models.JSONField(default=list, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_by_label = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)
    objects = SpillQuerySet.as_manager()

    class Meta:
        ordering = ["-started_at", "-pk"]

    def __str__(self) -> str:
        where = self.address or self.location_name or "unknown place"
        return f"{self.get_kind_display()} at {where}"

    @property
    def fog_caused(self) -> bool:
        return self.cause == rules.CAUSE_GREASE


class SpillLink(models.Model):
    """An FSE linked to a spill (upstream, named by the caller, a confirmed address match), with why."""

    spill = models.ForeignKey(Spill, on_delete=models.PROTECT, related_name="links")
    establishment = models.ForeignKey(
        FoodServiceEstablishment, on_delete=models.PROTECT, related_name="spill_links"
    )
    reason = models.TextField()
    linked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    linked_by_label = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        constraints = [models.UniqueConstraint(fields=["spill", "establishment"], name="spill_link_once")]

    def __str__(self) -> str:
        return f"{self.establishment} ↔ spill {self.spill_id}"


class SpillPhoto(models.Model):
    """A photo of the spill or its clean-up (I1): re-encoded as a fresh JPEG (core/images.py), kept
    under a random name, served only to those who may see the spill."""

    spill = models.ForeignKey(Spill, on_delete=models.PROTECT, related_name="photos")
    file = models.FileField(upload_to=RandomName("spills/photos"))
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    caption = models.CharField(max_length=200, blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    uploaded_by_label = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = PhotoQuerySet.as_manager()

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"Photo {self.pk} of spill {self.spill_id}"


class SpillCost(models.Model):
    """One of the Town's costs of a spill (N1) or a fine another agency imposed on it (N2), owed by
    the property owner, the FSE or a responsible individual (I2). Billing picks these up; a cost is
    never deleted (a mistake is corrected by a cancelling status, audited)."""

    class Status(models.TextChoices):
        OWED = "owed", _("Owed")
        CANCELLED = "cancelled", _("Cancelled")

    spill = models.ForeignKey(Spill, on_delete=models.PROTECT, related_name="costs")
    kind = models.CharField(
        max_length=16, choices=[(key, _(label)) for key, label in rules.COST_KINDS.items()]
    )
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    description = models.TextField(blank=True)
    debtor = models.CharField(max_length=24, choices=list(rules.DEBTORS.items()))
    debtor_name = models.CharField(max_length=200)
    establishment = models.ForeignKey(
        FoodServiceEstablishment, null=True, blank=True, on_delete=models.PROTECT, related_name="spill_costs"
    )
    invoiced_on = models.DateField()
    due_on = models.DateField(help_text="From the rules (N1, or Q1 for an N2 fine).")
    provision = models.CharField(max_length=4)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OWED, db_index=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_by_label = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = CostQuerySet.as_manager()

    class Meta:
        ordering = ["invoiced_on", "pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: ${self.amount}"


class SpillReport(models.Model):
    """An FSE's immediate notice of a spill or upset (J1): when, where, what, how much; taken by
    phone and logged by staff, or sent in the portal. The written report is due by ``written_due_on``
    (J2); notice relieves no liability (J3)."""

    class Channel(models.TextChoices):
        PHONE = "phone", _("Telephone, logged by staff")
        PORTAL = "portal", _("FSE portal")

    establishment = models.ForeignKey(
        FoodServiceEstablishment, on_delete=models.PROTECT, related_name="spill_reports"
    )
    spill = models.ForeignKey(Spill, null=True, blank=True, on_delete=models.PROTECT, related_name="reports")
    channel = models.CharField(max_length=8, choices=Channel.choices)
    caller = models.CharField(max_length=150, blank=True, help_text="Who called (phone notices).")
    occurred_at = models.DateTimeField()
    location = models.CharField(max_length=300)
    what = models.TextField(help_text="What spilled or went wrong.")
    gallons = models.DecimalField(max_digits=10, decimal_places=1, null=True, blank=True)
    written_due_on = models.DateField(help_text="J2, from the rules.")
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reported_by_label = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ReportQuerySet.as_manager()

    class Meta:
        ordering = ["-occurred_at", "-pk"]

    def __str__(self) -> str:
        return f"Spill report {self.pk}: {self.establishment}"

    liability = rules.LIABILITY_STATEMENT


class WrittenSpillReport(CopyOfRecord):
    """The written report of a spill (J2): the date of the incident, why it happened, the steps the
    FSE and the Town took at once, and what will prevent it again. A copy of record on the chain."""

    report = models.OneToOneField(SpillReport, on_delete=models.PROTECT, related_name="written")
    incident_on = models.DateField()
    cause = models.TextField()
    steps_taken = models.TextField()
    prevention = models.TextField()

    objects = WrittenReportQuerySet.as_manager()

    class Meta:
        ordering = ["-received_at", "-pk"]

    def __str__(self) -> str:
        return f"Written report of spill report {self.report_id}"


class SpillImport(models.Model):
    """A run of a State flat file: spills (PLSD/SSO) or the agency register (PRA), dry or applied."""

    class Kind(models.TextChoices):
        SPILLS = "spills", _("Spills (CIWQS PLSD/SSO)")
        AGENCIES = "agencies", _("Agency register (CIWQS PRA)")

    class Status(models.TextChoices):
        CHECKED = "checked", _("Dry run done")
        APPLIED = "applied", _("Applied")

    kind = models.CharField(max_length=10, choices=Kind.choices)
    original_filename = models.CharField(max_length=255)
    file = models.FileField(upload_to=RandomName("spills/imports"))
    sha256 = models.CharField(max_length=64)
    agency_wdid = models.CharField(max_length=20, blank=True, help_text="Only rows of this agency.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.CHECKED)
    dry_run_counts = models.JSONField(default=dict, blank=True)
    applied_counts = models.JSONField(default=dict, blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    uploaded_by_label = models.CharField(max_length=150)
    applied_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = StaffOnlyQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} import {self.pk} ({self.original_filename})"


class SpillImportRow(models.Model):
    """One row of an import's report: what became of it, and why."""

    class Outcome(models.TextChoices):
        IMPORTED = "imported", _("Imported")
        UPDATED = "updated", _("Updated")
        UNCHANGED = "unchanged", _("Unchanged")
        REJECTED = "rejected", _("Rejected")
        SKIPPED = "skipped", _("Another agency (not asked for)")

    spill_import = models.ForeignKey(SpillImport, on_delete=models.CASCADE, related_name="rows")
    row_number = models.PositiveIntegerField()
    applied = models.BooleanField(default=False)
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    key = models.CharField(max_length=40, blank=True, help_text="The State spill id or WDID.")
    reasons = models.JSONField(default=list, blank=True)
    spill = models.ForeignKey(Spill, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["row_number"]
        indexes = [models.Index(fields=["spill_import", "applied", "row_number"], name="spill_import_row")]

    def __str__(self) -> str:
        return f"row {self.row_number}: {self.outcome}"
