"""Template versions: the Town's wording of each registered document, versioned by effective date.

A version in force on or before today is read-only (``TemplateVersionLocked``, 409): documents
issued under it must read as they did. A new version is drafted from the latest one and takes
effect on a future date. The first version of a key is the registered default text, created the
first time the key is used (issuing, drafting): no migration per document, and an app registering a
new document later needs nothing installed.
"""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.concurrency import check_fresh, save_versioned
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.notices.catalogue import NotRegistered, Registration, registered
from fogcontrol.notices.models import DocumentTemplate
from fogcontrol.notices.rendering import template_problems
from fogcontrol.notices.roles import TEMPLATE_EDITORS
from fogcontrol.program.selectors import town_today

FIRST_VERSION_ADOPTED_BY = "The program's default wording (not yet adopted by the Town)."
# The job label the first version is created under, whoever's action needed it.
INSTALL_ACTOR = "notices-install"


class TemplateVersionLocked(StateConflict):
    """A template version in force on or before today cannot be changed."""


def registration_for(key: str, *, field: str = "key") -> Registration:
    try:
        return registered(key)
    except NotRegistered as error:
        raise ValidationError({field: f"{error} Choose one of the documents the program issues."}) from None


def template_first_version(key: str, *, effective_from: dt.date) -> DocumentTemplate:
    """Version 1 of ``key`` (the registered default), created now if the key has none.

    Created under the job label ``notices-install`` and audited, in the caller's transaction."""
    existing = DocumentTemplate.objects.filter(key=key, version=1).first()
    if existing is not None:
        return existing
    registration = registration_for(key)
    template = DocumentTemplate(
        key=key,
        version=1,
        title=registration.title,
        body=registration.default_body,
        effective_from=effective_from,
        adopted_by=FIRST_VERSION_ADOPTED_BY,
        created_by_label=INSTALL_ACTOR,
    )
    try:
        with transaction.atomic():
            template.save(force_insert=True)
    except IntegrityError:  # created meanwhile by another request
        return DocumentTemplate.objects.get(key=key, version=1)
    audit_record(
        acting_user=INSTALL_ACTOR,
        action="document_template.install",
        instance=template,
        after=snapshot(template),
    )
    return template


def template_in_force(key: str, day: dt.date) -> DocumentTemplate:
    """The version of ``key`` in force on ``day`` (version 1 is created from the default if the key
    has none yet, in force from ``day``). ValidationError on ``issued_on`` before the first version."""
    registration_for(key)
    template = (
        DocumentTemplate.objects.filter(key=key, effective_from__lte=day)
        .order_by("-effective_from", "-version")
        .first()
    )
    if template is not None:
        return template
    if not DocumentTemplate.objects.filter(key=key).exists():
        return template_first_version(key, effective_from=day)
    first = DocumentTemplate.objects.filter(key=key).order_by("effective_from").first()
    raise ValidationError(
        {
            "issued_on": f"No wording of {key!r} was in force on {day:%Y-%m-%d}: its first version "
            f"took effect on {first.effective_from:%Y-%m-%d}. Issue it on or after that day."
        }
    )


def _require_editor(acting_user) -> None:
    require_role(
        acting_user,
        TEMPLATE_EDITORS,
        "Only the FOG Manager and the Hearing Officer change document templates.",
    )


def _lock_check(template: DocumentTemplate, today: dt.date) -> None:
    if template.effective_from <= today:
        raise TemplateVersionLocked(
            f"Version {template.version} of {template.key} took effect on {template.effective_from:%Y-%m-%d} "
            "and is read-only: documents issued under it must read as they did. Draft a new version."
        )


