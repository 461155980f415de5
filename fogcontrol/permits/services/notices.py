"""Notices to permittees: recorded with the date sent and the method, emailed and printable (B7, B6).

The notice record is written in the caller's transaction; the email goes out after commit (a
background task), so a mail server that is down never undoes the decision it reports. Its outcome
is written back to the notice, and the letter can always be printed instead.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from django.conf import settings
from django.core.mail import EmailMessage
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.languages import Language
from fogcontrol.core.queue import enqueue_on_commit
from fogcontrol.permits.models import PermitNotice
from fogcontrol.permits.services.common import town_contacts
from fogcontrol.permits.signals import notice_recorded


def permittee_emails(establishment, application=None) -> list[str]:
    """Everyone who should receive the permittee's mail: contact, operator, its users, the applicant."""
    addresses = []
    for party in (establishment.contact, establishment.operator):
        if party is not None and party.email:
            addresses.append(party.email)
    addresses.extend(user.email for user in establishment.users.all() if user.email and user.is_active)
    if application is not None and application.applicant_email:
        addresses.append(application.applicant_email)
    seen: list[str] = []
    for address in addresses:
        if address.lower() not in {a.lower() for a in seen}:
            seen.append(address)
    return seen


def permittee_addressee(establishment) -> str:
    """The letter's address block: the business name (A1) and the operator's mailing address, or the site."""
    lines = [establishment.business_name]
    operator = establishment.operator
    if operator is not None and operator.mailing_address:
        if operator.name and operator.name != establishment.business_name:
            lines.append(f"Attn: {operator.contact_name or operator.name}")
        lines.append(operator.mailing_address)
    else:
        lines.append(establishment.site_address)
    return "\n".join(lines)


def party_addressee(party) -> str:
    """The letter's address block for a party (a property owner or designee, A2)."""
    lines = [party.name]
    if party.contact_name and party.contact_name != party.name:
        lines.append(f"Attn: {party.contact_name}")
    if party.mailing_address:
        lines.append(party.mailing_address)
    return "\n".join(lines)


def party_has_contact(party) -> bool:
    """A party can be told in writing: it has an e-mail or a mailing address on record."""
    return bool(party is not None and (party.email or party.mailing_address))


def permittee_has_contact(establishment) -> bool:
    """The permittee can be told in writing: an e-mail of its contact, operator or users, or the
    mailing address of its contact or operator, is on record."""
    if permittee_emails(establishment):
        return True
    return any(
        party is not None and party.mailing_address
        for party in (establishment.contact, establishment.operator)
    )


def notice_day(day: dt.date) -> str:
    """A date in a notice, in the active language: "Friday, July 3, 2026" (as ``rules.explain.fmt_date``),
    "viernes 3 de julio de 2026"."""
    return date_format(day, _("l, F j, Y"))


def notice_texts(wording: Callable[[], tuple[str, str]]) -> dict[str, tuple[str, str]]:
    """Issue 18: a notice written in every language the program writes in: ``wording`` (built with
    ``gettext`` and ``notice_day``) called once under each language. {language: (subject, body)}."""
    texts = {}
    for language in Language.values:
        with translation.override(language):
            texts[language] = wording()
    return texts


