"""Documents the Town issues (notices, complaints, orders, decisions, letters, invoices) and the
versioned templates they are written from.

``DocumentTemplate``: the Town's wording of one registered document (``catalogue.register``), in
versions; the version in force on a day is the latest whose ``effective_from`` is on or before it.
A version in force on or before today is read-only (what was issued under it must stay explainable).

``IssuedDocument``: a copy of record on core's chain (``fogcontrol.core.records``): the rendered
title and text, the provisions cited, the letterhead, the addressee, the template version and the
values it was filled with (``submission``), exactly as issued. Database triggers refuse any change.

``DocumentService``: how and when a document was served (one row per recording, never edited: a
later recording supersedes the earlier one). Kept outside the sealed record because a document is
often issued today and served, or proven served, later.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.files import RandomName
from fogcontrol.core.languages import DEFAULT_LANGUAGE, Language
from fogcontrol.core.models import CopyOfRecord
from fogcontrol.notices.querysets import (
    DocumentServiceQuerySet,
    DocumentTemplateQuerySet,
    IssuedDocumentQuerySet,
)
from fogcontrol.registry.models import FoodServiceEstablishment


class ServiceMethod(models.TextChoices):
    PERSONAL_DELIVERY = "personal_delivery", _("Personal delivery")
    CERTIFIED_MAIL = "certified_mail", _("Certified mail")
    REGISTERED_MAIL = "registered_mail", _("Registered mail")
    FIRST_CLASS_MAIL = "first_class_mail", _("First-class mail")
    EMAIL = "email", _("Email")
    POSTED_ON_SITE = "posted_on_site", _("Posted on site")


# Mail whose delivery is proven by an article number.
TRACKED_METHODS = frozenset({ServiceMethod.CERTIFIED_MAIL, ServiceMethod.REGISTERED_MAIL})


class DocumentTemplate(models.Model):
    """One version of the Town's wording of a registered document."""

    key = models.CharField(max_length=64, db_index=True)
    version = models.PositiveIntegerField()
    title = models.CharField(max_length=300)
    body = models.TextField()
    effective_from = models.DateField(help_text="The first day documents are issued from this version.")
    adopted_by = models.CharField(
        max_length=300, blank=True, help_text="The resolution or approval that adopted this wording."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_by_label = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Optimistic concurrency on a draft (core/concurrency.py): `version` is the wording's number, so
    # the saves are counted here.
    concurrency_field = "edit_version"
    edit_version = models.PositiveIntegerField(
        default=1, editable=False, help_text="Moves on by one at each save (optimistic concurrency)."
    )

    objects = DocumentTemplateQuerySet.as_manager()

    class Meta:
        ordering = ["key", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["key", "version"], name="document_template_version_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.key} v{self.version}"


class IssuedDocument(CopyOfRecord):
    """A document as issued: a copy of record, never changed (see the module docstring)."""

    ServiceMethod = ServiceMethod

    key = models.CharField(max_length=64, db_index=True)
    template = models.ForeignKey(DocumentTemplate, on_delete=models.PROTECT, related_name="documents")
    template_version = models.PositiveIntegerField()
    establishment = models.ForeignKey(
        FoodServiceEstablishment, on_delete=models.PROTECT, related_name="issued_documents"
    )
    addressee = models.TextField()
    title = models.CharField(max_length=300)
    body = models.TextField(help_text="The text as issued.")
    provisions = models.CharField(
        max_length=300, blank=True, help_text="The provisions cited, comma-separated."
    )
    letterhead = models.TextField(help_text="The Town's letterhead as it stood on issue, one line each.")
    issued_on = models.DateField(db_index=True)
    subject_type = models.ForeignKey(
        ContentType, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    subject_id = models.PositiveBigIntegerField(null=True, blank=True)

    objects = IssuedDocumentQuerySet.as_manager()

    class Meta:
        ordering = ["-issued_on", "-pk"]
        indexes = [models.Index(fields=["subject_type", "subject_id"], name="issued_document_subject")]

    def __str__(self) -> str:
        return f"D-{self.pk} {self.title}"

    @property
    def reference(self) -> str:
        return f"D-{self.pk}"

    @property
    def provision_list(self) -> list[str]:
        return [item.strip() for item in self.provisions.split(",") if item.strip()]

    @property
    def letterhead_lines(self) -> list[str]:
        return self.letterhead.splitlines()

    @property
    def language(self) -> str:
        """The language it was written in (issue 18; recorded in the submission, English before)."""
        try:
            language = json.loads(self.submission or "{}").get("language")
        except (ValueError, AttributeError):
            language = None
        return language if language in Language.values else DEFAULT_LANGUAGE.value


class DocumentService(models.Model):
    """How and when a document was served. Written once per recording; the latest one stands."""

    document = models.ForeignKey(IssuedDocument, on_delete=models.PROTECT, related_name="services")
    method = models.CharField(max_length=24, choices=ServiceMethod.choices)
    served_on = models.DateField(null=True, blank=True, help_text="Empty: to be served.")
    article_number = models.CharField(max_length=64, blank=True, help_text="Certified or registered mail.")
    note = models.TextField(blank=True)
    recorded_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_by_label = models.CharField(max_length=150)

    objects = DocumentServiceQuerySet.as_manager()

    class Meta:
        ordering = ["-recorded_at", "-pk"]

    def __str__(self) -> str:
        when = f"{self.served_on:%Y-%m-%d}" if self.served_on else "not yet served"
        return f"{self.get_method_display()}, {when}"


class PrintBatch(models.Model):
    """Issue #17, #16: one PDF of many documents (the certified or registered mail run), rendered by
    the background worker (``tasks.render_print_batch``) so that a large run never holds a request.
    ``rendered`` of ``total`` shows its progress; the file is kept under a random name and goes out
    only through the access-checked download view, never from a public URL."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RENDERING = "rendering", "Rendering"
        DONE = "done", "Ready"
        FAILED = "failed", "Failed"

    class Kind(models.TextChoices):
        MAIL_RUN = "mail_run", "Certified and registered mail run"

    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.MAIL_RUN)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    document_ids = models.JSONField(default=list, help_text="The documents, in print order.")
    total = models.PositiveIntegerField(default=0)
    rendered = models.PositiveIntegerField(default=0)
    file = models.FileField(upload_to=RandomName("notices/batches"), blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_by_label = models.CharField(max_length=150, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Print batch {self.pk}: {self.rendered} of {self.total}"

    @property
    def is_running(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RENDERING)
