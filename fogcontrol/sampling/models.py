"""Sampling (D5) and monitoring facilities (D7).

- ``Sample``: a grab or composite sample of an FSE's discharge (D5), who took it and when, where,
  the container, its preservation and the laboratory, with its chain of custody
  (``CustodyTransfer``, in order) and its lab results (``LabResult``). An uploaded lab file is kept
  as the record (``LabReport``, private, served through an access check).
- ``DischargeLimit``: a permit condition (D4) limiting an analyte in the FSE's discharge, in force
  from a day. Each result is judged against the limit in force on the day it was sampled; a result
  outside it opens one finding (D5).
- ``MonitoringFacility``: a monitoring, metering or sampling facility the FOG Manager requires of
  an FSE (D7), due ``monitoring_facility_days`` after the requirement; overdue, one finding.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.files import RandomName
from fogcontrol.inspections.models import Inspection
from fogcontrol.permits.models import Permit
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogcontrol.sampling.querysets import EstablishmentRecordQuerySet, OfSampleQuerySet, SampleQuerySet


class Analyte(models.TextChoices):
    FOG = "fog", _("FOG (oil and grease)")
    PH = "ph", _("pH")
    TSS = "tss", _("Total suspended solids")
    BOD = "bod", _("BOD")
    COD = "cod", _("COD")
    TEMPERATURE = "temperature", _("Temperature")


class Unit(models.TextChoices):
    MG_L = "mg/L", _("mg/L")
    PH_UNITS = "s.u.", _("pH units (s.u.)")
    DEG_F = "degF", _("°F")


class Sample(models.Model):
    """One sample of the FSE's discharge (D5), representative of it."""

    class Kind(models.TextChoices):
        GRAB = "grab", _("Grab")
        COMPOSITE = "composite", _("Composite")

    establishment = models.ForeignKey(
        FoodServiceEstablishment, on_delete=models.PROTECT, related_name="samples"
    )
    device = models.ForeignKey(
        GreaseControlDevice, null=True, blank=True, on_delete=models.PROTECT, related_name="samples"
    )
    inspection = models.ForeignKey(
        Inspection, null=True, blank=True, on_delete=models.PROTECT, related_name="samples"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    sampled_at = models.DateTimeField(
        db_index=True, help_text="When it was taken (for a composite: when it ended)."
    )
    sampled_by = models.CharField("taken by", max_length=150, help_text="The person who took the sample.")
    sample_point = models.CharField(
        max_length=200, help_text="Where: the sample point (e.g. the sample tee)."
    )
    container = models.CharField(max_length=120, help_text="E.g. 1 L amber glass.")
    preservation = models.CharField(max_length=120, blank=True, help_text="E.g. HCl to pH<2, on ice at 4 °C.")
    laboratory = models.CharField(max_length=150)
    lab_sample_id = models.CharField("lab sample id", max_length=60, blank=True)
    notes = models.TextField(blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_by_label = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = SampleQuerySet.as_manager()

    class Meta:
        ordering = ["-sampled_at", "-pk"]
        indexes = [models.Index(fields=["establishment", "-sampled_at"], name="sample_est_when")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} sample {self.pk} of {self.establishment_id}"


class CustodyTransfer(models.Model):
    """One hand-off in a sample's chain of custody (D5): from whom to whom, when, and whether the
    seal was intact. Hand-offs are in order and never precede the sampling."""

    sample = models.ForeignKey(Sample, on_delete=models.PROTECT, related_name="custody")
    sequence = models.PositiveSmallIntegerField()
    released_by = models.CharField("from", max_length=150)
    received_by = models.CharField("to", max_length=150)
    at = models.DateTimeField()
    seal_intact = models.BooleanField(default=True)
    condition = models.CharField(max_length=200, blank=True, help_text="E.g. on ice, 3 °C.")
    recorded_by_label = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = OfSampleQuerySet.as_manager()

    class Meta:
        ordering = ["sample", "sequence"]
        constraints = [models.UniqueConstraint(fields=["sample", "sequence"], name="custody_one_per_step")]

    def __str__(self) -> str:
        return f"{self.released_by} → {self.received_by} at {self.at:%Y-%m-%d %H:%M}"


class LabReport(models.Model):
    """An uploaded lab results file, kept as the record (private: a random name, served only by a
    view that checks access to its sample)."""

    sample = models.ForeignKey(Sample, on_delete=models.PROTECT, related_name="reports")
    file = models.FileField(upload_to=RandomName("sampling/lab-reports"))
    original_name = models.CharField(max_length=200)
    size_bytes = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    uploaded_by_label = models.CharField(max_length=150, blank=True)
    uploaded_at = models.DateTimeField(auto_now_add=True)

    objects = OfSampleQuerySet.as_manager()

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"Lab report {self.pk} of sample {self.sample_id}"


class DischargeLimit(models.Model):
    """A permit condition limiting an analyte in the FSE's discharge (D4, D5), in force from
    ``effective_from`` until a later limit for the same analyte."""

    establishment = models.ForeignKey(
        FoodServiceEstablishment, on_delete=models.PROTECT, related_name="discharge_limits"
    )
    permit = models.ForeignKey(
        Permit, null=True, blank=True, on_delete=models.PROTECT, related_name="discharge_limits"
    )
    analyte = models.CharField(max_length=16, choices=Analyte.choices)
    min_value = models.DecimalField(max_digits=12, decimal_places=4, null=True, blank=True)
    max_value = models.DecimalField(max_digits=12, decimal_places=4, null=True, blank=True)
    unit = models.CharField(max_length=8, choices=Unit.choices)
    effective_from = models.DateField()
    provision = models.CharField(max_length=16, default="D5", help_text="What a result outside it breaks.")
    condition = models.CharField(max_length=300, blank=True, help_text="The permit condition, as worded.")
    set_by_label = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = EstablishmentRecordQuerySet.as_manager()

    class Meta:
        ordering = ["establishment", "analyte", "-effective_from"]
        constraints = [
            models.UniqueConstraint(
                fields=["establishment", "analyte", "effective_from"], name="limit_one_per_day"
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_analyte_display()} {self.wording}"

    @property
    def wording(self) -> str:
        unit = self.get_unit_display()
        low = f"{self.min_value.normalize():f}" if self.min_value is not None else None
        high = f"{self.max_value.normalize():f}" if self.max_value is not None else None
        if low and high:
            return f"{low}–{high} {unit}"
        return f"≤ {high} {unit}" if high else f"≥ {low} {unit}"


class LabResult(models.Model):
    """One analyte measured in a sample (D5), judged against the limit in force on the day it was
    sampled (``limit``, ``outside``, ``judgement``)."""

    sample = models.ForeignKey(Sample, on_delete=models.PROTECT, related_name="results")
    analyte = models.CharField(max_length=16, choices=Analyte.choices)
    value = models.DecimalField(max_digits=12, decimal_places=4)
    unit = models.CharField(max_length=8, choices=Unit.choices)
    method = models.CharField(max_length=60, help_text="E.g. EPA 1664B.")
    analysed_on = models.DateField()
    reported_by = models.CharField("reported by (laboratory)", max_length=150)
    report = models.ForeignKey(
        LabReport, null=True, blank=True, on_delete=models.PROTECT, related_name="results"
    )
    limit = models.ForeignKey(
        DischargeLimit, null=True, blank=True, on_delete=models.PROTECT, related_name="results"
    )
    outside = models.BooleanField(default=False, help_text="Outside its limit (D5).")
    provision = models.CharField(max_length=16, blank=True)
    judgement = models.JSONField(default=dict, blank=True)
    recorded_by_label = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = OfSampleQuerySet.as_manager()

    class Meta:
        ordering = ["sample", "pk"]

    def __str__(self) -> str:
        return f"{self.get_analyte_display()} {self.value} {self.unit}"


class MonitoringFacility(models.Model):
    """A monitoring, metering or sampling facility the FOG Manager requires of an FSE (D7), its
    location subject to the FOG Manager's approval, due ``due_on`` (``monitoring_facility_days``
    after ``required_on``); installed on ``installed_on``."""

    class Kind(models.TextChoices):
        SAMPLING = "sampling", _("Sampling facility")
        FLOW_MONITORING = "flow_monitoring", _("Flow monitoring")
        METERING = "metering", _("Metering")
        CONSTITUENTS = "constituents", _("Monitoring of wastewater constituents")

    establishment = models.ForeignKey(
        FoodServiceEstablishment, on_delete=models.PROTECT, related_name="monitoring_facilities"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    description = models.TextField(help_text="What is required, in the FOG Manager's words.")
    location = models.CharField(max_length=200, help_text="The location the FOG Manager approved (D7).")
    required_on = models.DateField()
    due_on = models.DateField(db_index=True)
    due_explanation = models.JSONField(default=dict, blank=True)
    installed_on = models.DateField(null=True, blank=True)
    required_by_label = models.CharField(max_length=150, blank=True)
    installed_recorded_by_label = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = EstablishmentRecordQuerySet.as_manager()

    class Meta:
        ordering = ["due_on", "pk"]
        verbose_name_plural = "monitoring facilities"

    def __str__(self) -> str:
        return f"{self.get_kind_display()} at {self.establishment_id}"

    def is_overdue(self, today) -> bool:
        return self.installed_on is None and today > self.due_on
