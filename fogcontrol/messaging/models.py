"""E-mail the program sends (issue #17): reminders, notices and invitations.

``Message``: one e-mail to one recipient, rendered from the Town's versioned wording (the notices
app's ``DocumentTemplate``, one key per kind and language) and kept as sent: kind, recipient,
language, template version, subject and text, and its delivery (queued, sent, failed, bounced).
``dedupe_key`` is unique: one recipient × kind × subject record × due date is written once, so a
nightly sweep run twice, or a retried task, sends nothing twice.

``Invitation``: the FOG Manager invites an FSE, property-owner or hauler user; the e-mail carries a
single-use link (a random token, kept only as its hash) that expires.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.languages import DEFAULT_LANGUAGE, Language
from fogcontrol.core.roles import Role
from fogcontrol.messaging.querysets import InvitationQuerySet, MessageQuerySet


class Kind(models.TextChoices):
    SERVICE_DUE = "service_due", _("Device service due (E1)")
    SERVICE_OVERDUE = "service_overdue", _("Device service overdue (E1)")
    PERMIT_RENEWAL = "permit_renewal", _("Permit renewal due (B6)")
    TRAINING_DUE = "training_due", _("Employee training due (C4)")
    REPORT_DUE = "report_due", _("Report due (C5, F2, F3, F6)")
    INVOICE_ISSUED = "invoice_issued", _("Invoice issued (Q1, P8, N1)")
    INVOICE_DELINQUENT = "invoice_delinquent", _("Invoice delinquent (Q1, P8, P9)")
    HEARING = "hearing", _("Hearing date (L2, P5, M3)")
    PERMIT_NOTICE = "permit_notice", _("Permit notice (B6, B7)")
    INVITATION = "invitation", _("Invitation to the portal")


class Status(models.TextChoices):
    QUEUED = "queued", _("Queued")
    SENT = "sent", _("Sent")
    FAILED = "failed", _("Failed")
    BOUNCED = "bounced", _("Bounced")


class Message(models.Model):
    """One e-mail to one recipient, as rendered and sent (see the module docstring)."""

    Kind = Kind
    Status = Status

    kind = models.CharField(max_length=24, choices=Kind.choices, db_index=True)
    dedupe_key = models.CharField(
        max_length=64, unique=True, help_text="sha256 of recipient × kind × subject × due date."
    )
    to_email = models.EmailField(db_index=True)
    to_name = models.CharField(max_length=200, blank=True)
    language = models.CharField(max_length=2, choices=Language.choices, default=DEFAULT_LANGUAGE)
    template_key = models.CharField(max_length=64, blank=True)
    template_version = models.PositiveIntegerField(null=True, blank=True)
    subject = models.CharField(max_length=300)
    body = models.TextField()
    due_on = models.DateField(null=True, blank=True, help_text="The due date the message is about.")
    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="messages",
    )
    party = models.ForeignKey(
        "registry.Party", null=True, blank=True, on_delete=models.PROTECT, related_name="messages"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="messages"
    )
    subject_type = models.ForeignKey(
        ContentType, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    subject_id = models.PositiveBigIntegerField(null=True, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED, db_index=True)
    queued_at = models.DateTimeField(auto_now_add=True, db_index=True)
    claimed_at = models.DateTimeField(null=True, blank=True, help_text="A worker took it to send.")
    sent_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True, help_text="Why sending failed.")
    bounced_at = models.DateTimeField(null=True, blank=True)
    bounce_reason = models.TextField(blank=True)
    created_by_label = models.CharField(max_length=150, blank=True)

    objects = MessageQuerySet.as_manager()

    class Meta:
        ordering = ["-queued_at", "-pk"]
        indexes = [models.Index(fields=["subject_type", "subject_id"], name="message_subject")]

    def __str__(self) -> str:
        return f"M-{self.pk} {self.kind} to {self.to_email}"

    @staticmethod
    def describe_sql(alias: str) -> tuple[str, list]:
        """``str()`` of the message row ``alias`` in SQL, for the audit entries the database
        writes of the messages written from value rows (``audit.set_sql``)."""
        return f"'M-' || {alias}.id || ' ' || {alias}.kind || ' to ' || {alias}.to_email", []

    @property
    def reference(self) -> str:
        return f"M-{self.pk}"


INVITABLE_ROLES = (Role.FSE, Role.PROPERTY_OWNER, Role.HAULER)
INVITABLE_ROLE_CHOICES = [(role.value, role.label) for role in INVITABLE_ROLES]


class Invitation(models.Model):
    """An invitation to an outside user, bound to its establishment, parcel or hauler company."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Sent, not yet used")
        ACCEPTED = "accepted", _("Accepted")
        REVOKED = "revoked", _("Withdrawn")

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="invitation")
    role = models.CharField(max_length=32, choices=INVITABLE_ROLE_CHOICES)
    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="invitations",
    )
    parcel = models.ForeignKey(
        "registry.Parcel", null=True, blank=True, on_delete=models.PROTECT, related_name="invitations"
    )
    hauler = models.ForeignKey(
        "registry.HaulerCompany",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="invitations",
    )
    token_hash = models.CharField(max_length=64, unique=True, help_text="sha256 of the link's token.")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING, db_index=True)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    invited_by_label = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = InvitationQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Invitation of {self.user} ({self.get_role_display()})"

    @property
    def bound_to(self):
        return self.establishment or self.parcel or self.hauler
