"""The Town's program settings: its profile, its calendar, and its rules as versioned data."""

import datetime as dt

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.concurrency import Versioned
from fogcontrol.program.querysets import HolidayQuerySet, RulesetVersionQuerySet
from fogcontrol.rules.ruleset import Ruleset


class TownProfile(Versioned):
    """One row: who the Town is, its time zone, and the contacts every permit prints (B2, J1, J2)."""

    name = models.CharField(max_length=200)
    time_zone = models.CharField(max_length=64, default="America/Los_Angeles")
    office_hours = models.CharField(max_length=200, default="Monday to Friday, 8:00 a.m. to 5:00 p.m.")
    # J1: the Waste Water Division's line, and the after-hours emergency line.
    wastewater_division_phone = models.CharField(max_length=40, blank=True)
    after_hours_emergency_phone = models.CharField(max_length=40, blank=True)
    code_enforcement_phone = models.CharField(max_length=40, blank=True)
    # J2 / B2: where written notices go.
    fog_manager_name = models.CharField(max_length=200, blank=True)
    fog_manager_address = models.TextField(blank=True, help_text="Mailing address for written notices.")
    fog_manager_email = models.EmailField(blank=True)
    fog_manager_phone = models.CharField(max_length=40, blank=True)
    # When the background worker starts the nightly sweep, in Town time (docs/architecture.md,
    # "How a nightly job flows").
    nightly_sweep_at = models.TimeField(
        "nightly sweep at",
        default=dt.time(2, 0),
        help_text="The Town time the background worker runs the nightly sweep, e.g. 02:00.",
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return self.name


class Holiday(models.Model):
    """A day the Town's offices are closed: a holiday, or a closure day it adds (a 9/80 Friday)."""

    class Kind(models.TextChoices):
        HOLIDAY = "holiday", _("Holiday")
        CLOSURE = "closure", _("Closure day")

    date = models.DateField(unique=True)
    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.HOLIDAY)

    objects = HolidayQuerySet.as_manager()

    class Meta:
        ordering = ["date"]

    def __str__(self) -> str:
        return f"{self.date:%Y-%m-%d} {self.name}"


class RulesetVersion(Versioned):
    """A version of the program's numbers, in force from `effective_from` until the next version.

    `values` holds only what differs from Chapter 10.02 as adopted (fogcontrol.rules.ruleset),
    so a version reads as the list of the Town's amendments. Each version names the ordinance or
    resolution that adopted it and the day it was adopted: the numbers change only by an act of
    the Town Council, never by an edit alone.
    """

    effective_from = models.DateField(unique=True)
    label = models.CharField(max_length=200)
    adoption_reference = models.CharField(
        "adopting ordinance or resolution",
        max_length=100,
        help_text="The number of the ordinance or resolution that adopted these values, e.g. Ord. No. 571.",
    )
    # Null only for versions recorded before the adoption was asked for; every new version has one.
    adopted_on = models.DateField("adopted on", null=True, help_text="The day the Town Council adopted it.")
    values = models.JSONField(default=dict, blank=True)
    notes = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)

    objects = RulesetVersionQuerySet.as_manager()

    class Meta:
        ordering = ["-effective_from"]

    def __str__(self) -> str:
        return f"{self.label} (from {self.effective_from:%Y-%m-%d})"

    def as_ruleset(self) -> Ruleset:
        return Ruleset.from_dict(self.values)
