"""A condition set on a permit in force by another part of the program, rather than written into a
permit version: today, a reporting requirement the FOG Manager makes a permit condition (C5, F2, F3,
F6; D7, E9; the records app sets and ends it through ``permits.services.permit_conditions``).

A condition is attached on a day and ends on a day; nothing else about it changes. The permit's page
and its PDF list the conditions in force, with those dates, beside the terms of the version.
"""

from __future__ import annotations

from django.db import models

from fogcontrol.permits.models.permits import Permit


class PermitCondition(models.Model):
    """One condition on a permit: what it requires (in words, with the provision), who set it and
    where it comes from (``source`` and ``source_id``: the record that owns it), from when to when."""

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="conditions_set")
    text = models.TextField(help_text="The condition as printed on the permit.")
    provision = models.CharField(max_length=16)
    source = models.CharField(max_length=32, help_text='What set it: "records" (a reporting requirement).')
    source_id = models.PositiveBigIntegerField()
    started_on = models.DateField()
    ended_on = models.DateField(
        null=True, blank=True, help_text="The condition no longer applies from this day."
    )
    set_by_label = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["started_on", "pk"]
        indexes = [models.Index(fields=["source", "source_id"], name="permit_condition_source")]

    def __str__(self) -> str:
        return f"{self.permit}: {self.text[:60]}"
