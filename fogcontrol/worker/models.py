"""The nightly sweep's own record: one `SweepRun` per Town day, one `SweepStep` per step run.

A step is marked done only after it returned; a rerun of the day skips the steps done and runs
the others again from their start (each step is idempotent). The run names the worker (or
`fogcontrol sweep` process) that holds it: while that one beats, no other runs the day."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class SweepRun(models.Model):
    day = models.DateField(unique=True, help_text="The Town day the sweep is for.")
    # Set by the scheduler when it queued the day's sweep: it queues each day once.
    scheduled_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The worker id running it now ("" when none); another runner waits while this one beats.
    owner = models.CharField(max_length=64, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-day"]

    def __str__(self) -> str:
        return f"sweep of {self.day:%Y-%m-%d}"


class SweepStep(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    run = models.ForeignKey(SweepRun, on_delete=models.CASCADE, related_name="steps")
    name = models.CharField(max_length=64)
    order = models.IntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RUNNING)
    attempts = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["order", "name"]
        constraints = [models.UniqueConstraint(fields=["run", "name"], name="worker_sweepstep_once_per_run")]

    def __str__(self) -> str:
        return f"{self.name} of {self.run.day:%Y-%m-%d}: {self.status}"