def _check(
    *, registration: Registration, title: str, body: str, effective_from, adopted_by: str, today: dt.date
) -> dict[str, str]:
    errors: dict[str, str] = {}
    if not title.strip():
        errors["title"] = "Give the document's title."
    if not body.strip():
        errors["body"] = "Give the document's text."
    for field, text in (("title", title), ("body", body)):
        problems = template_problems(text, allowed=registration.placeholders)
        if problems and field not in errors:
            errors[field] = " ".join(problems)
    if not adopted_by.strip():
        errors["adopted_by"] = (
            "Name the resolution or approval that adopted this wording, e.g. Res. 2026-41 or "
            "'Approved by the Town Attorney, 3 March 2026'."
        )
    if not isinstance(effective_from, dt.date):
        errors["effective_from"] = "Give the day this version takes effect, as YYYY-MM-DD, after today."
    elif effective_from <= today:
        errors["effective_from"] = (
            f"A new version must take effect after today ({today:%Y-%m-%d}): documents already issued "
            "keep the wording in force when they were issued. Choose tomorrow or a later date."
        )
    return errors


def _latest(key: str) -> DocumentTemplate | None:
    return (
        DocumentTemplate.objects.select_for_update(of=("self",)).filter(key=key).order_by("-version").first()
    )


@transaction.atomic
def template_version_draft(*, acting_user, key: str) -> DocumentTemplate:
    """A new version of ``key`` drafted from the latest one, taking effect tomorrow until edited.

    One draft at a time: while the latest version has not taken effect, edit it instead (409)."""
    _require_editor(acting_user)
    registration_for(key)
    today = town_today()
    latest = _latest(key) or template_first_version(key, effective_from=today)
    if latest.effective_from > today:
        raise TemplateVersionLocked(
            f"Version {latest.version} of {key} is a draft taking effect on {latest.effective_from:%Y-%m-%d}: "
            "edit it instead of drafting another."
        )
    draft = DocumentTemplate.objects.create(
        key=key,
        version=latest.version + 1,
        title=latest.title,
        body=latest.body,
        effective_from=today + dt.timedelta(days=1),
        adopted_by="",
        created_by=person(acting_user),
        created_by_label=actor_label_for(acting_user)[:150],
    )
    audit_record(
        acting_user=acting_user, action="document_template.draft", instance=draft, after=snapshot(draft)
    )
    return draft


@transaction.atomic
def template_version_update(
    *,
    acting_user,
    template: DocumentTemplate,
    title: str,
    body: str,
    effective_from: dt.date,
    adopted_by: str,
    expected_version: int | None = None,
) -> DocumentTemplate:
    """Change a draft version: its title, text, effective date and adoption. Unknown placeholders
    are refused with their names; a version in force is read-only (409); a draft saved by someone
    else since its editor opened it (`expected_version`, core/concurrency.py) is refused
    (`StaleRecord`, 409), never overwritten."""
    _require_editor(acting_user)
    template = DocumentTemplate.objects.select_for_update(of=("self",)).get(pk=template.pk)
    today = town_today()
    _lock_check(template, today)
    check_fresh(template, expected_version)
    registration = registration_for(template.key)
    title, body, adopted_by = (title or "").strip(), (body or "").strip(), (adopted_by or "").strip()
    errors = _check(
        registration=registration,
        title=title,
        body=body,
        effective_from=effective_from,
        adopted_by=adopted_by,
        today=today,
    )
    if errors:
        raise ValidationError(errors)
    before = snapshot(template)
    template.title, template.body = title, body
    template.effective_from, template.adopted_by = effective_from, adopted_by
    save_versioned(template, expected_version=expected_version)
    after = snapshot(template)
    if {k: v for k, v in before.items() if k != "updated_at"} != {
        k: v for k, v in after.items() if k != "updated_at"
    }:
        audit_record(
            acting_user=acting_user,
            action="document_template.update",
            instance=template,
            before=before,
            after=after,
        )
    return template


@transaction.atomic
def template_version_create(
    *, acting_user, key: str, title: str, body: str, effective_from: dt.date, adopted_by: str
) -> DocumentTemplate:
    """A new version in one step (the API): drafted from the latest, then given its wording."""
    draft = template_version_draft(acting_user=acting_user, key=key)
    return template_version_update(
        acting_user=acting_user,
        template=draft,
        title=title,
        body=body,
        effective_from=effective_from,
        adopted_by=adopted_by,
    )
