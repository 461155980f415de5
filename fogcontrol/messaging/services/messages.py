"""Queueing, sending and bouncing messages: the one path every e-mail of the program takes.

``messages_queue_rows`` (and ``messages_queue``, the same as instances) writes each message once
(its ``dedupe_key`` is unique: recipient × kind × subject record × due date), rendered from the
Town's wording in force (notices' ``DocumentTemplate``, one key per kind and language), from value
rows and audited by the database in one statement each, and queues the sending task after commit.
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
from django.db import models, transaction
from django.utils import timezone

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.audit.set_sql import audit_insert_select
from fogcontrol.core.actors import actor_label_for
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.languages import Language
from fogcontrol.core.permissions import require_role
from fogcontrol.core.queue import enqueue_on_commit
from fogcontrol.core.set_sql import insert_values, json_values
from fogcontrol.messaging.models import Message, Status
from fogcontrol.messaging.recipients import Recipient
from fogcontrol.messaging.roles import MESSAGE_MANAGERS
from fogcontrol.messaging.wording import template_key
from fogcontrol.notices.rendering import prepared
from fogcontrol.notices.services import template_in_force
from fogcontrol.program.selectors import town_profile

SEND_TASK = "fogcontrol.messaging.tasks.send_messages"
SENDER = "messaging.send"

MESES = ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
         "octubre", "noviembre", "diciembre")  # fmt: skip


@dataclasses.dataclass(frozen=True)
class Record:
    """A record a message is about, named by its model and id: a ``Draft``'s subject for a caller
    that reads its records as values (the nightly sweep's device states), not as instances."""

    model: type[models.Model]
    pk: int


@dataclasses.dataclass(frozen=True)
class Draft:
    """A message to write: its kind, recipient, the record it is about, the due date and the values
    its template fills in (dates and amounts are formatted in the recipient's language)."""

    kind: str
    recipient: Recipient
    subject: object  # the record the message is about: a model instance, or its ``Record``
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


def _about(subject) -> tuple[type[models.Model], int]:
    """The model and id of a draft's subject (an instance or a ``Record``)."""
    if isinstance(subject, Record):
        return subject.model, subject.pk
    return type(subject), subject.pk


def _label(content_type: ContentType) -> str:
    return f"{content_type.app_label}.{content_type.model}"


def _key(draft: Draft, label: str, pk: int) -> str:
    """The once-only key of a draft about the record ``pk`` of the model ``label``."""
    raw = "|".join(
        [
            draft.kind,
            draft.recipient.email.strip().lower(),
            label,
            str(pk),
            draft.due_on.isoformat() if draft.due_on else "",
        ]
    )
    return hashlib.sha256(raw.encode()).hexdigest()


def dedupe_key(draft: Draft) -> str:
    model, pk = _about(draft.subject)
    return _key(draft, _label(ContentType.objects.get_for_model(model)), pk)


def _common_values() -> dict[str, str]:
    profile = town_profile()
    return {
        "town_name": profile.name,
        "fog_manager_name": profile.fog_manager_name or "FOG Manager",
        "fog_manager_phone": profile.fog_manager_phone,
        "fog_manager_email": profile.fog_manager_email,
    }


_LANGUAGES = frozenset(Language.values)


class _Plan:
    """What the messages of one ``messages_queue_rows`` call share, worked out once (a sweep's
    chunk writes thousands): the subjects' content types, each template in force parsed once per
    (kind, language), the Town's values, and each date or amount in words once per language."""

    def __init__(self, *, on: dt.date, label: str):
        self.on, self.label = on, label[:150]
        self.types: dict[type, tuple[int, str]] = {}
        self.templates: dict[tuple[str, str], tuple[str, int, str, str]] = {}
        self.words: dict[tuple, str] = {}
        self.common: dict[str, str] | None = None

    def subject(self, subject) -> tuple[int, str, int]:
        """The content type id and label (``app.model``) of a draft's subject, and its id."""
        model, pk = _about(subject)
        found = self.types.get(model)
        if found is None:
            content_type = ContentType.objects.get_for_model(model)
            found = self.types[model] = (content_type.pk, _label(content_type))
        return found[0], found[1], pk

    def template(self, kind: str, language: str) -> tuple[str, int, str, str]:
        """The key, version, subject and body (``rendering.prepared``) of the wording in force."""
        found = self.templates.get((kind, language))
        if found is None:
            template = template_in_force(template_key(kind, language), self.on)
            found = (template.key, template.version, prepared(template.title), prepared(template.body))
            self.templates[kind, language] = found
        return found

    def worded(self, values: dict, language: str) -> dict[str, str]:
        """``format_value`` of each value; a text is itself, the rest (dates, amounts) remembered."""
        out = {}
        for name, value in values.items():
            if value.__class__ is str:
                out[name] = value
                continue
            known = (value.__class__, value, language)
            text = self.words.get(known)
            if text is None:
                text = self.words[known] = format_value(value, language)
            out[name] = text
        return out

    def row(self, key: str, draft: Draft, subject_type_id: int, subject_id: int) -> dict:
        """The message's columns (by attname) that are not its defaults: the one place a draft
        becomes a message."""
        recipient = draft.recipient
        language = str(recipient.language if recipient.language in _LANGUAGES else Language.ENGLISH)
        if draft.text is not None:
            (subject, body), template_name, version = draft.text, "", None
        else:
            template_name, version, title, text = self.template(draft.kind, language)
            if self.common is None:
                self.common = _common_values()
            values = {**self.common, "business_name": "", "recipient_name": recipient.name}
            values.update(self.worded(draft.values, language))
            subject, body = title.format_map(values), text.format_map(values)
        return {
            "kind": str(draft.kind),
            "dedupe_key": key,
            "to_email": recipient.email,
            "to_name": recipient.name[:200],
            "language": language,
            "template_key": template_name,
            "template_version": version,
            "subject": subject[:300],
            "body": body,
            "due_on": draft.due_on,
            "establishment_id": draft.establishment_id,
            "party_id": recipient.party_id,
            "user_id": recipient.user_id,
            "subject_type_id": subject_type_id,
            "subject_id": subject_id,
            "created_by_label": self.label,
        }


def _written(keys: list[str]) -> set[str]:
    """The keys among ``keys`` already written: one query, the keys sent as one JSON parameter
    (``dedupe_key__in`` of a list binds a parameter a key, thousands a chunk)."""
    return set(
        Message.objects.filter(dedupe_key__in=json_values(keys, integers=False)).values_list(
            "dedupe_key", flat=True
        )
    )


def _defaults(row: dict) -> dict:
    """The columns a new message takes from the model (its status and delivery, not yet known),
    but the id and the moment queued: what its INSERT leaves to them."""
    return {
        field.attname: field.get_default()
        for field in Message._meta.concrete_fields
        if field.attname not in row and field.attname not in ("id", "queued_at")
    }


def messages_queue_rows(*, acting_user, drafts: list[Draft], on: dt.date) -> list[dict]:
    """Write each draft not written before as a queued message, audit it, and send them after
    commit: the one writer of messages (``messages_queue`` gives its rows as instances).

    Returns the messages written now as rows (every column by attname; an empty list when
    everything was sent before). From value rows, no ``Message`` built: one SELECT of the keys
    written, one INSERT of the messages and one of their audit entries, whatever the number (plus
    the Town's profile and each template's first use in the call). A message another run wrote
    meanwhile (the same key) is skipped by the INSERT, not sent twice."""
    rows, ids, now = _queue(acting_user=acting_user, drafts=drafts, on=on)
    if not rows:
        return []
    defaults = _defaults(rows[0])
    return [{"id": pk, **row, **defaults, "queued_at": now} for pk, row in zip(ids, rows, strict=True)]


def messages_queue_kinds(*, acting_user, drafts: list[Draft], on: dt.date) -> list[str]:
    """``messages_queue_rows``, giving only the kind of each message written now: the nightly
    reminders count them, and need no row of every column (thousands a chunk)."""
    rows, _, _ = _queue(acting_user=acting_user, drafts=drafts, on=on)
    return [row["kind"] for row in rows]


@transaction.atomic
def _queue(
    *, acting_user, drafts: list[Draft], on: dt.date
) -> tuple[list[dict], list[int], dt.datetime | None]:
    """``messages_queue_rows``' work: the columns given of each message written now, their ids, in
    the same order, and the moment queued (no rows and None when nothing was written)."""
    plan = _Plan(on=on, label=actor_label_for(acting_user))
    keyed: dict[str, tuple] = {}
    for draft in drafts:
        subject_type_id, label, subject_id = plan.subject(draft.subject)
        keyed.setdefault(_key(draft, label, subject_id), (draft, subject_type_id, subject_id))
    if not keyed:
        return [], [], None
    existing = _written(list(keyed))
    rows = [plan.row(key, *about) for key, about in keyed.items() if key not in existing]
    if not rows:
        return [], [], None
    now = timezone.now()  # the moment queued: one for the statement, as each row returned says
    ids = insert_values(Message, rows, skip_conflicts=True, now=now)
    if len(ids) < len(rows):  # some written meanwhile (the same keys): those are not this call's
        ids_by_key = dict(Message.objects.filter(pk__in=ids).values_list("dedupe_key", "pk"))
        rows = [row for row in rows if row["dedupe_key"] in ids_by_key]
        ids = [ids_by_key[row["dedupe_key"]] for row in rows]
    # The entries are built by the database from the rows just written, as ``snapshot`` builds
    # them (``audit.set_sql``, as the enforcement sweep audits its violations): no snapshot of
    # each message made in Python and sent back as JSON.
    audit_insert_select(
        acting_user=acting_user,
        action="message.queue",
        model=Message,
        ids=ids,
        after=None,
        object_repr=Message.describe_sql("t"),
        created=True,
    )
    enqueue_on_commit(SEND_TASK, list(ids))
    return rows, ids, now


def messages_queue(*, acting_user, drafts: list[Draft], on: dt.date) -> list[Message]:
    """``messages_queue_rows``, the messages written now as instances (permit notices, invitations,
    the reminders page: a few at a time)."""
    rows = messages_queue_rows(acting_user=acting_user, drafts=drafts, on=on)
    attnames = [field.attname for field in Message._meta.concrete_fields]
    return [Message.from_db("default", attnames, [row[name] for name in attnames]) for row in rows]


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
