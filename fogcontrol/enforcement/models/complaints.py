"""The administrative complaint (P5, P6): served by personal delivery or certified mail, heard within
the P5 limit of service (or the hearing waived, P6), decided by the hearing officer, and appealable to
the Town Council within the P6 window. The hearing itself is a ``Hearing`` of kind "complaint"; the
complaint keeps its service, the P6 appeal and the Council's outcome.
"""

from __future__ import annotations

from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from fogcontrol.enforcement.models.steps import _Served
from fogcontrol.enforcement.querysets_orders import CaseStepQuerySet


class AdministrativeComplaint(_Served):
    """P5: the complaint states the violation, the law broken and the proposed penalty."""

    class Appeal(models.TextChoices):
        """P6: an appeal to the Town Council within the window, and its outcome."""

        NONE = "", _("Not appealed")
        FILED = "filed", _("Appealed to the Town Council")
        UPHELD = "upheld", _("Upheld by the Town Council")
        MODIFIED = "modified", _("Modified by the Town Council")
        OVERTURNED = "overturned", _("Overturned by the Town Council")

    reference = models.CharField(max_length=20, unique=True, null=True, blank=True, editable=False)
    case = models.ForeignKey("enforcement.Case", on_delete=models.PROTECT, related_name="complaints")
    violations = models.ManyToManyField("enforcement.Violation", related_name="complaints")
    statement = models.TextField(help_text="P5: the acts or failures that are the violation.")
    law_violated = models.TextField(help_text="P5: the provisions of law authorising the penalty.")
    proposed_penalty = models.DecimalField(
        max_digits=12,
        decimal_places=2,
        validators=[MinValueValidator(0)],
        help_text="P5: the penalty proposed.",
    )
    hearing = models.OneToOneField(
        "enforcement.Hearing", null=True, blank=True, on_delete=models.PROTECT, related_name="complaint"
    )
    # P5: certified mail is served on the day the mail log records its mailing (notices' mail run);
    # until then the complaint is "waiting for mailing" and its hearing limit counts from the issue.
    served_on = models.DateField(null=True, blank=True, help_text="Empty: waiting for mailing.")
    hearing_latest_on = models.DateField(help_text="P5: the latest hearing date (the Town's maximum).")
    waived_on = models.DateField(null=True, blank=True, help_text="P6: the respondent waived the hearing.")
    # P6: the window runs from notice of the hearing officer's decision.
    decision_noticed_on = models.DateField(null=True, blank=True)
    appeal_by = models.DateField(null=True, blank=True, help_text="P6: the last day to appeal (computed).")
    appeal_status = models.CharField(max_length=16, choices=Appeal.choices, blank=True, default="")
    appealed_on = models.DateField(null=True, blank=True)
    council_decided_on = models.DateField(null=True, blank=True)
    council_outcome = models.TextField(blank=True)
    explanation = models.JSONField(
        default=dict, blank=True, help_text="The working of P5 and P6, by provision."
    )

    objects = CaseStepQuerySet.as_manager()

    class Meta:
        ordering = ["served_on", "pk"]

    def __str__(self) -> str:
        return f"Administrative complaint {self.reference or self.pk}"
