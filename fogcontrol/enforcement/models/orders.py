"""Termination of sewer service (O1, O2): on a suspension or revocation order, or for an unpermitted
discharger that did not stop after notice; reinstated later. The costs of disconnection and
reinstatement are owed by the owner, operator or permittee (O2): each is a stable ``ServiceCost`` row
billing picks up. Suspension, revocation and emergency suspension themselves are permits'
``PermitOrder`` (L, M), reached from the case through its hearings."""

from __future__ import annotations

from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from fogcontrol.enforcement.models.steps import _Recorded
from fogcontrol.enforcement.querysets_orders import CaseStepQuerySet


class ServiceTermination(_Recorded):
    """O1: sewer service to an FSE terminated, and (later) reinstated."""

    class Basis(models.TextChoices):
        ORDER = "order", _("A suspension or revocation order (O1)")
        UNPERMITTED = "unpermitted", _("An unpermitted discharger that did not stop after notice (O1)")

    case = models.ForeignKey("enforcement.Case", on_delete=models.PROTECT, related_name="terminations")
    basis = models.CharField(max_length=16, choices=Basis.choices)
    permit_order = models.ForeignKey(
        "permits.PermitOrder", null=True, blank=True, on_delete=models.PROTECT, related_name="terminations"
    )
    notice = models.ForeignKey(
        "enforcement.NoticeOfViolation",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="terminations",
        help_text="O1: the notice an unpermitted discharger did not heed.",
    )
    terminated_on = models.DateField()
    how = models.TextField(help_text="How service was stopped (e.g. the lateral plugged at the cleanout).")
    reinstated_on = models.DateField(null=True, blank=True)
    document_id = models.PositiveBigIntegerField(null=True, blank=True)

    objects = CaseStepQuerySet.as_manager()

    class Meta:
        ordering = ["terminated_on", "pk"]

    def __str__(self) -> str:
        return f"Sewer service terminated on {self.terminated_on}"


class ServiceCost(models.Model):
    """O2: a cost of disconnecting or reinstating service, owed by the discharger (billing reads it)."""

    class Kind(models.TextChoices):
        DISCONNECTION = "disconnection", _("Disconnection (O2)")
        REINSTATEMENT = "reinstatement", _("Reinstatement (O2)")

    termination = models.ForeignKey(ServiceTermination, on_delete=models.PROTECT, related_name="costs")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    amount = models.DecimalField(max_digits=12, decimal_places=2, validators=[MinValueValidator(0)])
    incurred_on = models.DateField()
    description = models.CharField(max_length=300)
    owed_by = models.CharField(max_length=200, help_text="O2: the owner, operator or permittee who pays.")
    paid_on = models.DateField(null=True, blank=True, help_text="Recorded by billing.")
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["incurred_on", "pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: ${self.amount}"
