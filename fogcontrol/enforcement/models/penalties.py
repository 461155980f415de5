"""The administrative civil penalty order (P7-P10, P12): an amount within the P7 cap, with the
hearing officer's P7 factors, final on issuance unless appealed, payable within the P8 limit, served
by personal service or registered mail. A stable record billing reads later: the amount, the due
date and the P12 penalty account it is paid into."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from fogcontrol.enforcement.models.steps import _Served
from fogcontrol.enforcement.querysets_orders import PENALTY_NOT_ISSUED, PenaltyOrderQuerySet
from fogcontrol.notices.models import ServiceMethod

# P12: penalty monies go to a special account; billing posts the order's amount there.
PENALTY_ACCOUNT = "fog-penalties-p12"


class PenaltyOrder(_Served):
    """One penalty order for one kind of violation in a case: proposed by one authorised person,
    issued (its document issued, final, what billing reads) only on a second person's approval."""

    class Kind(models.TextChoices):
        NO_PERMIT = "no_permit", _("No permit (P7(1))")
        RECORDS = "records", _("Records (P7(2))")
        MAINTENANCE = "maintenance", _("Maintenance schedule (P7(3))")
        SSO = "sso", _("Sewer system overflow (P7(4), P7(5))")

    class Status(models.TextChoices):
        PROPOSED = "proposed", _("Proposed: waiting for a second approval")
        REFUSED = "refused", _("Refused at the second approval: never issued")
        FINAL = "final", _("Final on issuance (P8)")
        APPEALED = "appealed", _("Appealed to the Town Council: not final")
        UPHELD = "upheld", _("Upheld by the Town Council: final")
        OVERTURNED = "overturned", _("Overturned by the Town Council")

    NOT_ISSUED = PENALTY_NOT_ISSUED  # proposed, or refused at the second approval

    reference = models.CharField(max_length=20, unique=True, null=True, blank=True, editable=False)
    case = models.ForeignKey("enforcement.Case", on_delete=models.PROTECT, related_name="penalty_orders")
    complaint = models.ForeignKey(
        "enforcement.AdministrativeComplaint",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="penalty_orders",
    )
    violations = models.ManyToManyField("enforcement.Violation", related_name="penalty_orders")
    violation_kind = models.CharField(max_length=16, choices=Kind.choices)
    days = models.PositiveIntegerField(null=True, blank=True, help_text="P3: days, each a separate offence.")
    occurrences = models.PositiveIntegerField(null=True, blank=True, help_text="P7(4), P7(5): SSOs.")
    under_order = models.BooleanField(default=False, help_text="P7(5): an SSO while under an order.")
    amount = models.DecimalField(max_digits=12, decimal_places=2, validators=[MinValueValidator(0)])
    cap = models.DecimalField(max_digits=12, decimal_places=2, help_text="P7: the cap, from the ruleset.")
    # P7: what the hearing officer weighed.
    harm = models.TextField(help_text="P7: the extent of harm caused by the violation.")
    economic_benefit = models.TextField(
        help_text="P7: the economic benefit derived through the non-compliance."
    )
    nature_and_persistence = models.TextField(help_text="P7: the nature and persistence of the violation.")
    duration = models.TextField(help_text="P7: the length of time over which the violation occurred.")
    corrective_action = models.TextField(help_text="P7: the corrective action attempted or taken.")
    hearing_officer_name = models.CharField(max_length=200)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PROPOSED, db_index=True)
    # Issue and service come with the second approval (two-person rule): a proposal has neither.
    issued_on = models.DateField(null=True, blank=True)
    service_method = models.CharField(max_length=24, choices=ServiceMethod.choices, blank=True)
    served_on = models.DateField(null=True, blank=True, help_text="Empty when issued: waiting for mailing.")
    appeal_by = models.DateField(
        null=True, blank=True, help_text="P8, P6: the last day to appeal, counted from service (computed)."
    )
    payment_due_on = models.DateField(
        null=True, blank=True, db_index=True, help_text="P8: payment due (computed)."
    )
    account = models.CharField(max_length=40, default=PENALTY_ACCOUNT, help_text="P12: the penalty account.")
    paid_on = models.DateField(null=True, blank=True)
    explanation = models.JSONField(default=dict, blank=True, help_text="The cap's and P8's working.")
    # The two-person rule: proposed by ``recorded_by`` (the Hearing Officer or the FOG Manager), issued
    # only when a second, different one approves; a refusal keeps its reason (core.two_person).
    proposed_on = models.DateField(null=True, blank=True, help_text="The day it was proposed (Town time).")
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_by_label = models.CharField(max_length=150, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_note = models.TextField(blank=True)

    objects = PenaltyOrderQuerySet.as_manager()

    class Meta:
        ordering = ["-issued_on", "-pk"]

    def __str__(self) -> str:
        return f"Penalty order {self.reference or self.pk}: ${self.amount}"

    @property
    def in_effect(self) -> bool:
        """Issued on a second approval (final, appealed, upheld or overturned), not a proposal."""
        return self.status not in self.NOT_ISSUED
