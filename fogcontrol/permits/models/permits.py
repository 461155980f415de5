"""FOG permits, their versions and modifications (B1, B2, B6-B8).

A `Permit` is the permit as the FSE knows it: one number, issued to the business name of the
licence records (A1), with its current terms kept on the row for lists. Every issue, renewal and
modification writes a `PermitVersion`: the terms as printed, with the Town's contacts as they were,
so that any version reprints exactly as issued. Old versions are kept.
"""

from django.conf import settings
from django.db import models
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.files import RandomName
from fogcontrol.permits.querysets import (
    LATEST_FIRST,
    PermitModificationQuerySet,
    PermitNoticeQuerySet,
    PermitQuerySet,
    PermitVersionQuerySet,
    RemodelNoticeQuerySet,
)
from fogcontrol.registry.models import GreaseControlDevice


class PermitStatus(models.TextChoices):
    ISSUED = "issued", _("Issued (in force)")
    EXPIRED = "expired", _("Expired")
    SUSPENDED = "suspended", _("Suspended")
    REVOKED = "revoked", _("Revoked")
    SUPERSEDED = "superseded", _("Superseded")


class Permit(models.Model):
    """A FOG permit (B1, B2): device kind and size, service frequency, term (B6).

    Issued to the FSE's business name as in the licence records (A1). `valid_until` is the last day
    of the term: the business licence's expiry, never later than the B6 term (the renewal date,
    moved to a business day under CCP §12a; rules.permit_term); the permit expires the day after.
    It changes state (suspended, revoked, reinstated) only by a recorded `PermitOrder` (L, M). A B8
    change replaces the permit with a new one (`superseded_by`).
    """

    number = models.CharField(max_length=20, unique=True, null=True, blank=True, editable=False)
    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment", on_delete=models.PROTECT, related_name="permits"
    )
    device = models.ForeignKey(
        "registry.GreaseControlDevice",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="permits",
    )
    status = models.CharField(
        max_length=16, choices=PermitStatus.choices, default=PermitStatus.ISSUED, db_index=True
    )
    first_issued_on = models.DateField()
    # The current terms (the version in effect), kept here so that lists need no join.
    version_number = models.PositiveIntegerField(default=1)
    term_start = models.DateField()
    valid_until = models.DateField(db_index=True, help_text="Last day of the term (B6).")
    device_kind = models.CharField(max_length=32, choices=GreaseControlDevice.Kind.choices)
    device_capacity_gallons = models.PositiveIntegerField(null=True, blank=True)
    device_rated_flow_gpm = models.PositiveIntegerField(null=True, blank=True)
    service_frequency_days = models.PositiveSmallIntegerField()
    superseded_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="supersedes"
    )
    status_reason = models.TextField(blank=True, help_text="Why the permit was suspended or revoked.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = PermitQuerySet.as_manager()

    class Meta:
        ordering = list(LATEST_FIRST)
        # The list's order (page and API): a page is read off the index, not sorted (issue 16).
        indexes = [models.Index(fields=["-first_issued_on", "-id"], name="permit_list_order")]

    def __str__(self) -> str:
        return f"FOG permit {self.number or '(unnumbered)'}"

    @property
    def device_size(self) -> str:
        """B2: the GCD size as printed: gallons for an interceptor, rated flow for a trap."""
        parts = []
        # In the reader's language, numbers grouped as the language writes them ("1,000", "1.000").
        if self.device_capacity_gallons:
            gallons = number_format(self.device_capacity_gallons, force_grouping=True)
            parts.append(gettext("%(gallons)s gallons") % {"gallons": gallons})
        if self.device_rated_flow_gpm:
            gpm = number_format(self.device_rated_flow_gpm)
            parts.append(gettext("%(gpm)s gpm rated flow") % {"gpm": gpm})
        return ", ".join(parts) or gettext("not stated")


class PermitVersion(models.Model):
    """The terms of a permit as issued on a day: the copy of record of each issue (B2, B6-B8)."""

    class Reason(models.TextChoices):
        ISSUED = "issued", _("Issued")
        RENEWED = "renewed", _("Renewed (B6)")
        MODIFIED = "modified", _("Modified (B7)")
        LICENCE = "licence", _("Expiry aligned to the business licence (B6)")

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="versions")
    number = models.PositiveIntegerField()
    reason = models.CharField(max_length=16, choices=Reason.choices)
    effective_from = models.DateField()
    term_start = models.DateField()
    valid_until = models.DateField()
    # A1: the permittee as in the business licence records, on the day of issue.
    business_name = models.CharField(max_length=200)
    licence_number = models.CharField(max_length=64)
    # B6: the licence's expiry when the version was written; the permit runs with it.
    licence_expires_on = models.DateField(null=True, blank=True)
    site_address = models.CharField(max_length=200)
    # B2: the approved GCD and its service frequency.
    device_identifier = models.CharField(max_length=32, blank=True)
    device_kind = models.CharField(max_length=32, choices=GreaseControlDevice.Kind.choices)
    device_capacity_gallons = models.PositiveIntegerField(null=True, blank=True)
    device_rated_flow_gpm = models.PositiveIntegerField(null=True, blank=True)
    service_frequency_days = models.PositiveSmallIntegerField()
    conditions = models.TextField(blank=True)
    compliance_schedule = models.TextField(
        blank=True, help_text="B7: the time given to comply with a change."
    )
    # A4, A5: what the sizing check found wrong with the approved device when the permit was issued,
    # and the condition (with its compliance date) on which it was issued all the same.
    device_findings = models.JSONField(default=list, blank=True)
    device_condition = models.TextField(blank=True)
    device_compliance_date = models.DateField(null=True, blank=True)
    # B2, J1, J2: the Town's spill contacts and the FOG Manager's address, as printed.
    contacts = models.JSONField(default=dict)
    application = models.ForeignKey(
        "permits.PermitApplication", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    modification = models.ForeignKey(
        "permits.PermitModification", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    issued_at = models.DateTimeField()
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    issued_by_label = models.CharField(max_length=150)

    objects = PermitVersionQuerySet.as_manager()

    class Meta:
        ordering = ["permit", "-number"]
        constraints = [models.UniqueConstraint(fields=["permit", "number"], name="permit_version_unique")]

    def __str__(self) -> str:
        return f"{self.permit} version {self.number}"

    @property
    def device_size(self) -> str:
        return Permit.device_size.fget(self)


class PermitModification(models.Model):
    """A change of a permit's terms during its life (B7): service frequency or conditions.

    The permittee is told (a `PermitNotice`); the change takes effect no sooner than the B7 notice
    allows, and then the permit is reissued as a new version, the old one kept. A change of
    frequency approved by the FOG Manager needs no new application (B8).
    """

    class Status(models.TextChoices):
        NOTIFIED = "notified", _("Notice given; not yet in effect")
        EFFECTIVE = "effective", _("In effect")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="modifications")
    changes = models.JSONField(help_text='e.g. {"service_frequency_days": 60}')
    previous_values = models.JSONField(default=dict)
    reason = models.TextField()
    compliance_schedule = models.TextField(blank=True)
    notice_date = models.DateField(help_text="The day the permittee was told (B7).")
    earliest_effective_on = models.DateField()
    effective_on = models.DateField()
    explanation = models.JSONField(default=dict)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.NOTIFIED, db_index=True)
    proposed_at = models.DateTimeField(auto_now_add=True)
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    proposed_by_label = models.CharField(max_length=150)
    version = models.ForeignKey(
        PermitVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    withdrawn_reason = models.TextField(blank=True)
    # B7: a notice dated before the day it was recorded needs the FOG Manager's reason and the
    # mailing record (certified mail article number, date mailed); both are audited.
    backdating_reason = models.TextField(blank=True)
    mailing_record = models.TextField(blank=True)

    objects = PermitModificationQuerySet.as_manager()

    class Meta:
        ordering = ["-effective_on", "-pk"]

    def __str__(self) -> str:
        return f"Modification of {self.permit} effective {self.effective_on:%Y-%m-%d}"

    @property
    def summary(self) -> str:
        """The change in words: "service frequency from every 90 days to every 60 days"."""
        parts = []
        if "service_frequency_days" in self.changes:
            before = self.previous_values.get("service_frequency_days")
            parts.append(
                f"service frequency from every {before} days to every {self.changes['service_frequency_days']} days"
                if before
                else f"service frequency to every {self.changes['service_frequency_days']} days"
            )
        if "conditions" in self.changes:
            parts.append("permit conditions revised")
        return "; ".join(parts)


class PermitNotice(models.Model):
    """A notice sent to a permittee, with the date sent and how (B7; issue and renewal notices).

    The letter is printable as a PDF at any time; the email, when the permittee has an address, is
    sent through Django's mail and its outcome recorded here. A notice about a device (a change of
    its service frequency) names the device; for a shared device it goes to the property owner or
    the owner's designee (`party`, A2) rather than to an establishment.
    """

    class Kind(models.TextChoices):
        PERMIT_ISSUED = "permit_issued", _("Permit issued (B5)")
        MODIFICATION = "modification", _("Proposed change of permit terms (B7)")
        RENEWAL_REMINDER = "renewal_reminder", _("Permit renewal reminder (B6)")
        LICENCE_EXPIRY = "licence_expiry", _("Permit expiry follows the business licence (B6)")
        ORDER = "order", _("Suspension, revocation or reinstatement order (L, M)")
        APPLICATION_REJECTED = "application_rejected", _("Application rejected")
        INFORMATION_REQUESTED = "information_requested", _("Information requested (B3)")
        FREQUENCY_CHANGE = "frequency_change", _("Proposed change of service frequency (B7, A2)")

    class Method(models.TextChoices):
        EMAIL = "email", _("Email")
        LETTER = "letter", _("Letter")
        EMAIL_AND_LETTER = "email_and_letter", _("Email and letter")

    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="permit_notices",
    )
    # A2: the property owner or designee a notice about a shared device is addressed to.
    party = models.ForeignKey(
        "registry.Party", null=True, blank=True, on_delete=models.PROTECT, related_name="notices"
    )
    device = models.ForeignKey(
        "registry.GreaseControlDevice",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="notices",
    )
    permit = models.ForeignKey(
        Permit, null=True, blank=True, on_delete=models.PROTECT, related_name="notices"
    )
    application = models.ForeignKey(
        "permits.PermitApplication", null=True, blank=True, on_delete=models.PROTECT, related_name="notices"
    )
    modification = models.ForeignKey(
        PermitModification, null=True, blank=True, on_delete=models.PROTECT, related_name="notices"
    )
    kind = models.CharField(max_length=32, choices=Kind.choices)
    subject = models.CharField(max_length=200)
    body = models.TextField()
    addressee = models.TextField(help_text="Name and mailing address as printed on the letter.")
    sent_on = models.DateField()
    method = models.CharField(max_length=20, choices=Method.choices)
    email_to = models.JSONField(default=list, blank=True)
    email_sent_at = models.DateTimeField(null=True, blank=True)
    email_error = models.TextField(blank=True)
    # B7: when the notice was mailed before it was recorded, the evidence (article number, date mailed).
    mailing_record = models.TextField(blank=True)
    # Issue 18: the same notice written in the other languages at the time it was sent,
    # {"es": {"subject": …, "body": …}}; `subject` and `body` are the English of record.
    translations = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_by_label = models.CharField(max_length=150)

    objects = PermitNoticeQuerySet.as_manager()

    class Meta:
        ordering = ["-sent_on", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(establishment__isnull=False) | models.Q(party__isnull=False),
                name="notice_has_a_recipient",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} sent {self.sent_on:%Y-%m-%d}"

    def text_in(self, language: str) -> tuple[str, str]:
        """The notice's subject and body in ``language``: as written in it when it was sent, else
        the English of record (a notice written before, or by code that writes English only)."""
        written = (self.translations or {}).get(language) or {}
        if written.get("subject") and written.get("body"):
            return written["subject"], written["body"]
        return self.subject, self.body

    def language_written(self, language: str) -> str:
        """``language`` when the notice was written in it, else English."""
        return language if (self.translations or {}).get(language) else "en"

    @property
    def addressee_name(self) -> str:
        """The first line of the address block: who the notice is addressed to."""
        return self.addressee.splitlines()[0] if self.addressee else ""


