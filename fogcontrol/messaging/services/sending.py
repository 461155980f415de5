"""Sending a batch of queued messages (the task's service), with what a kind needs: a permit notice
carries its letter as a PDF and records the outcome on the notice (permits' ``notice_email_outcome``)."""

from __future__ import annotations

import dataclasses

from django.contrib.contenttypes.models import ContentType

from fogcontrol.messaging.models import Kind, Message, Status
from fogcontrol.messaging.recipients import Recipient, of_party, recipients_of, unique
from fogcontrol.messaging.services.messages import Draft, message_deliver, messages_queue
from fogcontrol.permits.models import PermitNotice
from fogcontrol.permits.services import notice_email_letter, notice_email_outcome
from fogcontrol.permits.services.common import town_contacts


def notice_readers(notice: PermitNotice) -> dict[str, Recipient]:
    """Who each address of a notice belongs to, with their language (issue 18): the party it is
    addressed to (A2), the establishment's contact, operator and active users. By address."""
    people = [of_party(notice.party)]
    if notice.establishment is not None:
        people += recipients_of(notice.establishment)
    return {recipient.email.lower(): recipient for recipient in unique(people)}


def permit_notice_queue(*, notice: PermitNotice, acting_user) -> list[Message]:
    """Queue a permit notice's e-mail to each of its addresses (permits' ``notice_recorded``), each
    in the reader's language when the notice was written in it (every notice since issue 18; else the English of record)."""
    readers = notice_readers(notice)
    drafts = []
    for address in notice.email_to:
        reader = readers.get(address.lower()) or Recipient(email=address, name="")
        reader = dataclasses.replace(reader, email=address, language=notice.language_written(reader.language))
        drafts.append(
            Draft(Kind.PERMIT_NOTICE, reader, notice, notice.sent_on, {}, notice.establishment_id,
                  text=notice_email_letter(notice, reader.language))
        )  # fmt: skip
    return messages_queue(acting_user=acting_user, drafts=drafts, on=notice.sent_on)


def _permit_notice(message: Message) -> PermitNotice | None:
    if message.kind != Kind.PERMIT_NOTICE:
        return None
    return PermitNotice.objects.filter(pk=message.subject_id).first()


def messages_send(*, message_ids: list[int]) -> dict[str, int]:
    """Send each queued message of ``message_ids`` (others are skipped); {status: count}."""
    counts = {Status.SENT: 0, Status.FAILED: 0}
    notice_type = ContentType.objects.get_for_model(PermitNotice)
    for message in Message.objects.filter(pk__in=message_ids, status=Status.QUEUED).order_by("pk"):
        notice = _permit_notice(message) if message.subject_type_id == notice_type.pk else None
        attachments = ()
        if notice is not None:
            # Imported here to keep WeasyPrint out of the import path of every service.
            from fogcontrol.permits.pdf import notice_pdf

            attachments = [
                (
                    f"notice-{notice.pk}.pdf",
                    notice_pdf(notice, town_contacts(), language=message.language),
                    "application/pdf",
                )
            ]
        sent = message_deliver(message_id=message.pk, attachments=attachments)
        if sent is None:
            continue
        counts[sent.status] += 1
        if notice is not None:
            notice_email_outcome(notice=notice, sent=sent.status == Status.SENT, error=sent.error)
    return counts
