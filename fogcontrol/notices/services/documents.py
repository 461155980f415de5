"""Issuing documents and recording their service.

``document_issue`` renders the template version in force on the issue date with the values given,
and stores the result as a copy of record on core's chain (``record_append``; database triggers
refuse any later change): the title and text as issued, the provisions cited, the Town's letterhead
as it then stood, the addressee, the template version and the values (``submission``).

How and when it was served is a separate, audited ``DocumentService`` row, written at issue and
again each time service is recorded later (certified mail returned with its receipt, a posting on
site): the sealed text never changes, and the latest service recorded stands.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import translation
from django.utils.translation import gettext as _

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.languages import DEFAULT_LANGUAGE, establishment_recipient, language_of
from fogcontrol.core.permissions import require_role
from fogcontrol.core.records import canonical_submission, record_append
from fogcontrol.notices.catalogue import NotRegistered, registered
from fogcontrol.notices.models import TRACKED_METHODS, DocumentService, IssuedDocument, ServiceMethod
from fogcontrol.notices.rendering import placeholders_used, render
from fogcontrol.notices.roles import DOCUMENT_ISSUERS, ISSUERS_ONLY
from fogcontrol.notices.services.templates import registration_for, template_in_force
from fogcontrol.notices.signals import document_served
from fogcontrol.program.selectors import town_profile, town_today


def letterhead_text(language: str = DEFAULT_LANGUAGE) -> str:
    """The Town's letterhead from its profile (program's TownProfile), one line each, in ``language``."""
    profile = town_profile()
    with translation.override(language):
        lines = [profile.name, _("FOG Control Program")]
        if profile.fog_manager_name:
            lines.append(_("%(name)s, FOG Manager") % {"name": profile.fog_manager_name})
    lines.extend(line.strip() for line in profile.fog_manager_address.splitlines() if line.strip())
    contact = " · ".join(item for item in (profile.fog_manager_phone, profile.fog_manager_email) if item)
    if contact:
        lines.append(contact)
    return "\n".join(lines)


def wording_key(key: str, language: str) -> tuple[str, str]:
    """Issue 18: the template a document is written from in ``language``, and the language it is
    then in: ``<key>_<language>`` when an app registered the document's wording in that language
    (``<key>_es``), else the document's own (English) wording."""
    if language != DEFAULT_LANGUAGE:
        try:
            return registered(f"{key}_{language}").key, language
        except NotRegistered:
            pass
    return key, DEFAULT_LANGUAGE.value


def document_language_for(establishment) -> str:
    """The language a document to ``establishment`` is written in: its contact's (else its
    operator's) preference, as its e-mails (docs/messaging.md); English by default."""
    return language_of(establishment_recipient(establishment))


def _service_errors(
    *, method: Any, served_on: Any, article_number: str, issued_on: dt.date, today: dt.date
) -> dict[str, str]:
    errors: dict[str, str] = {}
    if method not in ServiceMethod.values:
        errors["service_method"] = (
            f"Unknown service method {method!r}. Use one of: {', '.join(ServiceMethod.values)}."
        )
    elif method in TRACKED_METHODS and not article_number.strip():
        errors["article_number"] = (
            f"{ServiceMethod(method).label} needs the article number from the mailing receipt."
        )
    if served_on is not None:
        if not isinstance(served_on, dt.date):
            errors["served_on"] = "Give the day it was served, as YYYY-MM-DD."
        elif served_on > today:
            errors["served_on"] = (
                f"{served_on:%Y-%m-%d} is after today ({today:%Y-%m-%d}): record service once it is done."
            )
        elif served_on < issued_on:
            errors["served_on"] = (
                f"A document is served on or after the day it is issued ({issued_on:%Y-%m-%d})."
            )
    return errors


def _subject_fields(subject) -> dict[str, Any]:
    if subject is None:
        return {"subject_type": None, "subject_id": None}
    if not isinstance(subject, models.Model) or subject.pk is None:
        raise ValidationError({"subject": "The subject must be a saved record (or none)."})
    return {
        "subject_type": ContentType.objects.get_for_model(subject, for_concrete_model=True),
        "subject_id": subject.pk,
    }


def _service_record(document, *, acting_user, method, served_on, article_number, note="") -> DocumentService:
    service = DocumentService.objects.create(
        document=document,
        method=method,
        served_on=served_on,
        article_number=article_number.strip(),
        note=note.strip(),
        recorded_by=person(acting_user),
        recorded_by_label=actor_label_for(acting_user)[:150],
    )
    audit_record(
        acting_user=acting_user, action="document.service", instance=service, after=snapshot(service)
    )
    return service


