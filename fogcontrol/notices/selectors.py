"""Every read of documents and templates, scoped to the user (outside the scope: 404)."""

from __future__ import annotations

from django.contrib.contenttypes.models import ContentType
from django.db.models import OuterRef, Prefetch, QuerySet, Subquery
from django.utils import translation
from django.utils.translation import gettext

from fogcontrol.core.scoping import VIEW
from fogcontrol.notices.catalogue import all_registered
from fogcontrol.notices.models import (
    TRACKED_METHODS,
    DocumentService,
    DocumentTemplate,
    IssuedDocument,
    PrintBatch,
)


def templates_visible_to(user, action: str = VIEW) -> QuerySet[DocumentTemplate]:
    return DocumentTemplate.objects.visible_to(user, action)


def template_versions(user, key: str) -> QuerySet[DocumentTemplate]:
    """Every version of ``key``, newest first: one query."""
    return templates_visible_to(user).filter(key=key).order_by("-version")


def template_version_detail(user, pk) -> DocumentTemplate:
    return templates_visible_to(user).get(pk=pk)


def documents_visible_to(user, action: str = VIEW) -> QuerySet[IssuedDocument]:
    return IssuedDocument.objects.visible_to(user, action)


def documents_for(user, subject=None, establishment=None) -> QuerySet[IssuedDocument]:
    """The documents ``user`` may see, newest first, optionally those about ``subject`` (any record)
    or issued to ``establishment``; each with its establishment, ``served`` and its services
    (latest first, as ``service_list``) in two queries."""
    queryset = (
        documents_visible_to(user)
        .with_served()
        .select_related("establishment")
        .prefetch_related(
            Prefetch(
                "services",
                queryset=DocumentService.objects.order_by("-recorded_at", "-pk"),
                to_attr="service_list",
            )
        )
        .order_by("-issued_on", "-pk")
    )
    if subject is not None:
        queryset = queryset.filter(
            subject_type=ContentType.objects.get_for_model(subject, for_concrete_model=True),
            subject_id=subject.pk,
        )
    if establishment is not None:
        queryset = queryset.filter(establishment=establishment)
    return queryset


def document_detail(user, pk) -> IssuedDocument:
    return documents_for(user).get(pk=pk)


def current_service(document: IssuedDocument) -> DocumentService | None:
    """The service that stands: the latest recorded (from ``documents_for``'s prefetch when there)."""
    services = getattr(document, "service_list", None)
    if services is None:
        services = list(document.services.order_by("-recorded_at", "-pk"))
    return services[0] if services else None


def default_addressee(establishment, language: str | None = None) -> str:
    """The address block a document to ``establishment`` starts from: the business name (A1), the
    operator's mailing address when on record, else the site; "Attn:" in ``language`` (issue 18;
    the active language when None)."""
    lines = [establishment.business_name]
    operator = establishment.operator
    if operator is not None and operator.mailing_address:
        if operator.name and operator.name != establishment.business_name:
            with translation.override(language or translation.get_language()):
                attention = gettext("Attn: %(name)s") % {"name": operator.contact_name or operator.name}
            lines.append(attention)
        lines.append(operator.mailing_address)
    else:
        lines.append(establishment.site_address)
    return "\n".join(line for line in lines if line)


def version_in_force(versions, day) -> DocumentTemplate | None:
    """Of one document's ``versions`` (already fetched), the one in force on ``day``: the latest
    effective on or before it, the higher version breaking a tie; None before the first."""
    return max((v for v in versions if v.effective_from <= day), key=lambda v: (v.effective_from, v.version),
               default=None)  # fmt: skip


def template_overview(user, day) -> list[dict]:
    """Each registered document with its version in force on ``day`` and its draft, if any: one
    query for every version (staff only; anyone else sees an empty list)."""
    versions: dict[str, list[DocumentTemplate]] = {}
    for template in templates_visible_to(user).order_by("key", "-version"):
        versions.setdefault(template.key, []).append(template)
    rows = []
    for registration in all_registered():
        of_key = versions.get(registration.key, [])
        in_force = version_in_force(of_key, day)
        draft = next((v for v in of_key if v.effective_from > day), None)
        rows.append(
            {"registration": registration, "in_force": in_force, "draft": draft, "count": len(of_key)}
        )
    return rows


def documents_to_mail(user) -> QuerySet[IssuedDocument]:
    """Issued documents waiting to go by certified or registered mail (issue #17): the service that
    stands names a tracked method and no day yet. Staff's; oldest issue first, one query."""
    latest = DocumentService.objects.filter(document=OuterRef("pk")).order_by("-recorded_at", "-pk")
    return (
        IssuedDocument.objects.visible_to(user)
        .annotate(
            mail_method=Subquery(latest.values("method")[:1]),
            mail_served_on=Subquery(latest.values("served_on")[:1]),
            mail_article=Subquery(latest.values("article_number")[:1]),
        )
        .filter(mail_method__in=TRACKED_METHODS, mail_served_on__isnull=True)
        .select_related("establishment")
        .order_by("issued_on", "pk")
    )


def print_batches_visible_to(user) -> QuerySet[PrintBatch]:
    """Print batches (issue #17): the Town's staff see every batch (they see every document it
    prints); anyone else none, so a batch outside the scope is a 404."""
    if not getattr(user, "is_program_staff", False):
        return PrintBatch.objects.none()
    return PrintBatch.objects.all()


def print_batch_detail(user, pk) -> PrintBatch:
    return print_batches_visible_to(user).get(pk=pk)
