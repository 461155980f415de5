"""The steps of a case this module keeps: the notice of violation, the administrative citation (P2),
the compliance schedule agreement with its milestones (H1-H4) and referrals to the courts or the
District Attorney (P11, P4, P1), recorded as outcomes. Each points at its case; the case page puts
them on one timeline with what is due next (``selectors/steps.py``)."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from fogcontrol.notices.models import ServiceMethod


class _Recorded(models.Model):
    recorded_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_by_label = models.CharField(max_length=150, blank=True)

    class Meta:
        abstract = True


class _Served(_Recorded):
    issued_on = models.DateField()
    service_method = models.CharField(max_length=24, choices=ServiceMethod.choices)
    served_on = models.DateField()
    article_number = models.CharField(
        max_length=64, blank=True, help_text="Certified or registered mail number."
    )
    # The document as issued (notices app): its text, from the Town's template, is a copy of record.
    document = models.OneToOneField(
        "notices.IssuedDocument", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        abstract = True


class NoticeOfViolation(_Served):
    """A written notice to the FSE of its violations, the provisions and what it must do by when."""

    case = models.ForeignKey(
        "enforcement.Case", on_delete=models.PROTECT, related_name="notices_of_violation"
    )
    violations = models.ManyToManyField("enforcement.Violation", related_name="notices_of_violation")
    required_action = models.TextField(help_text="What the FSE must do to correct the violations.")
    correct_by = models.DateField(help_text="The date set for the correction.")

    class Meta:
        ordering = ["issued_on", "pk"]

    def __str__(self) -> str:
        return f"Notice of violation of {self.issued_on}"


class AdministrativeCitation(_Served):
    """P2: an administrative citation under the Town's Chapter 1.01, recorded as issued."""

    case = models.ForeignKey("enforcement.Case", on_delete=models.PROTECT, related_name="citations")
    violation = models.ForeignKey("enforcement.Violation", on_delete=models.PROTECT, related_name="citations")
    number = models.CharField(max_length=40, unique=True, help_text="The citation number (Chapter 1.01).")
    amount = models.DecimalField(max_digits=10, decimal_places=2, validators=[MinValueValidator(0)])
    chapter = models.CharField(max_length=20, default="1.01")
    paid_on = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["issued_on", "pk"]

    def __str__(self) -> str:
        return f"Citation {self.number}"


class ComplianceAgreement(_Recorded):
    """H1, H2: a compliance schedule agreement, its terms, and (H4) whether it was met."""

    class Status(models.TextChoices):
        IN_FORCE = "in_force", _("In force")
        MET = "met", _("Met: every milestone done")
        NOT_MET = "not_met", _("Not met in its term (H4)")

    case = models.ForeignKey("enforcement.Case", on_delete=models.PROTECT, related_name="agreements")
    agreed_on = models.DateField()
    terms = models.TextField(help_text="H2: the terms (audits of hauling records, BMPs, fee payment, ...).")
    signed_by = models.CharField(max_length=200, help_text="Who signed for the FSE.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.IN_FORCE)
    document = models.OneToOneField(
        "notices.IssuedDocument", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["agreed_on", "pk"]

    def __str__(self) -> str:
        return f"Compliance schedule agreement of {self.agreed_on}"


class AgreementMilestone(models.Model):
    """One dated milestone of a CSA; missed when not met by its date (H4)."""

    agreement = models.ForeignKey(ComplianceAgreement, on_delete=models.CASCADE, related_name="milestones")
    description = models.CharField(max_length=300)
    due_on = models.DateField(db_index=True)
    met_on = models.DateField(null=True, blank=True)
    evidence = models.TextField(blank=True)
    missed_flagged_on = models.DateField(null=True, blank=True, help_text="H4: the day it was found missed.")

    class Meta:
        ordering = ["due_on", "pk"]

    def __str__(self) -> str:
        return f"{self.description} by {self.due_on}"


class Referral(_Recorded):
    """A referral out of the administrative process, recorded with its outcome: judicial civil
    penalties (P11), an injunction (P4) or a criminal citation (P1)."""

    class Kind(models.TextChoices):
        JUDICIAL = "judicial", _("Judicial civil penalties (P11)")
        INJUNCTION = "injunction", _("Injunction (P4)")
        CRIMINAL = "criminal", _("Criminal citation (P1)")

    case = models.ForeignKey("enforcement.Case", on_delete=models.PROTECT, related_name="referrals")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    violations = models.ManyToManyField("enforcement.Violation", related_name="referrals")
    referred_on = models.DateField()
    referred_to = models.CharField(max_length=200, help_text="The Town Attorney, the District Attorney, ...")
    outcome = models.TextField(blank=True)
    outcome_on = models.DateField(null=True, blank=True)
    # P10: a judicial civil penalty recovered bars an administrative one for the same violations.
    amount_recovered = models.DecimalField(
        max_digits=12, decimal_places=2, null=True, blank=True, validators=[MinValueValidator(0)]
    )

    class Meta:
        ordering = ["referred_on", "pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} referral of {self.referred_on}"
