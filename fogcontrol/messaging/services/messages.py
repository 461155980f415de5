"""Queueing, sending and bouncing messages: the one path every e-mail of the program takes.

``messages_queue`` writes each message once (its ``dedupe_key`` is unique: recipient × kind ×
subject record × due date), rendered from the Town's wording in force (notices' ``DocumentTemplate``,
one key per kind and language), audited in bulk, and queues the sending task after commit.
``message_deliver`` (the task) claims a queued message, sends it through Django's e-mail backend
(EMAIL_URL: SMTP, or files in the data directory) and records sent or failed. ``message_bounce``
records a bounce reported by the mail system or by staff.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import hashlib

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.utils import timezone

from fogcontrol.audit.services import audit_record, audit_records_bulk, snapshot
from fogcontrol.core.actors import actor_label_for
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.languages import Language
from fogcontrol.core.permissions import require_role
from fogcontrol.core.queue import enqueue_on_commit
from fogcontrol.core.set_sql import insert_rows, json_values
from fogcontrol.messaging.models import Message, Status
from fogcontrol.messaging.recipients import Recipient
from fogcontrol.messaging.roles import MESSAGE_MANAGERS
from fogcontrol.messaging.wording import template_key
from fogcontrol.notices.rendering import render
from fogcontrol.notices.services import template_in_force
from fogcontrol.program.selectors import town_profile

SEND_TASK = "fogcontrol.messaging.tasks.send_messages"
SENDER = "messaging.send"

MESES = ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
         "octubre", "noviembre", "diciembre")  # fmt: skip


@dataclasses.dataclass(frozen=True)
class Draft:
    """A message to write: its kind, recipient, the record it is about, the due date and the values
    its template fills in (dates and amounts are formatted in the recipient's language)."""

    kind: str
    recipient: Recipient
    subject: object  # the record the message is about (a model instance)
    due_on: dt.date | None
    values: dict
    establishment_id: int | None = None
    # Wording written by the caller (permit notices): (subject, body); no template then.
    text: tuple[str, str] | None = None


def format_value(value, language: str) -> str:
    """A value as the message prints it: a date in words in the recipient's language, an amount in
    dollars."""
    if isinstance(value, dt.date):
        if language == Language.SPANISH:
            return f"{value.day} de {MESES[value.month - 1]} de {value.year}"
        return f"{value:%B} {value.day}, {value.year}"
    if isinstance(value, decimal.Decimal):
        return f"${value:,.2f}"
    return "" if value is None else str(value)


def dedupe_key(draft: Draft) -> str:
    content_type = ContentType.objects.get_for_model(type(draft.subject))
    raw = "|".join(
        [
            draft.kind,
            draft.recipient.email.strip().lower(),
            f"{content_type.app_label}.{content_type.model}",
            str(draft.subject.pk),
            draft.due_on.isoformat() if draft.due_on else "",
        ]
    )
    return hashlib.sha256(raw.encode()).hexdigest()


def _common_values() -> dict[str, str]:
    profile = town_profile()
    return {
        "town_name": profile.name,
        "fog_manager_name": profile.fog_manager_name or "FOG Manager",
        "fog_manager_phone": profile.fog_manager_phone,
        "fog_manager_email": profile.fog_manager_email,
    }


def _message(draft: Draft, *, key: str, on: dt.date, templates: dict, common: dict, label: str) -> Message:
    language = draft.recipient.language if draft.recipient.language in Language.values else Language.ENGLISH
    template = None
    if draft.text is not None:
        subject, body = draft.text
    else:
        name = template_key(draft.kind, language)
        if name not in templates:
            templates[name] = template_in_force(name, on)
        template = templates[name]
        values = {**common, "business_name": "", "recipient_name": draft.recipient.name}
        values.update({k: format_value(v, language) for k, v in draft.values.items()})
        subject, body = render(template.title, values), render(template.body, values)
    return Message(
        kind=draft.kind,
        dedupe_key=key,
        to_email=draft.recipient.email,
        to_name=draft.recipient.name[:200],
        language=language,
        template_key=template.key if template else "",
        template_version=template.version if template else None,
        subject=subject[:300],
        body=body,
        due_on=draft.due_on,
        establishment_id=draft.establishment_id,
        party_id=draft.recipient.party_id,
        user_id=draft.recipient.user_id,
        subject_type=ContentType.objects.get_for_model(type(draft.subject)),
        subject_id=draft.subject.pk,
        created_by_label=label[:150],
    )


def _insert(messages: list[Message]) -> list[Message]:
    """Insert the messages in one statement (``core.set_sql.insert_rows``: ``bulk_create`` takes
    one a few dozen rows on SQLite); one already written meanwhile (another run) is skipped, not
    sent twice."""
    try:
        with transaction.atomic():
            return insert_rows(messages)
    except IntegrityError:
        created = []
        for message in messages:
            try:
                with transaction.atomic():
                    message.save(force_insert=True)
            except IntegrityError:
                continue
            created.append(message)
        return created


def _written(keys: list[str]) -> set[str]:
    """The keys among ``keys`` already written: one query, the keys sent as one JSON parameter
    (``dedupe_key__in`` of a list binds a parameter a key, thousands a chunk)."""
    return set(
        Message.objects.filter(dedupe_key__in=json_values(keys, integers=False)).values_list(
            "dedupe_key", flat=True
        )
    )


@transaction.atomic
def messages_queue(*, acting_user, drafts: list[Draft], on: dt.date) -> list[Message]:
    """Write each draft not written before as a queued message and send them after commit.

    Returns the messages written now (an empty list when everything was sent before). Three
    queries for the check, the insert and the audit, whatever the number (plus the Town's profile
    and each template's first use in the call)."""
    keyed: dict[str, Draft] = {}
    for draft in drafts:
        keyed.setdefault(dedupe_key(draft), draft)
    if not keyed:
        return []
    existing = _written(list(keyed))
    label = actor_label_for(acting_user)
    templates: dict = {}
    common = _common_values()
    new = [
        _message(draft, key=key, on=on, templates=templates, common=common, label=label)
        for key, draft in keyed.items()
        if key not in existing
    ]
    if not new:
        return []
    created = _insert(new)
    audit_records_bulk(
        acting_user=acting_user,
        action="message.queue",
        changes=[(message, None, snapshot(message)) for message in created],
        batch_size=max(1, len(created)),  # the chunk's entries in one statement, as its messages
    )
    if created:
        enqueue_on_commit(SEND_TASK, [message.pk for message in created])
    return created


def _claim(message_id: int) -> Message | None:
    """Take a queued message to send; None when it was sent, failed or is being sent already."""
    now = timezone.now()
    taken = Message.objects.filter(pk=message_id, status=Status.QUEUED, claimed_at__isnull=True).update(
        claimed_at=now
    )
    if not taken:
        return None
    return Message.objects.get(pk=message_id)


def _email(message: Message, attachments) -> EmailMessage:
    profile = town_profile()
    email = EmailMessage(
        subject=message.subject,
        body=message.body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[message.to_email],
        reply_to=[profile.fog_manager_email] if profile.fog_manager_email else None,
        headers={"X-FOG-Message": message.reference},
    )
    for attachment in attachments:
        email.attach(*attachment)
    return email


def message_deliver(*, message_id: int, attachments=()) -> Message | None:
    """Send one queued message and record the outcome (sent, or failed with the error). Safe to run
    twice: a message is claimed before sending, and only a queued one is sent."""
    message = _claim(message_id)
    if message is None:
        return None
    before = snapshot(message)
    try:
        _email(message, attachments).send()
    except Exception as error:  # noqa: BLE001 - any mail failure is recorded, never raised
        message.status, message.error = Status.FAILED, f"{type(error).__name__}: {error}"[:2000]
    else:
        message.status, message.sent_at, message.error = Status.SENT, timezone.now(), ""
    with transaction.atomic():
        message.save(update_fields=["status", "sent_at", "error"])
        audit_record(
            acting_user=SENDER,
            action=f"message.{message.status}",
            instance=message,
            before=before,
            after=snapshot(message),
        )
    return message


@transaction.atomic
def message_bounce(*, acting_user, message: Message, reason: str, bounced_at: dt.datetime | None = None):
    """Record that the recipient's mail system returned the message (a bounce webhook, or staff
    reading the bounce in the Town's mailbox). Only a sent message bounces; twice is a 409."""
    require_role(
        acting_user, MESSAGE_MANAGERS, "Only the FOG Manager and the Billing Clerk record bounced e-mail."
    )
    message = Message.objects.select_for_update().get(pk=message.pk)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError(
            {"reason": "Say why it bounced, as the mail system reported it (e.g. 550 no such user)."}
        )
    if message.status == Status.BOUNCED:
        raise StateConflict(f"{message.reference} is recorded as bounced already ({message.bounce_reason}).")
    if message.status != Status.SENT:
        raise StateConflict(
            f"{message.reference} is {message.get_status_display().lower()}, not sent: only a sent message bounces."
        )
    before = snapshot(message)
    message.status, message.bounce_reason = Status.BOUNCED, reason[:2000]
    message.bounced_at = bounced_at or timezone.now()
    message.save(update_fields=["status", "bounce_reason", "bounced_at"])
    audit_record(
        acting_user=acting_user,
        action="message.bounce",
        instance=message,
        before=before,
        after=snapshot(message),
    )
    return message


@transaction.atomic
def message_retry(*, acting_user, message: Message) -> Message:
    """Queue a failed message again (the mail server was down, the address was corrected on the
    contact): the same message, sent by the worker after commit. Only a failed one (409 otherwise)."""
    require_role(
        acting_user, MESSAGE_MANAGERS, "Only the FOG Manager and the Billing Clerk send a message again."
    )
    message = Message.objects.select_for_update().get(pk=message.pk)
    if message.status != Status.FAILED:
        raise StateConflict(
            f"{message.reference} is {message.get_status_display().lower()}: only a failed message is sent again."
        )
    before = snapshot(message)
    message.status, message.claimed_at = Status.QUEUED, None
    message.save(update_fields=["status", "claimed_at"])
    audit_record(
        acting_user=acting_user,
        action="message.retry",
        instance=message,
        before=before,
        after=snapshot(message),
    )
    enqueue_on_commit(SEND_TASK, [message.pk])
    return message