def notice_send(
    *,
    acting_user,
    establishment=None,
    kind: str,
    subject: str = "",
    body: str = "",
    wording: Callable[[], tuple[str, str]] | None = None,
    sent_on: dt.date,
    permit=None,
    application=None,
    modification=None,
    party=None,
    device=None,
    mailing_record: str = "",
) -> PermitNotice:
    """Record a notice and send it: by email when the addressee has an address, and as a letter.

    The addressee is the permittee (`establishment`), or a `party` such as the property owner of a
    shared device (A2), who gets a letter only when a mailing address is on record.

    The text is ``subject`` and ``body`` (English), or ``wording`` (issue 18): written in every
    language (``notice_texts``), the English kept as the notice's subject and body and the others in
    ``translations``, so each addressee's e-mail and letter go out in their language.
    """
    translations = {}
    if wording is not None:
        texts = notice_texts(wording)
        subject, body = texts.pop(Language.ENGLISH)
        translations = {language: {"subject": s, "body": b} for language, (s, b) in texts.items()}
    if party is not None:
        emails = [party.email] if party.email else []
        addressee = party_addressee(party)
        by_letter = bool(party.mailing_address)
    else:
        emails = permittee_emails(establishment, application)
        addressee = permittee_addressee(establishment)
        by_letter = True
    if emails and by_letter:
        method = PermitNotice.Method.EMAIL_AND_LETTER
    else:
        method = PermitNotice.Method.EMAIL if emails else PermitNotice.Method.LETTER
    notice = PermitNotice.objects.create(
        establishment=establishment,
        party=party,
        device=device,
        permit=permit,
        application=application,
        modification=modification,
        kind=kind,
        subject=subject,
        body=body,
        addressee=addressee,
        sent_on=sent_on,
        method=method,
        email_to=emails,
        mailing_record=mailing_record,
        translations=translations,
        created_by=person(acting_user),
        created_by_label=actor_label_for(acting_user),
    )
    audit_record(acting_user=acting_user, action="notice.send", instance=notice, after=snapshot(notice))
    if emails:
        answers = notice_recorded.send(sender=PermitNotice, notice=notice, acting_user=acting_user)
        if not any(taken for _receiver, taken in answers):
            enqueue_on_commit("fogcontrol.permits.tasks.send_notice_email", notice.pk)
    return notice


def notice_email_letter(notice: PermitNotice, language: str = Language.ENGLISH) -> tuple[str, str]:
    """The e-mail of a notice: its subject and its text signed by the FOG Manager, in ``language``
    when the notice was written in it (else the English of record)."""
    contacts = town_contacts()
    language = notice.language_written(language)
    with translation.override(language):
        manager = contacts["fog_manager_name"] or _("FOG Manager")
    subject, body = notice.text_in(language)
    return subject, f"{body}\n\n{manager}\n{contacts['town_name']}"


def notice_email_outcome(*, notice: PermitNotice, sent: bool, error: str = "") -> PermitNotice:
    """Record on the notice how its e-mail went (the apps that send it call this): sent, or the error.
    The first success stands."""
    if sent:
        if notice.email_sent_at is None:
            notice.email_sent_at = timezone.now()
        notice.email_error = ""
    elif notice.email_sent_at is None:
        notice.email_error = error[:2000]
    notice.save(update_fields=["email_sent_at", "email_error"])
    return notice


def notice_email_deliver(*, notice: PermitNotice) -> PermitNotice:
    """Email a recorded notice with its letter attached; record the outcome. Safe to run twice."""
    if notice.email_sent_at is not None or not notice.email_to:
        return notice
    # Imported here to keep WeasyPrint out of the import path of every service.
    from fogcontrol.permits.pdf import notice_pdf

    contacts = town_contacts()
    message = EmailMessage(
        subject=notice.subject,
        body=f"{notice.body}\n\n{contacts['fog_manager_name'] or 'FOG Manager'}\n{contacts['town_name']}",
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=list(notice.email_to),
        reply_to=[contacts["fog_manager_email"]] if contacts["fog_manager_email"] else None,
    )
    message.attach(f"notice-{notice.pk}.pdf", notice_pdf(notice, contacts), "application/pdf")
    try:
        message.send()
    except Exception as error:  # noqa: BLE001 - any mail failure is recorded, never raised to the user
        notice.email_error = f"{type(error).__name__}: {error}"[:2000]
        notice.save(update_fields=["email_error"])
        return notice
    notice.email_sent_at = timezone.now()
    notice.email_error = ""
    notice.save(update_fields=["email_sent_at", "email_error"])
    return notice