class RemodelNotice(models.Model):
    """The FSE's written notice of an expansion, remodel or process change (G1), and its plan review (G2).

    G1: at least the ruleset's `remodel_notice_days` before the work starts; a notice filed later is
    kept and flagged late. G2: the change needs an application, plan review and fees before any work.
    """

    class Kind(models.TextChoices):
        EXPANSION = "expansion", _("Facility expansion")
        REMODEL = "remodel", _("Remodel")
        PROCESS_CHANGE = "process_change", _("Process change that may add FOG")

    class PlanReview(models.TextChoices):
        AWAITING_PLANS = "awaiting_plans", _("Plan review requested: plans awaited")
        PLANS_RECEIVED = "plans_received", _("Plans received: in review")
        APPROVED = "approved", _("Plans approved")
        REVISIONS_REQUIRED = "revisions_required", _("Revisions required")

    reference = models.CharField(max_length=20, unique=True, null=True, blank=True, editable=False)
    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment", on_delete=models.PROTECT, related_name="remodel_notices"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    description = models.TextField()
    planned_start = models.DateField()
    filed_on = models.DateField()
    latest_notice_on = models.DateField(help_text="G1: the last day notice could be given in time.")
    late = models.BooleanField(default=False)
    explanation = models.JSONField(default=dict)
    plan_review = models.CharField(
        max_length=24, choices=PlanReview.choices, default=PlanReview.AWAITING_PLANS, db_index=True
    )
    plans = models.FileField(upload_to=RandomName("permits/remodel"), blank=True)
    plans_sha256 = models.CharField(max_length=64, blank=True)
    plan_review_notes = models.TextField(blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = RemodelNoticeQuerySet.as_manager()

    class Meta:
        ordering = ["-filed_on", "-pk"]

    def __str__(self) -> str:
        return f"{self.reference or 'Remodel notice'} — {self.get_kind_display()}"


# The steps that change no state, as the timeline names them in the reader's language (by the
# stored action code; an action not listed shows its code).
EVENT_ACTIONS = {
    "condition_attached": _("Condition attached"),
    "condition_ended": _("Condition ended"),
    "permit.modify": _("Permit changed"),
    "permit.modification.propose": _("Change proposed (B7)"),
    "permit.modification.withdraw": _("Proposed change withdrawn"),
    "permit.modification.effective": _("Change in effect"),
    "permit.licence_expiry": _("Business licence expiry"),
    "permit.order.record": _("Order recorded"),
    "permit.order.decide": _("Order decided"),
    "permit.order.appeal": _("Order appealed"),
    "permit.order.notice_mailed": _("Order notice mailed"),
    "permit.order.apply": _("Order applied"),
    "permit.issue": _("Permit issued"),
    "application.create": _("Application started"),
    "application.issue": _("Permit issued"),
    "application.inspection": _("Pre-permit inspection"),
    "application.schedule_inspection": _("Inspection scheduled"),
    "application.document": _("Document added"),
    "fee.assess": _("Fee assessed"),
    "fee.invoice": _("Fee invoiced"),
    "fee.pay": _("Fee paid"),
    "fee.release": _("Fee no longer billed"),
    "fee.waive": _("Fee waived"),
}


class PermitEvent(models.Model):
    """One step in the life of an application or permit: who, when, from which state to which.

    The timeline the pages show; the audit trail keeps the field-by-field before/after.
    """

    at = models.DateTimeField(auto_now_add=True, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor_label = models.CharField(max_length=150)
    application = models.ForeignKey(
        "permits.PermitApplication", null=True, blank=True, on_delete=models.CASCADE, related_name="events"
    )
    permit = models.ForeignKey(Permit, null=True, blank=True, on_delete=models.CASCADE, related_name="events")
    action = models.CharField(max_length=64)
    from_status = models.CharField(max_length=32, blank=True)
    to_status = models.CharField(max_length=32, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor_label} {self.action}"

    @property
    def what(self) -> str:
        """What happened, as the timeline shows it: the state reached, named in the reader's
        language (not its stored value); a step that changes no state, by its action."""
        if not self.to_status:
            return str(EVENT_ACTIONS.get(self.action, self.action))
        from fogcontrol.permits.models.applications import ApplicationStatus

        choices = ApplicationStatus if self.application_id else PermitStatus
        return str(dict(choices.choices).get(self.to_status, self.to_status))
