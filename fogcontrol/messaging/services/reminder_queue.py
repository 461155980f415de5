"""The work queue "Reminders to send" (issue #17): what the nightly sweep would send today and has
not sent yet, and sending many of them at once.

A reminder waiting is one message not yet written: a recipient × kind × record × due date, named by
the message's own once-only key (``messages.dedupe_key``). ``reminders_pending`` is the sweep's
selection (``reminders_due``, the same queries) less the keys already written (one query per 500
keys). ``reminders_send_selected`` writes the chosen ones through ``messages_queue``, the one path
every message takes: a reminder sent from the queue has the key the sweep would give it, so the
sweep never sends it again, and one the sweep (or another person) sent meanwhile is reported as
"already sent", never sent twice. A key no longer due (the service recorded, the invoice paid since
the page was read) is reported as such.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re

from django.core.exceptions import ValidationError

from fogcontrol.core.permissions import require_role
from fogcontrol.core.set_sql import json_values
from fogcontrol.messaging.models import Kind, Message
from fogcontrol.messaging.roles import MESSAGE_MANAGERS
from fogcontrol.messaging.services.messages import Draft, dedupe_key, format_value, messages_queue
from fogcontrol.messaging.services.reminders import reminders_due

BULK_LIMIT = 1000  # reminders sent in one request: narrow the filters and send again for more
KEY = re.compile(r"^[0-9a-f]{64}$")
SENDERS_ONLY = "Only the FOG Manager and the Billing Clerk send reminders."

SENT, ALREADY_SENT, NOT_DUE = "sent", "already_sent", "not_due"
OUTCOMES = {
    SENT: "Sent now",
    ALREADY_SENT: "Already sent (by the nightly sweep or someone else): not sent again",
    NOT_DUE: "No longer due today (the record changed since the list was read): not sent",
}


def _about(draft: Draft) -> str:
    """The record a reminder is about, in words (the subject line's record)."""
    v = {key: format_value(value, "en") for key, value in draft.values.items()}
    return {
        Kind.SERVICE_DUE: "Device {device}",
        Kind.SERVICE_OVERDUE: "Device {device}",
        Kind.PERMIT_RENEWAL: "Permit {permit_number}",
        Kind.TRAINING_DUE: "Annual employee training",
        Kind.REPORT_DUE: "{report}",
        Kind.INVOICE_ISSUED: "Invoice {invoice_number} ({amount})",
        Kind.INVOICE_DELINQUENT: "Invoice {invoice_number} ({amount})",
        Kind.HEARING: "{hearing_kind} hearing",
    }.get(draft.kind, "").format_map(_Blank(v))


class _Blank(dict):
    def __missing__(self, key):
        return ""


@dataclasses.dataclass(frozen=True)
class PendingReminder:
    """One reminder due today and not yet sent: what the queue lists and the export writes."""

    key: str
    draft: Draft

    @property
    def kind(self) -> str:
        return self.draft.kind

    @property
    def kind_label(self) -> str:
        return Kind(self.draft.kind).label

    @property
    def about(self) -> str:
        return _about(self.draft)

    @property
    def due_on(self) -> dt.date | None:
        return self.draft.due_on

    @property
    def overdue(self) -> bool:
        return self.draft.kind in (Kind.SERVICE_OVERDUE, Kind.INVOICE_DELINQUENT)

    @property
    def business_name(self) -> str:
        return str(self.draft.values.get("business_name") or "")

    @property
    def establishment_id(self) -> int | None:
        return self.draft.establishment_id

    @property
    def to_email(self) -> str:
        return self.draft.recipient.email

    @property
    def to_name(self) -> str:
        return self.draft.recipient.name

    @property
    def language(self) -> str:
        return self.draft.recipient.language


def _by_key(on: dt.date) -> dict[str, Draft]:
    keyed: dict[str, Draft] = {}
    for draft in reminders_due(on=on):
        keyed.setdefault(dedupe_key(draft), draft)
    return keyed


def _written(keys) -> dict[str, Message]:
    """The messages already written under ``keys`` (one query, the keys as one JSON parameter)."""
    return {
        message.dedupe_key: message
        for message in Message.objects.filter(dedupe_key__in=json_values(keys, integers=False)).only(
            "pk", "dedupe_key", "status"
        )
    }


def reminders_pending(*, on: dt.date) -> list[PendingReminder]:
    """Every reminder due on ``on`` not sent yet, most urgent first (overdue, then by due date)."""
    keyed = _by_key(on)
    written = _written(keyed)
    pending = [PendingReminder(key, draft) for key, draft in keyed.items() if key not in written]
    pending.sort(key=lambda r: (not r.overdue, r.due_on or on, r.business_name, r.kind, r.to_email))
    return pending


@dataclasses.dataclass(frozen=True)
class ReminderOutcome:
    key: str
    outcome: str  # SENT, ALREADY_SENT, NOT_DUE
    message: Message | None = None
    reminder: PendingReminder | None = None

    @property
    def reason(self) -> str:
        return OUTCOMES[self.outcome]


@dataclasses.dataclass
class ReminderSendResult:
    items: list[ReminderOutcome]

    def _of(self, outcome: str) -> list[ReminderOutcome]:
        return [item for item in self.items if item.outcome == outcome]

    @property
    def sent(self) -> list[ReminderOutcome]:
        return self._of(SENT)

    @property
    def already_sent(self) -> list[ReminderOutcome]:
        return self._of(ALREADY_SENT)

    @property
    def not_due(self) -> list[ReminderOutcome]:
        return self._of(NOT_DUE)

    @property
    def not_sent(self) -> list[ReminderOutcome]:
        return [item for item in self.items if item.outcome != SENT]

    @property
    def summary(self) -> str:
        words = f"{len(self.sent)} sent"
        if self.already_sent:
            words += f", {len(self.already_sent)} already sent"
        if self.not_due:
            words += f", {len(self.not_due)} no longer due"
        return words


def clean_keys(keys) -> list[str]:
    """The selected keys, each once, in order; a ValidationError naming what is wrong."""
    cleaned: list[str] = []
    for key in keys:
        key = str(key).strip().lower()
        if not KEY.match(key):
            raise ValidationError(
                {"keys": f"{key[:70]!r} is not a reminder's key: tick the reminders in the list."}
            )
        if key not in cleaned:
            cleaned.append(key)
    if not cleaned:
        raise ValidationError(
            {"keys": "No reminder is selected: tick the reminders to send, or select all that match."}
        )
    if len(cleaned) > BULK_LIMIT:
        raise ValidationError(
            {"keys": f"At most {BULK_LIMIT} reminders at once: narrow the filters (a kind) and send again."}
        )
    return cleaned


def reminders_send_selected(*, acting_user, keys, on: dt.date) -> ReminderSendResult:
    """Send the reminders ``keys`` (their once-only keys) due on ``on``: each is written and queued
    for the worker, or reported as already sent or no longer due. One transaction (messages_queue's);
    a message written meanwhile by the sweep is skipped there, never sent twice."""
    require_role(acting_user, MESSAGE_MANAGERS, SENDERS_ONLY)
    keys = clean_keys(keys)
    due = _by_key(on)
    chosen = [due[key] for key in keys if key in due]
    created = {message.dedupe_key: message for message in messages_queue(
        acting_user=acting_user, drafts=chosen, on=on)}  # fmt: skip
    written = _written(key for key in keys if key not in created)
    items = []
    for key in keys:
        reminder = PendingReminder(key, due[key]) if key in due else None
        if key in created:
            items.append(ReminderOutcome(key, SENT, created[key], reminder))
        elif key in written:
            items.append(ReminderOutcome(key, ALREADY_SENT, written[key], reminder))
        else:
            items.append(ReminderOutcome(key, NOT_DUE, None, reminder))
    return ReminderSendResult(items)
