"""Orders that suspend, revoke or reinstate a permit, with the process the chapter requires (L1-L6, M1-M3).

A permit is never suspended or revoked in one click. Under 10.02.260 the permittee gets written notice
of the facts and grounds (L1) by certified mail, a hearing 15 to 45 days after mailing (L2), continued
by no more than 60 days in total (L3), a written decision within 30 days after the hearing ends (L4),
and the order takes effect when final: not appealed to the Town Council, or upheld (L5, L6). Under
10.02.270 an emergency suspension order takes effect at once (M1), with a hearing within 5 business
days that does not stay it and a written decision within 2 business days, final (M3).

The enforcement work will keep the whole case. Until then a `PermitOrder` records that process, and a
permit changes state (suspended, revoked, reinstated) only by applying a recorded order.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from fogcontrol.permits.querysets import PermitOrderQuerySet


class PermitOrder(models.Model):
    """A suspension, revocation, emergency suspension or reinstatement order, with its process (L, M)."""

    class Kind(models.TextChoices):
        SUSPENSION = "suspension", _("Suspension (L1-L6)")
        REVOCATION = "revocation", _("Revocation (L1-L6)")
        EMERGENCY_SUSPENSION = "emergency_suspension", _("Emergency suspension (M1-M3)")
        REINSTATEMENT = "reinstatement", _("Reinstatement")

    class Ground(models.TextChoices):
        """L1: the determinations on which a permit may be suspended or revoked."""

        CSA_NOT_MET = "csa_not_met", _("Failed to comply with a compliance schedule agreement (H4)")
        FALSE_STATEMENT = "false_statement", _("Knowingly provided a false statement, record or report")
        RECORDS_REFUSED = "records_refused", _("Refused to provide records, reports or plans")
        TAMPERING = "tampering", _("Falsified or tampered with a monitoring device or sampling")
        ACCESS_REFUSED = "access_refused", _("Refused reasonable access for inspection and monitoring")
        UNPAID = "unpaid", _("Did not pay amounts owed to the Town on time")
        INTERFERENCE = "interference", _("Caused interference, sewer blockages or SSOs")
        VIOLATION = "violation", _("Violated maintenance requirements, a permit condition or the chapter")

    class Outcome(models.TextChoices):
        """What the hearing officer's written decision orders (L3, L4; M3)."""

        ORDERED = "ordered", _("Ordered as proposed (the emergency order confirmed)")
        TEMPORARY_SUSPENSION = "temporary_suspension", _("A temporary suspension ordered instead (L3)")
        NOT_ORDERED = "not_ordered", _("Not ordered (the emergency order set aside)")

    class Appeal(models.TextChoices):
        """L6: the decision is final unless appealed to the Town Council (Chapter 2.04); M3: final."""

        OPEN = "open", _("Appeal period open: not yet final (L6)")
        APPEALED = "appealed", _("Appealed to the Town Council: not final (L6)")
        NOT_APPEALED = "not_appealed", _("Not appealed: final (L6)")
        UPHELD = "upheld", _("Upheld by the Town Council: final (L6)")
        OVERTURNED = "overturned", _("Overturned by the Town Council (L6)")
        NOT_APPEALABLE = "not_appealable", _("Final, not appealable (M3)")

    reference = models.CharField(max_length=20, unique=True, null=True, blank=True, editable=False)
    permit = models.ForeignKey("permits.Permit", on_delete=models.PROTECT, related_name="orders")
    kind = models.CharField(max_length=24, choices=Kind.choices)
    grounds = models.JSONField(default=list, blank=True, help_text="L1: the grounds, as Ground values.")
    facts = models.TextField(
        help_text="L2: the statement of facts; M1: the determination; or why reinstated."
    )
    # L2: the written notice, by certified mail, with the time and place of the hearing.
    notice_mailed_on = models.DateField(null=True, blank=True)
    certified_mail_number = models.CharField(max_length=64, blank=True)
    hearing_on = models.DateField(null=True, blank=True, help_text="L2: the hearing date in the notice; M3.")
    hearing_place = models.CharField(max_length=200, blank=True)
    hearing_earliest_on = models.DateField(null=True, blank=True, help_text="L2 floor (computed).")
    hearing_latest_on = models.DateField(null=True, blank=True, help_text="L2 or M3 limit (computed).")
    # M1: the emergency suspension order.
    emergency_order_on = models.DateField(null=True, blank=True)
    determined_by = models.CharField(
        max_length=200,
        blank=True,
        help_text="M1: who determined the suspension necessary (e.g. the FOG Manager).",
    )
    # L3, L4 / M3: the hearing and the written decision and order.
    hearing_concluded_on = models.DateField(null=True, blank=True)
    decision_due_on = models.DateField(null=True, blank=True, help_text="L4 or M3 limit (computed).")
    decision_on = models.DateField(null=True, blank=True)
    hearing_officer_name = models.CharField(max_length=200, blank=True)
    outcome = models.CharField(max_length=24, choices=Outcome.choices, blank=True)
    decision = models.TextField(blank=True, help_text="The written decision and order, or its terms.")
    decision_mail_number = models.CharField(
        max_length=64, blank=True, help_text="L4, M3: the certified mail number of the written decision."
    )
    # L6: appeal to the Town Council, else final.
    appeal_status = models.CharField(max_length=16, choices=Appeal.choices, blank=True)
    final_on = models.DateField(null=True, blank=True, help_text="The day the order became final.")
    # A reinstatement ends a suspension order.
    ends_order = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="ended_by"
    )
    # The working of every computed limit, keyed by provision (L2, L3, L4, M3).
    explanation = models.JSONField(default=dict, blank=True)
    recorded_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_by_label = models.CharField(max_length=150)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_by_label = models.CharField(max_length=150, blank=True)
    applied_on = models.DateField(null=True, blank=True, help_text="The day the permit's state changed.")
    applied_at = models.DateTimeField(null=True, blank=True)
    applied_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    applied_by_label = models.CharField(max_length=150, blank=True)

    objects = PermitOrderQuerySet.as_manager()

    class Meta:
        ordering = ["-recorded_at", "-pk"]

    def __str__(self) -> str:
        return f"Order {self.reference or '(unnumbered)'}: {self.get_kind_display()}"

    @property
    def is_process_order(self) -> bool:
        """A suspension or revocation under 10.02.260 (L1-L6)."""
        return self.kind in (self.Kind.SUSPENSION, self.Kind.REVOCATION)

    @property
    def action(self) -> str:
        """What applying the order does to the permit: suspend, revoke or reinstate ("" for nothing)."""
        if self.kind == self.Kind.REINSTATEMENT:
            return "reinstate"
        if self.kind == self.Kind.EMERGENCY_SUSPENSION:
            return "suspend"
        if self.outcome == self.Outcome.TEMPORARY_SUSPENSION:
            return "suspend"
        if self.outcome == self.Outcome.ORDERED:
            return "suspend" if self.kind == self.Kind.SUSPENSION else "revoke"
        return ""

    @property
    def grounds_display(self) -> list[str]:
        labels = dict(self.Ground.choices)
        return [str(labels.get(ground, ground)) for ground in self.grounds]