@transaction.atomic
def document_issue(
    *,
    acting_user,
    key: str,
    establishment,
    addressee: str,
    context: dict[str, str],
    subject=None,
    service_method: str,
    served_on: dt.date | None,
    article_number: str = "",
    issued_on: dt.date | None = None,
    language: str | None = None,
) -> IssuedDocument:
    """Issue the document registered as ``key`` to ``establishment``, written from the template
    version in force on ``issued_on`` (default: the Town's today) with the ``context`` values.

    Issue 18: written in ``language`` (default: the establishment's contact's preference) from the
    wording registered in it (``<key>_es``, ``wording_key``), else in English; the document keeps
    ``key`` and records its language in the submission (``IssuedDocument.language``). The caller
    gives the values in that language (dates: ``core.languages.document_date``).

    Refused with ValidationError naming the field: an unknown key, an empty addressee, a value
    missing for a placeholder the wording uses (``context``), an unknown service method, certified
    or registered mail without its article number, an issue or service date after today.
    """
    require_role(acting_user, DOCUMENT_ISSUERS, ISSUERS_ONLY)
    registration = registration_for(key)
    today = town_today()
    issued_on = issued_on or today
    errors: dict[str, str] = {}
    if not isinstance(issued_on, dt.date) or issued_on > today:
        errors["issued_on"] = f"Give the day of issue, today ({today:%Y-%m-%d}) or earlier."
        issued_on = today
    if not (addressee or "").strip():
        errors["addressee"] = "Give the addressee: the name and the mailing address the document goes to."
    if establishment is None or getattr(establishment, "pk", None) is None:
        errors["establishment"] = "Name the establishment the document is issued to."
    errors.update(
        _service_errors(
            method=service_method,
            served_on=served_on,
            article_number=article_number or "",
            issued_on=issued_on,
            today=today,
        )
    )
    if not isinstance(context, dict):
        raise ValidationError({"context": "Give the document's values as placeholder name → text.", **errors})
    if errors:
        raise ValidationError(errors)
    if language is None:
        language = document_language_for(establishment)
    template_key, language = wording_key(key, language)
    registration = registration_for(template_key)
    template = template_in_force(template_key, issued_on)
    needed = placeholders_used(template.title) + [
        name for name in placeholders_used(template.body) if name not in placeholders_used(template.title)
    ]
    missing = [name for name in needed if not str(context.get(name) or "").strip()]
    if missing:
        meanings = "; ".join(f"{{{name}}}: {registration.placeholders.get(name, '')}" for name in missing)
        raise ValidationError(
            {"context": f"Give a value for each placeholder the wording uses. Missing: {meanings}."}
        )
    not_text = sorted(name for name in needed if not isinstance(context[name], str))
    if not_text:
        raise ValidationError({"context": f"Give each value as text: {', '.join(not_text)}."})
    values = {name: context[name].strip() for name in needed}
    document = IssuedDocument(
        key=key,
        template=template,
        template_version=template.version,
        establishment=establishment,
        addressee=addressee.strip(),
        title=render(template.title, values)[:300],
        body=render(template.body, values),
        provisions=", ".join(registration.provisions),
        letterhead=letterhead_text(language),
        issued_on=issued_on,
        submission=canonical_submission(
            {
                "key": key,
                "template_version": template.version,
                "context": {name: str(value) for name, value in context.items()},
                "service_method": service_method,
                "served_on": served_on,
                "article_number": article_number,
                "language": language,
            }
        ),
        **_subject_fields(subject),
    )
    record_append(document, acting_user=acting_user)
    audit_record(
        acting_user=acting_user, action="document.issue", instance=document, after=snapshot(document)
    )
    _service_record(
        document,
        acting_user=acting_user,
        method=service_method,
        served_on=served_on,
        article_number=article_number or "",
    )
    return document


@transaction.atomic
def document_record_service(
    *,
    acting_user,
    document: IssuedDocument,
    service_method: str,
    served_on: dt.date,
    article_number: str = "",
    note: str = "",
) -> DocumentService:
    """Record how and when ``document`` was served, after it was issued (the latest recording stands;
    earlier ones stay on record). Refused like ``document_issue``: the method, the article number for
    certified or registered mail, and a service day from the day of issue to today."""
    require_role(acting_user, DOCUMENT_ISSUERS, ISSUERS_ONLY)
    today = town_today()
    errors = _service_errors(
        method=service_method,
        served_on=served_on,
        article_number=article_number or "",
        issued_on=document.issued_on,
        today=today,
    )
    if served_on is None:
        errors["served_on"] = "Give the day it was served, as YYYY-MM-DD."
    if errors:
        raise ValidationError(errors)
    service = _service_record(
        document,
        acting_user=acting_user,
        method=service_method,
        served_on=served_on,
        article_number=article_number or "",
        note=note or "",
    )
    # The apps above learn of it (enforcement counts its dates from the day served): notices/signals.py.
    document_served.send(sender=IssuedDocument, document=document, service=service, acting_user=acting_user)
    return service


@transaction.atomic
def documents_mail_log(*, acting_user, entries: list[dict]) -> list[DocumentService]:
    """Issue #17, the mail log: for each letter of a certified or registered mail run, the article
    number and the day it was mailed, recorded as its service (``document_record_service``, the
    method it was waiting for). All or nothing: a row in error saves none, and the errors name the
    row (``{"rows": {document id: {field: message}}}``)."""
    require_role(acting_user, DOCUMENT_ISSUERS, ISSUERS_ONLY)
    if not entries:
        raise ValidationError({"rows": "Fill in at least one letter: its article number and mailing date."})
    recorded, errors = [], {}
    for entry in entries:
        document = entry["document"]
        try:
            with transaction.atomic():
                recorded.append(
                    document_record_service(
                        acting_user=acting_user, document=document, service_method=entry["method"],
                        served_on=entry.get("mailed_on"), article_number=entry.get("article_number") or "",
                        note="Mail log (certified or registered mail run).",
                    )
                )  # fmt: skip
        except ValidationError as error:
            errors[document.reference] = "; ".join(" ".join(m) for m in error.message_dict.values())
    if errors:
        raise ValidationError({"rows": [f"{ref}: {message}" for ref, message in errors.items()]})
    return recorded
